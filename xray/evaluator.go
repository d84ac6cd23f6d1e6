package xray

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// DefaultEvaluator echoes every hit of the driver (code-indexer's default).
const DefaultEvaluator = `return {"matches": [{"line_number": p["line_number"]} for p in match_positions], "value": None}`

// evaluatorFile is the file name Starlark positions carry.
const evaluatorFile = "evaluator"

// wrapperLines and wrapperIndent are what wrapping the code as a function
// body adds before each of its lines, to map positions back.
const (
	wrapperLines  = 2
	wrapperIndent = 4
	entryPoint    = "__xray_evaluator__"
)

// fileGlobals are the globals an evaluator sees (docs/xray.md, Globals).
var fileGlobals = []string{"node", "root", "source", "lang", "file_path", "match_positions",
	"match_byte_offset", "match_line_number", "match_line_content"}

// Evaluator is compiled evaluator code, ready to run on many files at once.
type Evaluator struct {
	program *starlark.Program
	limits  Limits
}

// fileOptions are the dialect: while loops and sets allowed, recursion not.
var fileOptions = &syntax.FileOptions{While: true, Set: true}

// Compile checks and compiles evaluator code, a function body: a syntax
// error or a name that is not a global, a builtin or a local is an
// InputError with the line and column in the code as written.
func Compile(code string, limits Limits) (*Evaluator, error) {
	if strings.TrimSpace(code) == "" {
		code = DefaultEvaluator
	}
	if strings.ContainsRune(code, 0) {
		return nil, invalidf("evaluator: the code holds a NUL byte; remove it")
	}
	f, err := fileOptions.Parse(evaluatorFile, wrap(code), 0)
	if err != nil {
		return nil, compileError(err)
	}
	guardFile(f)
	prog, err := starlark.FileProgram(f, isPredeclared)
	if err != nil {
		return nil, compileError(err)
	}
	return &Evaluator{program: prog, limits: limits}, nil
}

// wrap makes the code the body of a function, so a top-level return works.
func wrap(code string) string {
	var b strings.Builder
	indent := strings.Repeat(" ", wrapperIndent)
	b.WriteString("def " + entryPoint + "():\n" + indent + "pass\n") // a body even when the code is only comments
	for line := range strings.Lines(code) {
		b.WriteString(indent)
		b.WriteString(line)
	}
	return b.String()
}

func isPredeclared(name string) bool {
	return sandboxBuiltins.Has(name) || isGlobal(name)
}

func isGlobal(name string) bool {
	for _, g := range fileGlobals {
		if g == name {
			return true
		}
	}
	return false
}

// codePosition maps a position in the wrapped code back to the code as written.
func codePosition(p syntax.Position) string {
	return fmt.Sprintf("line %d, column %d", max(1, int(p.Line)-wrapperLines), max(1, int(p.Col)-wrapperIndent))
}

// compileError describes a syntax or resolve error at its place in the code.
func compileError(err error) error {
	var list resolve.ErrorList
	var synErr syntax.Error
	switch {
	case errors.As(err, &list) && len(list) > 0:
		var msgs []string
		for _, e := range list {
			msgs = append(msgs, fmt.Sprintf("%s: %s%s", codePosition(e.Pos), e.Msg, resolveHint(e.Msg)))
		}
		return invalidf("evaluator does not compile: %s", strings.Join(msgs, "; "))
	case errors.As(err, &synErr):
		hint := ""
		if strings.Contains(synErr.Msg, "load") {
			hint = " (load is not available: an evaluator has only its globals and the builtins)"
		}
		return invalidf("evaluator has a syntax error at %s: %s%s (evaluators are Starlark, a Python dialect without try, class, import or recursion)",
			codePosition(synErr.Pos), synErr.Msg, hint)
	}
	return invalidf("evaluator does not compile: %v", err)
}

func resolveHint(msg string) string {
	switch {
	case strings.HasPrefix(msg, "undefined: "):
		return " (the globals are " + strings.Join(fileGlobals[:6], ", ") + ")"
	case strings.HasPrefix(msg, "load statement"):
		return " (load is not available: an evaluator has only its globals and the builtins)"
	}
	return ""
}

// fileInput is what one file's evaluation sees.
type fileInput struct {
	root      *Node // its budget is the evaluation's
	source    string
	lang      string
	path      string
	positions *starlark.List
}

// evalFailure is one file's evaluation error.
type evalFailure struct {
	kind ErrorType
	msg  string
}

func (e *evalFailure) Error() string { return e.msg }

// errFileTimeout is the cause of a file's context ending at fileTimeoutMs.
var errFileTimeout = errors.New("fileTimeoutMs")

// fileTimedOut reports whether ctx, a file's context, ended at its
// fileTimeoutMs (and not with the run).
func fileTimedOut(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errFileTimeout)
}

// run evaluates the code on one file and returns what it returned. It stops
// at the step budget or when ctx, the file's context, ends: at its
// fileTimeout (an EvaluatorTimeout), or with the run.
func (ev *Evaluator) run(ctx context.Context, in fileInput, fileTimeout time.Duration, prints *printLog) (starlark.Value, *evalFailure) {
	thread := &starlark.Thread{Name: in.path, Print: prints.forFile(in.path)}
	thread.SetMaxExecutionSteps(ev.limits.MaxSteps)
	thread.SetLocal(budgetKey, in.root.budget)
	stop := context.AfterFunc(ctx, func() { thread.Cancel("stopped") })
	defer stop()

	globals := starlark.StringDict{
		"node": in.root, "root": in.root, "source": starlark.String(in.source), "lang": starlark.String(in.lang),
		"file_path": starlark.String(in.path), "match_positions": in.positions,
		"match_byte_offset": starlark.None, "match_line_number": starlark.None, "match_line_content": starlark.None,
	}
	for k, v := range sandboxBuiltins {
		globals[k] = v
	}
	defined, err := ev.program.Init(thread, globals)
	var result starlark.Value
	if err == nil {
		result, err = starlark.Call(thread, defined[entryPoint], nil, nil)
	}
	if err == nil {
		return result, nil
	}
	switch {
	case fileTimedOut(ctx):
		return nil, &evalFailure{EvaluatorTimeout, fmt.Sprintf("evaluator exceeded the %d ms per-file limit (fileTimeoutMs)", fileTimeout.Milliseconds())}
	case thread.ExecutionSteps() >= ev.limits.MaxSteps:
		return nil, &evalFailure{EvaluatorTimeout, fmt.Sprintf("evaluator exceeded its budget of %d steps for this file (sandbox limit): an endless loop?", ev.limits.MaxSteps)}
	}
	return nil, &evalFailure{EvaluatorCrash, crashMessage(err)}
}

// crashMessage is a runtime error with its place in the code as written.
func crashMessage(err error) string {
	var evalErr *starlark.EvalError
	if !errors.As(err, &evalErr) {
		return err.Error()
	}
	msg := evalErr.Msg
	for i := range evalErr.CallStack {
		if pos := evalErr.CallStack.At(i).Pos; pos.Filename() == evaluatorFile {
			return fmt.Sprintf("%s: %s", codePosition(pos), msg)
		}
	}
	return msg
}
