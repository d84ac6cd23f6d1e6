package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// optionalString is a string flag that knows whether it was given, so that
// `-r ”` (delete every match) differs from no -r at all.
type optionalString struct {
	value string
	set   bool
}

func (o *optionalString) String() string     { return o.value }
func (o *optionalString) Set(v string) error { o.value, o.set = v, true; return nil }

// editGoMemory is the soft limit of the Go heap of `structls edit`. The
// CLI runs with GOGC 400 (main.go), which lets garbage grow to four times
// the live heap; an edit near its 64 MiB cap of new text holds that text in
// the plan and, with --json, in the reply's copies on both sides of the
// in-process JSON-RPC pipe, so past this limit the collector runs as often
// as it needs to and the peak stays near the live heap. An ordinary edit
// never reaches it.
const editGoMemory = 256 << 20

// edit is `structls edit`: a structural rewrite. It prints the preview (the
// replacements and a unified diff), or with --json the structls.astEdit
// result exactly; with --apply the server then writes the files, each
// atomically, after checking that none changed since the preview. Exit 0
// when something changed (or would), 1 when nothing matched, 2 on error. An
// edit changing more files than --max-files is previewed in part, with a
// note on stderr naming the flag (exit 0: the preview is still true of the
// files it shows), and never applied (exit 2).
func edit(args []string, stdout, stderr io.Writer) (int, error) {
	debug.SetMemoryLimit(editGoMemory)
	fs := newFlagSet("edit", stdout, stderr)
	var globs multiFlag
	var rewriteText optionalString
	pattern := fs.String("p", "", "the pattern: code with metavariables ($A, $$$ARGS, $_)")
	fs.Var(&rewriteText, "r", "the rewrite template ($A expands to what A matched; '' deletes each match)")
	opsFile := fs.String("ops", "", `a JSON file of operations: [{"pattern": "...", "rewrite": "..."}, ...]`)
	language := fs.String("l", "", "rewrite files of this language only (and parse the patterns in it)")
	strictness := fs.String("strictness", "", "cst, smart (default), ast, relaxed, signature or template")
	selector := fs.String("selector", "", "the kind of the node, inside the pattern, to match")
	fs.Var(&globs, "g", "include glob, or !glob to exclude (repeatable)")
	applyEdit := fs.Bool("apply", false, "write the files (atomically, refused if any changed since the preview)")
	maxFiles := fs.Int("max-files", rewrite.DefaultMaxFiles, "the most files an edit may change (the astEdit maxFiles field); past it the preview is cut short and --apply refused")
	expect := fs.String("expect", "", "with --apply: write only the plan with this fingerprint (the preview prints it); refused, nothing written, when the files or the matches changed")
	asJSON := fs.Bool("json", false, "print the structls.astEdit result JSON exactly")
	root := fs.String("root", ".", "workspace folder")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	ops, err := editOps(*pattern, rewriteText, *opsFile)
	if c, _ := lookupCommand("edit"); errors.As(err, new(usageError)) {
		printShortUsage(stderr, c)
	}
	if err != nil {
		return exitError, err
	}
	if *expect != "" && !*applyEdit {
		fs.Usage()
		return exitError, errors.New("--expect goes with --apply: it names the previewed plan to write")
	}
	format := "text"
	if *asJSON {
		format = "json"
	}
	// The text mode asks for the text alone: the files (each replacement's
	// new text) and the WorkspaceEdit (all of it again) are not sent.
	q := editArgument{Query: rewrite.Query{Lang: *language, Strictness: *strictness, Selector: *selector,
		Scope: workspace.Scope{Globs: globs, Paths: positional}, Format: format, TextOnly: !*asJSON, MaxFiles: *maxFiles}, Ops: ops}
	if *maxFiles <= 0 {
		return exitError, fmt.Errorf("--max-files must be a positive number of files (got %d)", *maxFiles)
	}
	ctx := context.Background()
	// The CLI declares no workspace.applyEdit: the server writes the files.
	s, err := startSession(ctx, *root, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported}, lsp.Options{})
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	var preview struct {
		ID                string   `json:"id"`
		Text              string   `json:"text"`
		TotalReplacements int      `json:"totalReplacements"`
		FilesTouched      int      `json:"filesTouched"`
		LimitReached      bool     `json:"limitReached"`
		Warnings          []string `json:"warnings"`
		Fingerprint       string   `json:"fingerprint"`
	}
	raw, err := s.execute(ctx, lsp.CommandAstEdit, q, &preview)
	if err != nil {
		return exitError, err
	}
	var notes []string
	for _, w := range preview.Warnings {
		notes = append(notes, "warning: "+w)
	}
	if preview.LimitReached {
		notes = append(notes, fmt.Sprintf("the edit changes more than %s, the --max-files limit: only the first %d (in path order) are in this preview; raise --max-files or narrow paths to see (and apply) the whole edit",
			english.Count(*maxFiles, "file", "files"), preview.FilesTouched))
	}
	fingerprint := preview.Fingerprint
	if !*asJSON {
		preview.Text = capText(preview.Text, "the plan and its fingerprint are the whole edit; narrow paths to see all of it, or use --json")
	}
	if preview.TotalReplacements > 0 && !*applyEdit && !preview.LimitReached {
		if *asJSON {
			notes = append(notes, "plan fingerprint "+fingerprint+": to write exactly this plan, run "+applyCommand(fs, args, fingerprint))
		} else {
			preview.Text += "\nPlan fingerprint " + fingerprint + ". To write exactly this plan (refused if the files or the matches change), run:\n" +
				applyCommand(fs, args, fingerprint) + "\n"
		}
	}
	printResult(stdout, stderr, raw, preview.Text, *asJSON, notes)
	if preview.TotalReplacements == 0 {
		if *expect != "" {
			return exitError, fmt.Errorf("not applied, nothing was written: the plan changed since the preview (fingerprint %s): nothing matches now; preview again", *expect)
		}
		return exitNotFound, nil
	}
	if *applyEdit && *expect != "" && *expect != fingerprint {
		_, _ = s.execute(ctx, lsp.CommandDiscardEdit, map[string]string{"id": preview.ID}, nil)
		return exitError, fmt.Errorf("not applied, nothing was written: the plan changed since the preview (its fingerprint is %s now, not %s: %d replacements in %d files); preview again, check it, then apply with --expect %s",
			fingerprint, *expect, preview.TotalReplacements, preview.FilesTouched, fingerprint)
	}
	if *applyEdit && preview.LimitReached {
		// Writing the first files of an edit and not the rest would leave the
		// code half rewritten: refused, nothing written.
		_, _ = s.execute(ctx, lsp.CommandDiscardEdit, map[string]string{"id": preview.ID}, nil)
		return exitError, fmt.Errorf("not applied, nothing was written: the edit changes more than %s (--max-files) and applying only a part of it is refused; raise --max-files or narrow paths, then apply again", english.Count(*maxFiles, "file", "files"))
	}
	if *applyEdit {
		var applied struct {
			FilesChanged      int `json:"filesChanged"`
			TotalReplacements int `json:"totalReplacements"`
		}
		if _, err := s.execute(ctx, lsp.CommandApplyEdit, map[string]string{"id": preview.ID}, &applied); err != nil {
			return exitError, err
		}
		// What happened goes where the preview went, after it; with --json
		// stdout holds the preview's JSON alone, so the line goes to stderr.
		done := stdout
		if *asJSON {
			done = stderr
		}
		fmt.Fprintf(done, "Applied: wrote %s in %s.\n", english.Count(applied.TotalReplacements, "replacement", "replacements"),
			english.Count(applied.FilesChanged, "file", "files"))
	}
	return exitFound, nil
}

