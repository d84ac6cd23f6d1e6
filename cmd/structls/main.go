// Command structls is the structls language server and its command line.
//
//	structls [serve] [--stdio] [--log-file F] [--log-level L]   LSP over stdin/stdout (the default)
//	structls search [flags] PATTERN [PATH...]                  regex search, ripgrep-like output
//	structls astgrep -p PATTERN [flags] [PATH...]              structural search, ast-grep patterns
//	structls edit -p PATTERN -r REWRITE [--apply] [PATH...]      structural rewrite: diff, or write with --apply
//	structls xray -e DRIVER [--eval FILE.star] [PATH...]         regex driver, then a Starlark evaluator per file
//	structls scan [-r RULE.yml] [--inline-rules YAML] [-c sgconfig.yml] [--apply] [PATH...]  ast-grep YAML rules
//	structls test [-c sgconfig.yml] [--update-all]               the rule tests of sgconfig.yml's testConfigs
//	structls languages                                         the language catalogue
//	structls mcp [--root DIR]... [--http ADDR]                  MCP server for agents: the tools of a warm server per root
//	structls demo [--root DIR]                                 a scripted LSP session on the embedded demo workspace
//	structls version
//	structls --remote=auto COMMAND ...   astgrep, search, xray, edit, scan, outline through this user's shared server (remote.go)
//
// Every subcommand but serve starts the same server in-process over a pipe
// and talks LSP to it (DESIGN.md §3), so the CLI and editors share one path.
// Exit codes follow grep: 0 found, 1 nothing found, 2 error.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/structls/structls/internal/workers"
	_ "github.com/structls/structls/matcher/lang/grammars" // every language of the catalogue
)

// version is the structls version, set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// Exit codes, as grep's.
const (
	exitFound    = 0
	exitNotFound = 1
	exitError    = 2
)

func main() {
	if len(os.Args) > 1 && os.Args[1] != "serve" && os.Args[1] != "mcp" && os.Args[1][0] != '-' {
		// A one-shot CLI run trades memory for fewer collections; the
		// long-lived server keeps the default.
		debug.SetGCPercent(400)
	}
	workers.AddDeliveryP()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches to a subcommand and returns the process exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args, remoteGiven, err := takeRemoteFlag(args)
	sub := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		sub, args = args[0], args[1:]
	}
	if err == nil {
		err = setRemoteMode(sub, remoteGiven)
	}
	if err != nil {
		fmt.Fprintf(stderr, "structls: %v\n", err)
		return exitError
	}
	code := exitFound
	switch sub {
	case "serve":
		code, err = serve(args, stdin, stdout, stderr)
	case "search":
		code, err = search(args, stdout, stderr)
	case "astgrep":
		code, err = astgrep(args, stdout, stderr)
	case "edit":
		code, err = edit(args, stdout, stderr)
	case "xray":
		code, err = xrayCmd(args, stdout, stderr)
	case "scan":
		code, err = scanCmd(args, stdout, stderr)
	case "test":
		code, err = testCmd(args, stdout, stderr)
	case "outline":
		code, err = outlineCmd(args, stdout, stderr)
	case "mcp":
		code, err = mcpCmd(args, stdin, stdout, stderr)
	case "languages":
		code, err = languages(stdout)
	case "demo":
		code, err = demo(args, stdout, stderr)
	case "daemon":
		code, err = daemonCmd(args, stderr)
	case "version":
		fmt.Fprintf(stdout, "structls %s\n", version)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
	default:
		err = fmt.Errorf("unknown subcommand %q\n\n%s", sub, usage)
	}
	if errors.Is(err, flag.ErrHelp) {
		return exitFound
	}
	if err != nil {
		fmt.Fprintf(stderr, "structls: %v\n", err)
		return exitError
	}
	return code
}

const usage = `usage:
  structls [serve] [--stdio] [--log-file FILE] [--log-level LEVEL]
  structls search [flags] PATTERN [PATH...]   (structls search -h for flags)
  structls astgrep -p PATTERN [flags] [PATH...] (structls astgrep -h for flags)
  structls edit -p PATTERN -r REWRITE [flags] [PATH...] [--apply [--expect FINGERPRINT]] (structls edit -h for flags)
  structls xray -e DRIVER [--eval FILE.star | --eval-code CODE] [flags] [PATH...] (structls xray -h for flags)
  structls scan [-r RULE.yml] [--inline-rules YAML] [-c sgconfig.yml] [--filter REGEX] [--apply] [--json | --format github] [PATH...]
  structls test [-c sgconfig.yml] [--filter REGEX] [--update-all]
  structls outline [--items ITEMS] [--type T] [--match RE] [--view VIEW] [--json] [PATH...] (structls outline -h for flags)
  structls mcp [--root DIR]... [--http ADDR] [--confirm-edits always|never|multiFile]
  structls languages
  structls demo [--root DIR]
  structls version

  --remote=auto (or STRUCTLS_REMOTE=auto), before or after the command: astgrep, search, xray, edit, scan
  and outline use this user's shared server for the root, started on first use, ended after 10 idle minutes
`
