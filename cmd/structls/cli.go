package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/atomicwrite"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/workspace"
)

// multiFlag is a repeatable string flag (-g a -g b).
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// parseInterspersed parses flags that may appear before, between or after
// the positional arguments, as ripgrep allows. "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// session is an in-process server with an editor connected to it, rooted at
// a workspace folder.
type session struct {
	editor *client.Editor
	wait   func() int
	root   string
	// progress, when set (showProgress), shows the commands' progress.
	progress atomic.Pointer[progressLine]
}

// startSession starts the server in-process, with the options server
// gives (a command's parse budget), and initialises it on root; with
// --remote=auto it connects to the shared server instead (remote.go),
// through the same editor, and the shared server's own options apply.
func startSession(ctx context.Context, root string, opts client.EditorOptions, server lsp.Options) (*session, error) {
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("workspace root %s is not a directory", root)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		// An apply a killed structls left half done is made whole before the
		// session reads the files (the server would do it too, but quietly).
		for _, note := range atomicwrite.Recover([]string{real}) {
			fmt.Fprintf(os.Stderr, "structls: %s\n", note)
		}
	}
	s := &session{root: abs}
	onNotify := opts.OnNotify
	opts.OnNotify = func(method string, params json.RawMessage) {
		if onNotify != nil {
			onNotify(method, params)
		}
		if p := s.progress.Load(); p != nil {
			p.notify(method, params)
		}
	}
	if opts.InitOptions == nil {
		// One query per process: keeping parsed trees for later would only cost memory.
		opts.InitOptions = json.RawMessage(`{"structls": {"parseCacheMB": 0}}`)
	}
	var ed *client.Editor
	var wait func() int
	if remoteMode == "auto" {
		conn, err := dialRemote(ctx, abs)
		if err != nil {
			return nil, err
		}
		ed, wait = client.NewEditor(conn, opts), func() int { return 0 }
	} else {
		server.Version = version
		ed, wait = lsp.StartInProcess(ctx, server, opts)
	}
	initCtx := ctx
	if remoteMode == "auto" { // a server that takes the connection must answer at once
		var cancel context.CancelFunc
		initCtx, cancel = context.WithTimeout(ctx, remoteHandshakeTimeout)
		defer cancel()
	}
	if _, err := ed.Initialize(initCtx, abs); err != nil {
		if remoteMode == "auto" && errors.Is(err, context.DeadlineExceeded) {
			return nil, fmt.Errorf("--remote=auto: the shared server at %s (pid %d) took the connection but did not answer in %v (hung?): kill it (a new one starts), or run without --remote", remoteSocket, remotePid, remoteHandshakeTimeout)
		}
		return nil, fmt.Errorf("initialize: %w", err)
	}
	s.editor, s.wait = ed, wait
	return s, nil
}

// showProgress shows the progress of the session's long commands on
// stderr when it is a terminal and the output is not for a program
// (forProgram: --json); see progressLine. It returns stdout made to clear
// the progress line before it writes, when both are the same terminal.
func (s *session) showProgress(stdout, stderr io.Writer, forProgram bool) io.Writer {
	p := newProgressLine(stderr, forProgram)
	if p == nil {
		return stdout
	}
	s.progress.Store(p)
	return p.guard(stdout)
}

// call runs a command, with its partial results to onBatch when it is not
// nil, and its progress shown when the session shows progress.
func (s *session) call(ctx context.Context, command string, arg any, onBatch func(client.PartialBatch) error) (json.RawMessage, error) {
	if p := s.progress.Load(); p != nil {
		p.begin()
		defer p.end()
		return s.editor.ExecuteCommandWorkDone(ctx, command, arg, p.tokenString(), onBatch)
	}
	if onBatch != nil {
		return s.editor.ExecuteCommandBatches(ctx, command, arg, onBatch)
	}
	return s.editor.ExecuteCommand(ctx, command, arg)
}

// close shuts the server down cleanly.
func (s *session) close(ctx context.Context) {
	_ = s.editor.Shutdown(ctx)
	s.wait()
	_ = s.editor.Close()
}

// execute runs a command and decodes its result into out (when not nil).
func (s *session) execute(ctx context.Context, command string, arg any, out any) (json.RawMessage, error) {
	raw, err := s.call(ctx, command, arg, nil)
	if err != nil {
		return nil, err
	}
	if out != nil {
		// json v2 decodes large results about twice as fast as encoding/json.
		if err := jsonv2.Unmarshal(raw, out); err != nil {
			return nil, fmt.Errorf("decoding the %s result: %w", command, err)
		}
	}
	return raw, nil
}

