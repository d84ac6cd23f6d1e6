// Command structls is the structls language server and its command line:
// serve (the default; LSP over stdin/stdout), search, astgrep, edit, xray,
// scan, test, outline, mcp, languages, demo and version. `structls help`
// lists them and `structls COMMAND --help` shows one (help.go holds the
// text, checked against README.md's "Command line").
//
// Every subcommand but serve and mcp starts the same server in-process over
// a pipe and talks LSP to it, so the CLI and editors share one path.
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
	_ "github.com/structls/structls/lang/grammars" // every language of the catalogue
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
	if len(os.Args) < 2 || os.Args[1] != "search" {
		// A regex search makes no call into C, so the P more that a parse
		// needs (internal/workers) only gave it one more thread to spin
		// and wake: `search -F 'ctx.Done()'` over the Go standard library,
		// 6 runs each, 0.14 -> 0.12 s (CPU 0.23 -> 0.215 s).
		workers.AddDeliveryP()
	}
	stopProfile := startCPUProfile()
	code := run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stopProfile()
	os.Exit(code)
}

// run dispatches to a subcommand and returns the process exit code. Bare
// `structls` serves when stdin is not a terminal (an editor started it) and
// shows the help when a person typed it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	args, remoteGiven, err := takeRemoteFlag(args)
	sub := ""
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		sub, args = args[0], args[1:]
	}
	switch {
	case sub == "" && len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help"):
		sub, args = "help", nil
	case sub == "" && len(args) == 0 && isTerminal(stdin):
		sub = "help"
	case sub == "":
		sub = "serve"
	}
	if err == nil {
		err = setRemoteMode(sub, remoteGiven)
	}
	if err != nil {
		fmt.Fprintf(stderr, "structls: %v\n", err)
		return exitError
	}
	code, err := dispatch(sub, args, stdin, stdout, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitFound
	}
	if err != nil {
		fmt.Fprintf(stderr, "structls: %v\n", cliError(remoteLost(err)))
		return exitError
	}
	return code
}

// dispatch runs the subcommand sub.
func dispatch(sub string, args []string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	switch sub {
	case "serve":
		return serve(args, stdin, stdout, stderr)
	case "search":
		return search(args, stdout, stderr)
	case "astgrep":
		return astgrepCmd(args, stdout, stderr)
	case "edit":
		return edit(args, stdout, stderr)
	case "xray":
		return xrayCmd(args, stdout, stderr)
	case "scan":
		return scanCmd(args, stdout, stderr)
	case "test":
		return testCmd(args, stdout, stderr)
	case "outline":
		return outlineCmd(args, stdout, stderr)
	case "mcp":
		return mcpCmd(args, stdin, stdout, stderr)
	case "languages":
		return languagesCmd(args, stdout, stderr)
	case "demo":
		return demo(args, stdout, stderr)
	case "daemon": // the shared server of --remote=auto, started by the CLI (remote.go); not for people
		return daemonCmd(args, stderr)
	case "version":
		return versionCmd(args, stdout, stderr)
	case "help":
		return helpCmd(args, stdin, stdout, stderr)
	}
	return exitError, unknownCommand(sub)
}
