package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// command is one subcommand as its help shows it. commands is the one
// source of the usage text: `structls help`, `structls CMD --help` and the
// short usage after a flag mistake all print from it, and a test checks its
// synopses against README.md's "Command line" block, line for line.
type command struct {
	name     string
	summary  string   // one line: what it does
	synopsis []string // the usage lines, exactly as docs/cli.md (and README.md) list them
	example  string   // one command line a user can run as is
}

var commands = []command{
	{"serve", "the language server: LSP over stdin/stdout (what editors run; the default when stdin is not a terminal)",
		[]string{"structls [serve] [--stdio] [--log-file FILE] [--log-level debug|info|warn|error]"},
		"structls serve --log-file /tmp/structls.log"},
	{"astgrep", "structural search with ast-grep patterns ($A one node, $$$ARGS any number)",
		[]string{"structls astgrep -p PATTERN [-l LANG] [--strictness S] [--selector KIND] [--limit N] [--skip N] [-g GLOB] [--json] [PATH...]",
			"structls astgrep --debug-query=pattern|ast|cst|sexp (-p PATTERN -l LANG | FILE) [--strictness S] [--selector KIND] [--json]"},
		"structls astgrep -l go -p 'if err != nil { return $$$ }' ."},
	{"search", "regex search, ripgrep's output (gitignore-aware)",
		[]string{"structls search [flags] PATTERN [PATH...]"},
		"structls search -i 'todo|fixme' -g '*.go' ."},
	{"edit", "structural rewrite: prints the replacements and a diff; writes the files only with --apply",
		[]string{"structls edit -p PATTERN -r REWRITE [-l LANG] [--strictness S] [--selector KIND] [--ops FILE.json] [--max-files N] [-g GLOB] [--apply [--expect FINGERPRINT]] [--json] [--root DIR] [PATH...]"},
		"structls edit -l go -p 'fmt.Println($$$ARGS)' -r 'fmt.Fprintln(os.Stderr, $$$ARGS)' . # then again with --apply"},
	{"xray", "X-Ray: a regex driver picks files, then a Starlark evaluator walks each file's syntax tree",
		[]string{"structls xray -e DRIVER [--eval FILE.star | --eval-code CODE] [--target content|filename] [--file-timeout-ms N] [--max-files N] [--skip N] [-g GLOB] [--json] [--root DIR] [PATH...]",
			"structls xray --dump-ast FILE [--max-nodes N]"},
		`structls xray -e 'TODO|FIXME' --eval-code 'return {"matches": [{"line_number": p["line_number"]} for p in match_positions], "value": None}' .`},
	{"scan", "run ast-grep YAML rules (sgconfig.yml, rule files or inline) and print their diagnostics, or fix with --apply",
		[]string{"structls scan [-r RULE.yml] [--inline-rules YAML] [-c sgconfig.yml] [--filter REGEX] [--error[=ID] --warning[=ID] --info[=ID] --hint[=ID] --off[=ID]] [--apply] [--json [--include-metadata] | --format github] [--skip N] [-g GLOB] [--root DIR] [PATH...]"},
		"structls scan --inline-rules '{id: no-println, language: go, rule: {pattern: fmt.Println($$$)}, message: use the logger}' ."},
	{"test", "run the rule tests of sgconfig.yml's testConfigs, as ast-grep test",
		[]string{"structls test [-c sgconfig.yml] [-f REGEX] [--update-all] [--skip-snapshot-tests]"},
		"structls test -c sgconfig.yml"},
	{"outline", "what files declare: functions, types, members, imports",
		[]string{"structls outline [--items auto|structure|exports|imports|all] [--type T,…] [--match RE] [--view auto|names|signatures|digest|expanded] [--pub-members] [-l LANG] [-g GLOB] [--skip N] [--json] [--root DIR] [PATH...]"},
		"structls outline --items exports ."},
	{"mcp", "MCP server for coding agents: the tools of a warm server per workspace root",
		[]string{"structls mcp [--root DIR]... [--http ADDR] [--confirm-edits always|never|multiFile]"},
		"structls mcp --root ."},
	{"languages", "the language catalogue: names, aliases, file extensions",
		[]string{"structls languages"},
		"structls languages"},
	{"demo", "a scripted LSP session, printed step by step: unsaved buffers, search, rewrite, rules",
		[]string{"structls demo [--root DIR]"},
		"structls demo"},
	{"version", "the structls version",
		[]string{"structls version"},
		"structls version"},
}