// printResult prints a command's result: with asJSON the raw result
// exactly, else its text rendering; then each note on stderr, after stdout
// is flushed (as ast-grep warns), so whoever reads only stdout still hears
// of a broken pattern or a mistyped path.
func printResult(stdout, stderr io.Writer, raw json.RawMessage, text string, asJSON bool, notes []string) {
	out := bufio.NewWriterSize(stdout, 64<<10)
	if asJSON {
		fmt.Fprintf(out, "%s\n", raw)
	} else {
		fmt.Fprint(out, text)
	}
	out.Flush()
	for _, n := range notes {
		fmt.Fprintf(stderr, "structls: %s\n", n)
	}
}

// streamPrinter prints a streamed command result (structls.astGrep and
// structls.xray stream matches, structls.outline files; lsp/partial.go) as
// it arrives: each batch's text, or with --json each batch's items inside
// one JSON document that ends with the final reply's other fields — the
// very bytes the unstreamed reply would be. Nothing printed is kept.
type streamPrinter struct {
	out     *bufio.Writer
	asJSON  bool
	command string // the command, for messages
	field   string // the reply's streamed array: "matches" (the default) or "files"
	printed int    // items printed as JSON
}

// batch prints one partial result.
func (p *streamPrinter) batch(b client.PartialBatch) error {
	if !p.asJSON {
		_, err := p.out.WriteString(b.Text)
		return err
	}
	if b.Count == 0 {
		return nil
	}
	if p.printed == 0 {
		fmt.Fprintf(p.out, `{%q:[`, p.arrayField())
	} else {
		p.out.WriteByte(',')
	}
	p.printed += b.Count
	_, err := p.out.Write(b.Matches)
	return err
}

func (p *streamPrinter) arrayField() string {
	if p.field == "" {
		return "matches"
	}
	return p.field
}

// finish prints the end of the result: the final reply's text, or with
// --json the reply itself after the items printed. The final reply of a
// streamed result starts with its array empty ({"matches":[]).
func (p *streamPrinter) finish(raw json.RawMessage, text string) error {
	empty := fmt.Sprintf(`{%q:[]`, p.arrayField())
	switch {
	case !p.asJSON:
		p.out.WriteString(text)
	case p.printed == 0:
		fmt.Fprintf(p.out, "%s\n", raw)
	case bytes.HasPrefix(raw, []byte(empty)):
		p.out.WriteByte(']')
		p.out.Write(raw[len(empty):])
		p.out.WriteByte('\n')
	default:
		return fmt.Errorf("the server's %s reply does not start with %s: update structls so the CLI and the server match", p.command, empty)
	}
	return p.out.Flush()
}

// nextCommand is the command line that continues a page: the command sub
// with the same arguments (read with its flags, fs), its --skip set to
// skip.
func nextCommand(fs *flag.FlagSet, sub string, args []string, skip int) string {
	return commandLine(fs, sub, args, "--skip", strconv.Itoa(skip))
}

// commandLine is the command sub run again with the same arguments (read
// with its flags, fs) but for the flags in set ("--name" then its value,
// if it takes one): those come first, in place of any given.
func commandLine(fs *flag.FlagSet, sub string, args []string, set ...string) string {
	words := []string{"structls", sub} // without --remote: the output is the in-process CLI's
	words = append(words, set...)
	replaced := map[string]bool{}
	for _, w := range set {
		if strings.HasPrefix(w, "-") {
			replaced[strings.TrimLeft(w, "-")] = true
		}
	}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			words = append(words, args[i:]...)
			break
		}
		name, _, inline := strings.Cut(strings.TrimLeft(arg, "-"), "=")
		f := fs.Lookup(name)
		if !strings.HasPrefix(arg, "-") || arg == "-" || f == nil {
			words = append(words, arg)
			continue
		}
		takesValue := !inline && !isBoolFlag(f)
		if replaced[name] {
			if takesValue {
				i++
			}
			continue
		}
		words = append(words, arg)
		if takesValue && i+1 < len(args) {
			i++
			words = append(words, args[i])
		}
	}
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// shellSafe is what a POSIX shell reads as one word, unquoted.
var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// shellQuote quotes a word for a POSIX shell.
func shellQuote(w string) string {
	if shellSafe.MatchString(w) {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// capText cuts a text reply to at most workspace.MaxTextBytes less room for
// the lines that end it, at a line end, with a line saying what was left
// out and what shows it all (more).
func capText(text, more string) string {
	limit := workspace.MaxTextBytes - 2<<10
	if len(text) <= limit {
		return text
	}
	cut := strings.LastIndexByte(text[:limit], '\n') + 1
	return text[:cut] + fmt.Sprintf("\n… cut at %d KB (%d more bytes not shown): %s\n", workspace.MaxTextBytes>>10, len(text)-cut, more)
}
