package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/lsp/client"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// scanReply is the part of a structls.scan result the CLI reads. The
// diagnostics, most of the reply, are not decoded: --json prints the reply
// as it came, the text report is its text; only --format github reads
// them (githubDiagnostics).
type scanReply struct {
	ErrorCount int               `json:"errorCount"`
	RuleErrors []rules.RuleError `json:"ruleErrors"`
	Warnings   []string          `json:"warnings"`
	EditID     string            `json:"editId"`
	FixCount   int               `json:"fixCount"`
	// UnfixedErrorCount: with --apply, the error diagnostics no fix removes.
	UnfixedErrorCount int `json:"unfixedErrorCount"`
	// FixErrorCount: the diagnostics whose fix could not be rendered.
	FixErrorCount int    `json:"fixErrorCount"`
	Text          string `json:"text"`
	// Diagnostics: what starts each one's block of the text, to page it.
	Diagnostics []diagnosticHead `json:"diagnostics"`
}

// scanCmd is `structls scan`: ast-grep YAML rules over the files, as
// `ast-grep scan`. The rules come from -r files, --inline-rules, or the
// project's sgconfig.yml (-c, else found upward from --root). It prints
// the diagnostics grouped by file (or --json, or --format github) and
// exits 1 when an error-severity diagnostic was found (with --apply, one
// without a fix, or a fix that could not be rendered), 2 when the rules or
// the config do not load, else 0. The text report shows at most 50 KB a
// page, ending with the command that continues it (--skip N, in
// diagnostics).
func scanCmd(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlagSet("scan", stdout, stderr)
	var ruleFiles, globs multiFlag
	fs.Var(&ruleFiles, "r", "a rule file to run instead of the project's rules (repeatable)")
	inline := fs.String("inline-rules", "", "rules as YAML text (documents separated by ---)")
	config := fs.String("c", "", "the sgconfig.yml to use (default: found upward from --root)")
	filter := fs.String("filter", "", "run only the rules whose id this regular expression matches")
	apply := fs.Bool("apply", false, "write every fix (the first fix of each match, outer matches winning), atomically")
	fs.BoolVar(apply, "U", false, "same as --apply (ast-grep's --update-all)")
	asJSON := fs.Bool("json", false, "print the structls.scan result JSON")
	includeMetadata := fs.Bool("include-metadata", false, "add each rule's metadata to its diagnostics (JSON)")
	format := fs.String("format", "", "github: print GitHub Actions annotations")
	fs.Var(&globs, "g", "include glob, or !glob to exclude (repeatable)")
	skip := fs.Int("skip", 0, "diagnostics to skip in the text report (paging: at most 50 KB a page)")
	severities := map[string]rules.Severity{}
	for _, sev := range []rules.Severity{rules.SeverityError, rules.SeverityWarning, rules.SeverityInfo, rules.SeverityHint, rules.SeverityOff} {
		fs.Var(severityFlag{sev, severities}, string(sev), fmt.Sprintf("--%s=ID sets rule ID's severity to %s; --%s alone, every rule's (repeatable)", sev, sev, sev))
	}
	root := fs.String("root", ".", "workspace folder")
	positional, err := parseInterspersed(fs, args)
	if err != nil {
		return exitError, err
	}
	if *format != "" && *format != "github" {
		return exitError, fmt.Errorf("--format %q is not supported: use --format github, --json, or neither for the text report", *format)
	}
	q := rules.Query{Rules: *inline, Filter: *filter, Severities: severities, IncludeMetadata: *includeMetadata, Scope: workspace.Scope{Paths: positional, Globs: globs}, Fix: *apply, Format: "text"}
	if *asJSON || *format == "github" {
		q.Format = "json"
	}
	if err := addRuleFiles(&q, ruleFiles); err != nil {
		return exitError, err
	}
	if *config != "" {
		if q.Config, err = filepath.Abs(*config); err != nil {
			return exitError, err
		}
	}
	ctx := context.Background()
	s, err := startSession(ctx, *root, client.EditorOptions{ApplyEdits: client.ApplyEditsUnsupported}, lsp.Options{ConfigAnywhere: true}) // -c is this user's
	if err != nil {
		return exitError, err
	}
	defer s.close(ctx)
	stdout = s.showProgress(stdout, stderr, *asJSON)
	var res scanReply
	raw, err := s.execute(ctx, lsp.CommandScan, q, &res)
	if err != nil {
		return exitError, err
	}
	if len(res.RuleErrors) > 0 {
		for _, e := range res.RuleErrors {
			fmt.Fprintf(stderr, "structls: %s\n", cliWords(e.Message, e.Suggests))
		}
		return exitError, nil
	}
	var notes []string
	for _, w := range res.Warnings {
		notes = append(notes, "warning: "+w)
	}
	if *format == "github" {
		var diags struct {
			Diagnostics []rules.Diagnostic `json:"diagnostics"`
		}
		if err := jsonv2.Unmarshal(raw, &diags); err != nil {
			return exitError, fmt.Errorf("decoding the diagnostics of the %s result: %w", lsp.CommandScan, err)
		}
		printGitHub(stdout, diags.Diagnostics)
		printResult(stdout, stderr, nil, "", false, notes)
	} else {
		text := res.Text
		if !*asJSON && (*skip > 0 || len(text) > workspace.MaxTextBytes) {
			text = pageScanText(text, res.Diagnostics, *skip, func(skip int) string { return nextCommand(fs, "scan", args, skip) })
		}
		printResult(stdout, stderr, raw, text, *asJSON, notes)
	}
	errorsLeft := res.ErrorCount
	if *apply {
		errorsLeft = res.UnfixedErrorCount
	}
	if *apply && res.EditID != "" {
		if _, err := s.execute(ctx, lsp.CommandApplyEdit, map[string]string{"id": res.EditID}, nil); err != nil {
			return exitError, err
		}
		fmt.Fprintf(stderr, "structls: applied %d fixes\n", res.FixCount)
	}
	if *apply && res.FixErrorCount > 0 {
		fmt.Fprintf(stderr, "structls: %d fixes could not be rendered and were not applied (see the warnings)\n", res.FixErrorCount)
		return exitNotFound, nil
	}
	if errorsLeft > 0 {
		return exitNotFound, nil // 1: error-severity diagnostics, as ast-grep scan
	}
	return exitFound, nil
}

