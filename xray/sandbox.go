package xray

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"
)

// Limits bound one file's evaluation. Starlark itself has no I/O, no load
// (the code is a function body, where load cannot appear) and, as
// configured here, no recursion; these limits bound its time and memory.
type Limits struct {
	// MaxSteps is the Starlark step budget per file (each bytecode
	// instruction is a step); running out is an EvaluatorTimeout.
	MaxSteps uint64
	// MaxStringBytes caps any string an evaluator builds (the file's own
	// source may be larger).
	MaxStringBytes int
	// MaxListLen caps the elements of any list, tuple, dict or set an
	// evaluator builds in one operation (a range, which holds nothing, may
	// be of any length).
	MaxListLen int
	// MaxAllocBytes caps the total bytes one file's evaluation may build
	// (charge.go says how it is counted), so many large values in a loop
	// end too.
	MaxAllocBytes int
}

// DefaultLimits are the limits of a run unless a test sets its own.
var DefaultLimits = Limits{
	MaxSteps:       100_000_000, // about 1.3 s of a tight loop on the 2-core dev machine: below fileTimeoutMs's default
	MaxStringBytes: 16 << 20,
	MaxListLen:     1 << 20,
	MaxAllocBytes:  512 << 20,
}

// sandboxError is a limit an evaluator ran into.
type sandboxError struct{ msg string }

func (e *sandboxError) Error() string { return e.msg }

// budget is one evaluation's running total of guarded allocations.
type budget struct {
	limits Limits
	used   int
}

const budgetKey = "xray.budget"

func budgetOf(thread *starlark.Thread) *budget { return thread.Local(budgetKey).(*budget) }

// charge counts bytes about to be built, refusing them past the caps.
func (b *budget) charge(what string, bytes int) error {
	b.used += bytes
	if b.used > b.limits.MaxAllocBytes {
		return &sandboxError{fmt.Sprintf("%s: the evaluator built more than %d MiB of strings and lists for this file (sandbox limit); build less, e.g. collect line numbers instead of text",
			what, b.limits.MaxAllocBytes>>20)}
	}
	return nil
}

func (b *budget) checkString(what string, n int) error {
	if n > b.limits.MaxStringBytes {
		return &sandboxError{fmt.Sprintf("%s would make a string of %d bytes; the sandbox allows %d", what, n, b.limits.MaxStringBytes)}
	}
	return b.charge(what, n)
}

// checkList checks a new list or tuple of n elements.
func (b *budget) checkList(what string, n int) error {
	if err := b.checkLength(what, n); err != nil {
		return err
	}
	return b.charge(what, 16*n)
}

// checkLength checks that a list may have n elements.
func (b *budget) checkLength(what string, n int) error {
	if n > b.limits.MaxListLen {
		return &sandboxError{fmt.Sprintf("%s would make %d elements; the sandbox allows %d", what, n, b.limits.MaxListLen)}
	}
	return nil
}

// sizeOf is the length of a string, bytes, list or tuple, and whether v is one.
func sizeOf(v starlark.Value) (n int, isString, ok bool) {
	switch v := v.(type) {
	case starlark.String:
		return len(v), true, true
	case starlark.Bytes:
		return len(v), true, true
	case *starlark.List:
		return v.Len(), false, true
	case starlark.Tuple:
		return len(v), false, true
	}
	return 0, false, false
}

