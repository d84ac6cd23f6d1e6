package mcp

import (
	"context"
	"fmt"
	"github.com/structls/structls/internal/english"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/workspace"
)

// outlineInput is the outline tool's input (ast-grep outline's options).
type outlineInput struct {
	Paths []string `json:"paths" jsonschema:"files or directories relative to the root"`
	Items string   `json:"items,omitempty" jsonschema:"auto: structure for files, exports for directories"`
	View  string   `json:"view,omitempty" jsonschema:"auto: digest for files, names for directories"`
	Skip  int      `json:"skip,omitempty" jsonschema:"files to skip (paging)"`
	Limit int      `json:"limit,omitempty" jsonschema:"files per page"`
	Root  string   `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// outlineSummary is the structuredContent of outline.
type outlineSummary struct {
	ItemCount     int  `json:"itemCount" jsonschema:"top-level items in this page's files"`
	FilesSearched int  `json:"filesSearched"`
	Skip          int  `json:"skip"`
	NextSkip      *int `json:"nextSkip,omitempty"`
}

// scanInput is the scan tool's input.
type scanInput struct {
	Config string   `json:"config,omitempty" jsonschema:"an sgconfig.yml to use (relative to the root); default: the one found upward from the root"`
	Rules  string   `json:"rules,omitempty" jsonschema:"ast-grep YAML rules, separated by ---, instead of the config's"`
	Paths  []string `json:"paths,omitempty" jsonschema:"files, directories or globs relative to the root; default: the whole root"`
	Filter string   `json:"filter,omitempty" jsonschema:"keep the rules whose id this regex matches"`
	Fix    *bool    `json:"fix,omitempty" jsonschema:"preview the rules' fixes as an edit for resolve (default true)"`
	Skip   int      `json:"skip,omitempty" jsonschema:"diagnostics to skip (paging)"`
	Root   string   `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// scanSummary is the structuredContent of scan.
type scanSummary struct {
	Diagnostics  int    `json:"diagnostics"`
	ErrorCount   int    `json:"errorCount"`
	FilesScanned int    `json:"filesScanned"`
	ID           string `json:"id,omitempty" jsonschema:"the preview of the fixes, for resolve"`
	FixCount     int    `json:"fixCount,omitempty"`
	Skip         int    `json:"skip"`
	Shown        int    `json:"shown"`
	NextSkip     *int   `json:"nextSkip,omitempty"`
}

// scanResult is the part of a structls.scan reply the tool shows.
type scanResult struct {
	Diagnostics []struct {
		Path     string          `json:"path"`
		RuleID   string          `json:"ruleId"`
		Severity string          `json:"severity"`
		Message  string          `json:"message"`
		Note     string          `json:"note"`
		Range    workspace.Range `json:"range"`
		Text     string          `json:"text"`
		Fix      *struct {
			Text string `json:"text"`
		} `json:"fix"`
	} `json:"diagnostics"`
	FilesScanned int `json:"filesScanned"`
	ErrorCount   int `json:"errorCount"`
	RuleErrors   []struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"ruleErrors"`
	Warnings []string `json:"warnings"`
	EditID   string   `json:"editId"`
	FixCount int      `json:"fixCount"`
}

func (s *Server) addOutlineTools() {
	addTool(s, "outline", "What files or directories declare, at a glance (ast-grep outline's views): names, "+
		"signatures, digest (signatures and member names) or expanded. Pages are files.", readOnly,
		func(sc *jsonschema.Schema) {
			withEnum(sc, "items", "auto", "structure", "exports", "imports", "all")
			withEnum(sc, "view", "auto", "names", "signatures", "digest", "expanded")
			withDefault(sc, "limit", 100)
			withRange(sc, "limit", 1, 0)
			withRange(sc, "skip", 0, 0)
			prop(sc, "paths").MinItems = new(1)
		}, s.outline)
	addTool(s, "scan", "Run ast-grep YAML rules (the root's sgconfig.yml, a config, or inline rules) and list the "+
		"findings as path:LINE:COL severity[rule]: message. The rules' fixes come back as a preview id: "+
		"resolve {id, action: \"apply\"} writes them.", previewOnly,
		func(sc *jsonschema.Schema) {
			withDefault(sc, "fix", true)
			withRange(sc, "skip", 0, 0)
		}, s.scan)
}

func (s *Server) outline(ctx context.Context, req *sdk.CallToolRequest, in outlineInput) (string, outlineSummary, error) {
	var sum outlineSummary
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", sum, err
	}
	var res struct {
		ItemCount     int      `json:"itemCount"`
		FilesSearched int      `json:"filesSearched"`
		LimitReached  bool     `json:"limitReached"`
		NextSkip      *int     `json:"nextSkip"`
		Text          string   `json:"text"`
		Files         []any    `json:"files"`
		Warnings      []string `json:"warnings"`
	}
	// A page over the cap is asked again for half its files, down to one.
	limit := max(in.Limit, 1)
	for {
		arg := map[string]any{"paths": in.Paths, "items": in.Items, "view": in.View, "skip": in.Skip, "limit": limit,
			"format": "text", "textOnly": true}
		if err := r.runInto(ctx, call{command: lsp.CommandOutline, arg: arg, report: progressOf(ctx, req)}, &res); err != nil {
			return "", sum, err
		}
		if len(res.Text) <= MaxReplyBytes-tailReserve || limit == 1 {
			break
		}
		limit /= 2
	}
	sum = outlineSummary{ItemCount: res.ItemCount, FilesSearched: res.FilesSearched, Skip: in.Skip}
	p := newPage()
	for _, l := range strings.SplitAfter(res.Text, "\n") {
		if !p.add(l) {
			break
		}
	}
	var notes []string
	if p.full {
		notes = append(notes, "This file's outline was cut at the 50 KB cap: ask for view \"names\" or \"signatures\" to see all of it.")
	}
	more, next := "", 0
	if res.LimitReached && res.NextSkip != nil { // a page retried smaller keeps the last try's fields: limitReached is always sent
		next = *res.NextSkip
		sum.NextSkip = &next
		more = "More files follow; for them call outline again with the same arguments and"
	}
	return p.finish(notes, more, next), sum, nil
}

func (s *Server) scan(ctx context.Context, req *sdk.CallToolRequest, in scanInput) (string, scanSummary, error) {
	var sum scanSummary
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", sum, err
	}
	if in.Config != "" && in.Rules != "" {
		return "", sum, &toolError{msg: "give config or rules, not both"}
	}
	fix := in.Fix == nil || *in.Fix
	arg := map[string]any{"paths": in.Paths}
	for k, v := range map[string]string{"config": in.Config, "rules": in.Rules, "filter": in.Filter} {
		if v != "" {
			arg[k] = v
		}
	}
	if fix {
		arg["fix"] = true
	}
	var res scanResult
	if err := r.runInto(ctx, call{command: lsp.CommandScan, arg: arg, report: progressOf(ctx, req)}, &res); err != nil {
		return "", sum, err
	}
	if len(res.RuleErrors) > 0 {
		var b strings.Builder
		b.WriteString("The rules did not load; nothing was scanned:\n")
		for _, e := range res.RuleErrors {
			fmt.Fprintf(&b, "- %s:%d: %s: %s\n", e.File, e.Line, e.Field, e.Message)
		}
		return "", sum, &toolError{msg: b.String()}
	}
	sum = scanSummary{Diagnostics: len(res.Diagnostics), ErrorCount: res.ErrorCount, FilesScanned: res.FilesScanned,
		ID: res.EditID, FixCount: res.FixCount, Skip: in.Skip}
	p := newPage()
	var headings workspace.FileHeadings
	file := ""
	start := min(in.Skip, len(res.Diagnostics))
	files := map[string]bool{}
	for _, d := range res.Diagnostics {
		if d.Fix != nil {
			files[d.Path] = true
		}
	}
	for _, d := range res.Diagnostics[start:] {
		var b strings.Builder
		h := headings
		if d.Path != file {
			h.Write(&b, d.Path)
		}
		fmt.Fprintf(&b, "%d:%d %s[%s]: %s\n", d.Range.Start.Line+1, d.Range.Start.Character+1, d.Severity, d.RuleID, workspace.FirstLine(d.Message))
		fmt.Fprintf(&b, "  %s\n", workspace.FirstLine(d.Text))
		if d.Note != "" {
			fmt.Fprintf(&b, "  note: %s\n", workspace.FirstLine(d.Note))
		}
		if d.Fix != nil {
			fmt.Fprintf(&b, "  fix: %s\n", workspace.FirstLine(d.Fix.Text))
		}
		if !p.add(b.String()) {
			break
		}
		headings, file = h, d.Path
		sum.Shown++
	}
	notes := []string{fmt.Sprintf("%s (%s) in %s scanned.", english.Count(len(res.Diagnostics), "diagnostic", "diagnostics"),
		english.Count(res.ErrorCount, "error", "errors"), english.Count(res.FilesScanned, "file", "files"))}
	if res.EditID != "" {
		s.edits.add(&preview{root: r, id: res.EditID, replacements: res.FixCount, files: len(files),
			text: fmt.Sprintf("The fixes of a scan: %d fix(es) in %d file(s).\n", res.FixCount, len(files))})
		notes = append(notes, fmt.Sprintf("The %d fix(es) are a preview: call resolve {id: %q, action: \"apply\"} to write them, or \"discard\".", res.FixCount, res.EditID))
	}
	for _, w := range res.Warnings {
		notes = append(notes, "Note: "+w)
	}
	next := start + sum.Shown
	more := ""
	if next < len(res.Diagnostics) {
		sum.NextSkip = &next
		more = fmt.Sprintf("Showing diagnostics %d-%d of %d; for the rest call scan again with the same arguments (fix: false) and", start+1, next, len(res.Diagnostics))
	}
	return p.finish(notes, more, next), sum, nil
}