// severityFlag is --error[=ID] and its siblings: without a value (the
// flag package passes "true") it sets every rule's severity.
type severityFlag struct {
	severity rules.Severity
	into     map[string]rules.Severity
}

func (f severityFlag) String() string   { return "" }
func (f severityFlag) IsBoolFlag() bool { return true }
func (f severityFlag) Set(id string) error {
	if id == "true" {
		id = ""
	}
	f.into[id] = f.severity
	return nil
}

// addRuleFiles reads -r files into the query (several files are joined
// as documents of one text; globs are relative to the first file's folder).
func addRuleFiles(q *rules.Query, files []string) error {
	if len(files) == 0 {
		return nil
	}
	if q.Rules != "" {
		return errors.New("give rules with -r or with --inline-rules, not both")
	}
	var docs []string
	for _, f := range files {
		b, err := rules.ReadYAMLFile(f)
		if err != nil {
			return fmt.Errorf("reading rule file: %w", err)
		}
		docs = append(docs, strings.TrimSuffix(string(b), "\n"))
	}
	q.Rules = strings.Join(docs, "\n---\n") + "\n"
	abs, err := filepath.Abs(files[0])
	if err != nil {
		return err
	}
	q.RulesBase = filepath.Dir(abs)
	return nil
}

// printGitHub writes GitHub Actions workflow annotations, one a line.
func printGitHub(stdout io.Writer, diags []rules.Diagnostic) {
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	for _, d := range diags {
		level := "notice"
		switch d.Severity {
		case rules.SeverityError:
			level = "error"
		case rules.SeverityWarning:
			level = "warning"
		}
		fmt.Fprintf(out, "::%s file=%s,line=%d,endLine=%d,col=%d,endColumn=%d,title=%s::%s\n", level, escapeProperty(d.Path),
			d.Range.Start.Line+1, d.Range.End.Line+1, d.Range.Start.Character+1, d.Range.End.Character+1, escapeProperty(d.RuleID), escapeData(d.Message))
	}
}

// escapeData and escapeProperty escape annotation text as GitHub's toolkit does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