// checkGrowth checks the result of x op y before it is built.
func (b *budget) checkGrowth(op string, x, y starlark.Value) error {
	nx, sx, okx := sizeOf(x)
	ny, sy, oky := sizeOf(y)
	what := operatorName(op)
	check := b.checkList
	if sx || sy {
		check = b.checkString
	}
	switch op {
	case "+", "+=":
		if okx && oky && op == "+=" && !sx {
			// A list grows in place: only the new elements are built.
			if err := b.checkLength(what, nx+ny); err != nil {
				return err
			}
			return b.charge(what, 16*ny)
		}
		if okx && oky {
			return check(what, nx+ny)
		}
	case "*", "*=":
		if xi, ok := x.(starlark.Int); ok {
			if yi, ok := y.(starlark.Int); ok {
				return checkIntBits(what, xi, yi)
			}
		}
		count, seq := y, nx
		if !okx {
			count, seq = x, ny
		}
		if i, isInt := count.(starlark.Int); isInt && (okx || oky) {
			times, exact := i.Int64()
			if !exact || times > int64(b.limits.MaxListLen)*int64(b.limits.MaxStringBytes) {
				return check(what, int(^uint(0)>>1))
			}
			return check(what, int(min(times*int64(seq), int64(^uint(0)>>1))))
		}
	case "%", "%=":
		if sx {
			return b.checkString(what, nx+estimate(y, b.limits.MaxStringBytes))
		}
	case "-", "|", "&", "^":
		// A new set, or with | a new dict, of at most the entries of both.
		if entries := entriesOf(x) + entriesOf(y); entries > 0 {
			if err := b.checkLength(what, entries); err != nil {
				return err
			}
			return b.charge(what, dictEntryCost*entries)
		}
	}
	return nil
}

// entriesOf is the number of entries of a set or dict, else 0.
func entriesOf(v starlark.Value) int {
	switch v := v.(type) {
	case *starlark.Set:
		return v.Len()
	case *starlark.Dict:
		return v.Len()
	}
	return 0
}

// guardedOperators are the operators the guards check: their token (for
// the binary ones) and their name in messages, made once rather than on
// every checked operation.
var guardedOperators = map[string]struct {
	tok  syntax.Token
	name string
}{
	"+": {syntax.PLUS, "the + operator"}, "*": {syntax.STAR, "the * operator"}, "%": {syntax.PERCENT, "the % operator"},
	"-": {syntax.MINUS, "the - operator"}, "|": {syntax.PIPE, "the | operator"}, "&": {syntax.AMP, "the & operator"},
	"^":  {syntax.CIRCUMFLEX, "the ^ operator"},
	"+=": {syntax.ILLEGAL, "the += operator"}, "*=": {syntax.ILLEGAL, "the *= operator"}, "%=": {syntax.ILLEGAL, "the %= operator"},
}

// operatorName names an operator in messages ("the + operator").
func operatorName(op string) string {
	if o, ok := guardedOperators[op]; ok {
		return o.name
	}
	return "the " + op + " operator"
}

// maxIntBits caps the integers a product may make: squaring a number over
// and over doubles its size each step.
const maxIntBits = 1 << 20

func checkIntBits(what string, x, y starlark.Int) error {
	if bits := x.BigInt().BitLen() + y.BigInt().BitLen(); bits > maxIntBits {
		return &sandboxError{fmt.Sprintf("%s would make an integer of %d bits; the sandbox allows %d", what, bits, maxIntBits)}
	}
	return nil
}

// estimate is about how many bytes the str() of v takes, counting no
// further than limit (a list may hold the same large string a million times).
func estimate(v starlark.Value, limit int) int {
	total := 0
	var walk func(v starlark.Value, depth int)
	walk = func(v starlark.Value, depth int) {
		if total > limit || depth > 64 {
			total = limit + 1
			return
		}
		switch v := v.(type) {
		case starlark.String:
			total += len(v) + 2
		case starlark.Bytes:
			total += 4*len(v) + 3
		case starlark.Indexable:
			for i := range v.Len() {
				walk(v.Index(i), depth+1)
				total += 2
				if total > limit {
					return
				}
			}
		case *starlark.Dict:
			for _, kv := range v.Items() {
				walk(kv[0], depth+1)
				walk(kv[1], depth+1)
				if total > limit {
					return
				}
			}
		default:
			total += 24
		}
	}
	walk(v, 0)
	return total
}