// lookupCommand returns the command named name.
func lookupCommand(name string) (command, bool) {
	for _, c := range commands {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// printHelp prints every command with its one-line summary.
func printHelp(w io.Writer) {
	fmt.Fprintf(w, "structls %s: structural search and rewrite, as a language server and a command line.\n\n", version)
	fmt.Fprintln(w, "usage: structls COMMAND [flags] [args]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nstructls COMMAND --help shows a command's flags and an example.")
	fmt.Fprintln(w, "--remote=auto (or STRUCTLS_REMOTE=auto), before or after astgrep, search, xray, edit, scan or outline,")
	fmt.Fprintln(w, "runs it on this user's shared server for the root: started on first use, warm after, ended after 10 idle minutes.")
	fmt.Fprintln(w, "Exit codes: 0 found (or done), 1 nothing found, 2 error.")
}

// printCommandHelp prints a command's usage, summary, flags and example.
func printCommandHelp(w io.Writer, c command, fs *flag.FlagSet) {
	for i, line := range c.synopsis {
		prefix := "usage: "
		if i > 0 {
			prefix = "       "
		}
		fmt.Fprintln(w, prefix+line)
	}
	fmt.Fprintf(w, "\n%s\n", c.summary)
	if fs != nil && hasFlags(fs) {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fmt.Fprintf(w, "\nexample:\n  %s\n", c.example)
}

func hasFlags(fs *flag.FlagSet) bool {
	found := false
	fs.VisitAll(func(*flag.Flag) { found = true })
	return found
}

// newFlagSet is every subcommand's flag set. `-h`/`--help` prints the
// command's help on stdout (parsing then returns flag.ErrHelp, which run
// turns into exit 0); a flag mistake prints the error and the command's
// usage lines on stderr, before run prints the error.
//
// The flag package calls Usage in both cases and tells them apart only by
// order: a mistake's message is written to the output first, -h writes
// nothing before Usage. Commands report their own mistakes as errors and
// never call Usage themselves.
func newFlagSet(name string, stdout, stderr io.Writer) *flag.FlagSet {
	c, ok := lookupCommand(name)
	if !ok {
		panic("newFlagSet: no command " + name + " in commands")
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	out := &flagOutput{}
	fs.SetOutput(out)
	fs.Usage = func() {
		if out.wrote {
			printShortUsage(stderr, c)
			return
		}
		printCommandHelp(stdout, c, fs)
	}
	return fs
}

// printShortUsage prints a command's usage lines and where its help is.
func printShortUsage(w io.Writer, c command) {
	for _, line := range c.synopsis {
		fmt.Fprintln(w, "usage: "+line)
	}
	fmt.Fprintf(w, "structls %s --help shows every flag and an example.\n", c.name)
}

// flagOutput is a flag set's output: it remembers that the flag package
// wrote a mistake's message, and drops it: the mistake comes back from
// Parse as the error run prints, once.
type flagOutput struct{ wrote bool }

func (o *flagOutput) Write(p []byte) (int, error) {
	o.wrote = true
	return len(p), nil
}

// helpCmd prints the list of commands, or with a command name that
// command's help.
func helpCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	if len(args) == 0 {
		printHelp(stdout)
		return exitFound, nil
	}
	if _, ok := lookupCommand(args[0]); !ok {
		return exitError, fmt.Errorf("help: no command %q; structls help lists them", args[0])
	}
	return dispatch(args[0], []string{"--help"}, stdin, stdout, stderr)
}

// languagesCmd lists the language catalogue.
func languagesCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("languages", stdout, stderr)
	if err := fs.Parse(args); err != nil {
		return exitError, err
	}
	if fs.NArg() > 0 {
		return exitError, fmt.Errorf("languages takes no arguments (got %q)", fs.Args())
	}
	return languages(stdout)
}

// versionCmd prints the version.
func versionCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("version", stdout, stderr)
	if err := fs.Parse(args); err != nil {
		return exitError, err
	}
	fmt.Fprintf(stdout, "structls %s\n", version)
	return exitFound, nil
}

// isTerminal reports whether r is a terminal: bare `structls` typed at one
// shows the help instead of waiting for LSP messages.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// unknownCommand is the error for a mistyped command, with the list.
func unknownCommand(name string) error {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return fmt.Errorf("unknown command %q: the commands are %s; structls help describes them", name, strings.Join(names, ", "))
}