// editArgument is the structls.astEdit argument the CLI sends: the query
// with its ops as JSON, so that an --ops file reaches the server as written
// and the server's checks name a mistyped, misspelt or unknown field in it.
type editArgument struct {
	rewrite.Query
	Ops json.RawMessage `json:"ops"` // in place of Query.Ops
}

// usageError is a mistake in the flags: the usage is printed with it.
type usageError struct{ error }

// editOps returns the operations, as JSON, from -p/-r or from an --ops file.
func editOps(pattern string, rewriteText optionalString, opsFile string) (json.RawMessage, error) {
	switch {
	case opsFile != "" && (pattern != "" || rewriteText.set):
		return nil, usageError{errors.New("give either --ops or -p with -r, not both")}
	case opsFile != "":
		data, err := os.ReadFile(opsFile)
		if err != nil {
			return nil, fmt.Errorf("reading --ops: %w", err)
		}
		if !json.Valid(data) {
			return nil, fmt.Errorf(`--ops %s is not JSON: write a JSON array of {"pattern": ..., "rewrite": ...}`, opsFile)
		}
		return data, nil
	case pattern == "":
		return nil, usageError{errors.New("edit needs a pattern (-p) and a rewrite (-r), or --ops FILE")}
	case !rewriteText.set:
		return nil, usageError{errors.New("edit needs a rewrite (-r): the replacement text, or -r '' to delete each match")}
	}
	return json.Marshal([]rewrite.Op{{Pattern: pattern, Rewrite: &rewriteText.value}})
}

// applyCommand is the command line that applies exactly the plan
// previewed: the same command with --apply --expect FINGERPRINT (the
// fingerprint is the server's: see rewrite/fingerprint.go).
func applyCommand(fs *flag.FlagSet, args []string, fingerprint string) string {
	return commandLine(fs, "edit", args, "--apply", "--expect", fingerprint)
}