// sandboxBuiltins are the predeclared names that replace or hide Starlark
// builtins, and the guards the rewrite calls.
var sandboxBuiltins = func() starlark.StringDict {
	d := starlark.StringDict{
		binopGuard: starlark.NewBuiltin(binopGuard, guardedBinop),
		growGuard:  starlark.NewBuiltin(growGuard, guardedGrow),
		attrGuard:  starlark.NewBuiltin(attrGuard, guardedAttr),
		storeGuard: starlark.NewBuiltin(storeGuard, guardedStore),
		newGuard:   starlark.NewBuiltin(newGuard, guardedNew),
		itemGuard:  starlark.NewBuiltin(itemGuard, guardedItem),
		"str":      starlark.NewBuiltin("str", guardedToString("str")),
		"repr":     starlark.NewBuiltin("repr", guardedToString("repr")),
		"bytes":    starlark.NewBuiltin("bytes", guardedToString("bytes")),
		"print":    starlark.NewBuiltin("print", guardedPrint),
		"getattr":  starlark.NewBuiltin("getattr", unavailable("getattr", "use x.name")),
	}
	for name, b := range chargedBuiltins {
		d[name] = b
	}
	return d
}()

func unavailable(name, hint string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
		return nil, fmt.Errorf("%s is not available in evaluators: %s", name, hint)
	}
}

// guardArgs unpacks the arguments the rewrite passes a guard: a name (an
// operator or a method) and n values. Evaluator code may call a guard
// itself; then it gets an error, not a panic.
func guardArgs(b *starlark.Builtin, args starlark.Tuple, nameAt, n int) (string, error) {
	if len(args) != n {
		return "", fmt.Errorf("%s is internal to the sandbox: do not call it", b.Name())
	}
	name, ok := args[nameAt].(starlark.String)
	if !ok {
		return "", fmt.Errorf("%s is internal to the sandbox: do not call it", b.Name())
	}
	return string(name), nil
}

func guardedBinop(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	op, err := guardArgs(b, args, 0, 3)
	if err != nil {
		return nil, err
	}
	x, y := args[1], args[2]
	if err := budgetOf(thread).checkGrowth(op, x, y); err != nil {
		return nil, err
	}
	tok := guardedOperators[op].tok
	if tok == syntax.ILLEGAL {
		return nil, fmt.Errorf("%s is internal to the sandbox: do not call it", b.Name())
	}
	return starlark.Binary(tok, x, y)
}

// guardedGrow checks x op= y and returns y for the augmented assignment.
func guardedGrow(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	op, err := guardArgs(b, args, 0, 3)
	if err != nil {
		return nil, err
	}
	x, y := args[1], args[2]
	if err := budgetOf(thread).checkGrowth(op, x, y); err != nil {
		return nil, err
	}
	return y, nil
}

// dictEntryCost is the memory of one dict entry, about.
const dictEntryCost = 64

// guardedStore checks x[k] = v before it is stored and returns v: a dict
// grows by an entry.
func guardedStore(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	if len(args) != 2 {
		return nil, fmt.Errorf("%s is internal to the sandbox: do not call it", b.Name())
	}
	if d, ok := args[0].(*starlark.Dict); ok {
		b := budgetOf(thread)
		if err := b.checkLength("a dict", d.Len()+1); err != nil {
			return nil, err
		}
		if err := b.charge("a dict", dictEntryCost); err != nil {
			return nil, err
		}
	}
	return args[1], nil
}

// guardedPrint is print, its text checked as str()'s is; the thread's
// Print sends it on (evaluator.go).
func guardedPrint(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	bud := budgetOf(thread)
	if err := bud.checkString("print()", estimate(args, bud.limits.MaxStringBytes)); err != nil {
		return nil, err
	}
	return starlark.Call(thread, starlark.Universe["print"], args, kwargs)
}

func guardedToString(name string) func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error) {
	return func(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		bud := budgetOf(thread)
		if len(args) == 1 {
			if err := bud.checkString(name+"()", estimate(args[0], bud.limits.MaxStringBytes)); err != nil {
				return nil, err
			}
		}
		return starlark.Call(thread, starlark.Universe[name], args, kwargs)
	}
}

// guardedAttr returns x.name; for the methods that build a string or a
// list, a wrapper that checks the result's size before calling.
func guardedAttr(thread *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
	name, err := guardArgs(b, args, 1, 2)
	if err != nil {
		return nil, err
	}
	x := args[0]
	attrs, ok := x.(starlark.HasAttrs)
	if !ok {
		return nil, fmt.Errorf("%s has no .%s field or method", x.Type(), name)
	}
	m, err := attrs.Attr(name)
	if err != nil || m == nil {
		if err == nil {
			err = fmt.Errorf("%s has no .%s field or method", x.Type(), name)
		}
		return nil, err
	}
	switch x.(type) {
	case starlark.String, *starlark.List, *starlark.Dict, *starlark.Set:
	default:
		return m, nil
	}
	return starlark.NewBuiltin(name, func(thread *starlark.Thread, _ *starlark.Builtin, margs starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		if err := checkMethod(budgetOf(thread), x, name, margs); err != nil {
			return nil, err
		}
		return starlark.Call(thread, m, margs, kwargs)
	}), nil
}

// checkMethod checks the size of what x.name(args...) would build.
func checkMethod(b *budget, x starlark.Value, name string, args starlark.Tuple) error {
	what := "." + name + "()"
	switch x := x.(type) {
	case starlark.String:
		switch name {
		case "join":
			if len(args) == 1 {
				return b.checkString(what, joinedSize(string(x), args[0], b.limits.MaxStringBytes))
			}
		case "replace":
			if len(args) >= 2 {
				old, _ := starlark.AsString(args[0])
				repl, _ := starlark.AsString(args[1])
				count := len(x) + 1
				if old != "" {
					count = strings.Count(string(x), old)
				}
				return b.checkString(what, len(x)+count*max(0, len(repl)-len(old)))
			}
		case "format":
			holes := strings.Count(string(x), "{")
			return b.checkString(what, len(x)+holes*estimate(args, b.limits.MaxStringBytes))
		case "split", "rsplit", "splitlines":
			sep := "\n"
			if len(args) > 0 {
				if s, ok := starlark.AsString(args[0]); ok && s != "" {
					sep = s
				} else if name != "splitlines" {
					sep = " "
				}
			}
			return b.checkList(what, strings.Count(string(x), sep)+1)
		case "upper", "lower", "title", "capitalize":
			return b.checkString(what, len(x)) // a new string of about the same length
		}
	case *starlark.List:
		switch name {
		case "append", "insert":
			if err := b.checkLength(what, x.Len()+1); err != nil {
				return err
			}
			return b.charge(what, 16)
		case "extend":
			if len(args) == 1 {
				if n := starlark.Len(args[0]); n >= 0 {
					if err := b.checkLength(what, x.Len()+n); err != nil {
						return err
					}
					return b.charge(what, 16*n)
				}
			}
		}
	case *starlark.Dict:
		switch name {
		case "items":
			if err := b.checkLength(what, x.Len()); err != nil {
				return err
			}
			return b.charge(what, x.Len()*(slotCost+tupleOf(2)))
		case "keys", "values":
			return b.checkList(what, x.Len())
		}
		added := 1 // setdefault
		if name == "update" && len(args) == 1 {
			added = max(0, starlark.Len(args[0]))
		}
		if err := b.checkLength(what, x.Len()+added); err != nil {
			return err
		}
		return b.charge(what, dictEntryCost*added)
	case *starlark.Set:
		added := 1 // add
		if name != "add" {
			added = 0
			for _, a := range args {
				added += max(0, starlark.Len(a))
			}
		}
		if name != "add" && name != "update" {
			added += x.Len() // a new set
		}
		if err := b.checkLength(what, x.Len()+added); err != nil {
			return err
		}
		return b.charge(what, setEntryCost*added)
	}
	return nil
}

// joinedSize is the length of sep.join(elems), counting no further than limit.
func joinedSize(sep string, elems starlark.Value, limit int) int {
	iter, ok := elems.(starlark.Iterable)
	if !ok {
		return 0 // join reports the type error itself
	}
	it := iter.Iterate()
	defer it.Done()
	total := 0
	var v starlark.Value
	for it.Next(&v) && total <= limit {
		if s, ok := starlark.AsString(v); ok {
			total += len(s) + len(sep)
		}
	}
	return total
}
