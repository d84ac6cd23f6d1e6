package mcp

import (
	"context"
	"fmt"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/grep"
	"github.com/structls/structls/lsp"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/workspace"
)

// astGrepInput is the seed ast_grep tool's input, with structls's lang,
// strictness, selector and limit.
type astGrepInput struct {
	Pat        string   `json:"pat" jsonschema:"the ast-grep pattern: code with $NAME (one node), $$$NAME (zero or more nodes), $_ (one node, not captured)"`
	Paths      []string `json:"paths,omitempty" jsonschema:"files, directories or globs relative to the root (*.ts: direct children, **/*.ts: recursive); default: the whole root"`
	Lang       string   `json:"lang,omitempty" jsonschema:"the language to parse the pattern in and to search (go, typescript, python, …); default: each file's own"`
	Strictness string   `json:"strictness,omitempty" jsonschema:"how exactly the pattern must match"`
	Selector   string   `json:"selector,omitempty" jsonschema:"the node kind inside the pattern to match, when the pattern needs surrounding code to parse"`
	Skip       int      `json:"skip,omitempty" jsonschema:"matches to skip (paging)"`
	Limit      int      `json:"limit,omitempty" jsonschema:"matches per page (0: all that fit in 50 KB)"`
	Root       string   `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// searchSummary is the structuredContent of ast_grep and search: counts and
// paging, never the matches.
type searchSummary struct {
	MatchCount    int  `json:"matchCount" jsonschema:"matches in all (ast_grep) or in this page's files (search)"`
	FileCount     int  `json:"fileCount" jsonschema:"files with a match (ast_grep: in all; search: in this page)"`
	TotalFiles    int  `json:"totalFiles,omitempty" jsonschema:"files with a match in all (search)"`
	FilesSearched int  `json:"filesSearched"`
	Skip          int  `json:"skip"`
	Shown         int  `json:"shown" jsonschema:"matches (ast_grep) or files (search) shown in the text"`
	NextSkip      *int `json:"nextSkip,omitempty" jsonschema:"the skip that continues, when more follows"`
	Truncated     bool `json:"truncated" jsonschema:"the page stopped at the 50 KB cap"`
	ParseErrors   int  `json:"parseErrors,omitempty"`
}

// agMatch is the part of a structls.astGrep match the text shows.
type agMatch struct {
	Path          string                    `json:"path"`
	Range         workspace.Range           `json:"range"`
	Text          string                    `json:"text"`
	MetaVariables map[string]jsontext.Value `json:"metaVariables"`
}

// agResult is the part of a structls.astGrep result the reply uses.
type agResult struct {
	Matches       []agMatch            `json:"matches"`
	MatchCount    int                  `json:"matchCount"`
	FileCount     int                  `json:"fileCount"`
	FilesSearched int                  `json:"filesSearched"`
	LimitReached  bool                 `json:"limitReached"`
	NextSkip      *int                 `json:"nextSkip"`
	ParseErrors   []matcher.ParseIssue `json:"parseErrors"`
	Warnings      []string             `json:"warnings"`
	MissingPaths  []string             `json:"missingPaths"`
}

func (s *Server) addSearchTools() {
	addTool(s, "ast_grep", "Structural code search with ast-grep patterns over the warm parsed trees. "+
		"Matches are grouped by file: *LINE|text (further lines of a match as ' LINE|text'), then '  meta: NAME=capture' "+
		"(multi-line captures cut to their first line and their line count). At most 50 KB per reply; a reply that stops "+
		"early ends with the skip=N to call again with.", readOnly,
		func(sc *jsonschema.Schema) {
			withEnum(sc, "strictness", "cst", "smart", "ast", "relaxed", "signature", "template")
			withDefault(sc, "strictness", "smart")
			withDefault(sc, "limit", astgrep.DefaultLimit)
			withRange(sc, "skip", 0, 0)
			withRange(sc, "limit", 0, 0)
		}, s.astGrep)
	addTool(s, "search", "Regex search (RE2, line by line as ripgrep) over the root's files. Files are grouped "+
		"('# dir/', '## name'), matches as *N|line, context as ' N|line', '...' where lines are skipped. Pages are files: "+
		"skip and limit count files. At most 50 KB per reply; a reply that stops early ends with the skip=N to call again with.",
		readOnly, func(sc *jsonschema.Schema) {
			withDefault(sc, "limit", grep.DefaultFileLimit)
			withRange(sc, "skip", 0, 0)
			withRange(sc, "limit", 0, 0)
			withRange(sc, "context", 0, 20)
		}, s.search)
	addTool(s, "dump_syntax_tree", "Show a syntax tree as ast-grep's --debug-query prints it: of a pattern (format "+
		"pattern: what it compiled to; ast: named nodes; cst: every node) given as code, or of a file given as path. "+
		"Use it to find the node kinds for selector and for X-Ray evaluators.", readOnly,
		func(sc *jsonschema.Schema) {
			withEnum(sc, "format", "pattern", "ast", "cst")
			withDefault(sc, "format", "cst")
			withRange(sc, "skip", 0, 0)
		}, s.dumpSyntaxTree)
}

func (s *Server) astGrep(ctx context.Context, req *sdk.CallToolRequest, in astGrepInput) (string, searchSummary, error) {
	var sum searchSummary
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", sum, err
	}
	if strings.TrimSpace(in.Pat) == "" {
		return "", sum, &toolError{msg: "`pat` must be a non-empty pattern"}
	}
	q := astgrep.Query{Pattern: in.Pat, Lang: in.Lang, Strictness: in.Strictness, Selector: in.Selector,
		Scope: workspace.Scope{Paths: in.Paths}, Skip: in.Skip, Limit: pageLimit(in.Limit, maxMatchesPerPage)}
	var res agResult
	if err := r.runInto(ctx, call{command: lsp.CommandAstGrep, arg: q, report: progressOf(ctx, req)}, &res); err != nil {
		return "", sum, err
	}
	p := newPage()
	var headings workspace.FileHeadings
	file, shown := "", 0
	for _, m := range res.Matches {
		var b strings.Builder
		h := headings // a match that does not fit must not move the headings on
		if m.Path != file {
			h.Write(&b, m.Path)
		}
		writeAstGrepMatch(&b, m)
		if !p.add(b.String()) {
			break
		}
		headings, file = h, m.Path
		shown++
	}
	sum = searchSummary{MatchCount: res.MatchCount, FileCount: res.FileCount, FilesSearched: res.FilesSearched,
		Skip: in.Skip, Shown: shown, Truncated: p.full, ParseErrors: len(res.ParseErrors)}
	var notes []string
	if len(res.Matches) == 0 {
		if len(res.ParseErrors) > 0 {
			notes = append(notes, "No matches found. Parse issues mean the query may be mis-scoped; narrow `paths` before concluding absence.")
		} else {
			notes = append(notes, "No matches found")
		}
	}
	notes = append(notes, parseIssueNotes(res.ParseErrors)...)
	for _, w := range res.Warnings {
		notes = append(notes, "Note: "+w)
	}
	for _, m := range res.MissingPaths {
		notes = append(notes, "Path not found: "+m)
	}
	next := in.Skip + shown
	more := ""
	switch {
	case p.full:
		more = fmt.Sprintf("Showing matches %d-%d of %d (the 50 KB reply cap); for the rest call ast_grep again with the same arguments and", in.Skip+1, next, res.MatchCount)
	case res.NextSkip != nil:
		next = *res.NextSkip
		more = fmt.Sprintf("Showing matches %d-%d of %d; for the rest call ast_grep again with the same arguments and", in.Skip+1, next, res.MatchCount)
	}
	if more != "" {
		sum.NextSkip = &next
	}
	return p.finish(notes, more, next), sum, nil
}

// The most matches and files a 50 KB page can show (a match takes at
// least ten bytes, a file twenty): "all that fit" asks the server for no
// more, so that a query with millions of matches is never built whole.
const (
	maxMatchesPerPage = MaxReplyBytes / 10
	maxFilesPerPage   = MaxReplyBytes / 20
)

// pageLimit is the server's limit for a tool's: 0 (all that fit) becomes
// most.
func pageLimit(limit, most int) *int {
	if limit == 0 || limit > most {
		limit = most
	}
	return &limit
}

// writeAstGrepMatch renders one match as the seed ast_grep tool does, its
// multi-line captures cut to their first line (astgrep.MetaLine).
func writeAstGrepMatch(b *strings.Builder, m agMatch) {
	for i, line := range strings.Split(m.Text, "\n") {
		mark := " "
		if i == 0 {
			mark = "*"
		}
		fmt.Fprintf(b, "%s%d|%s\n", mark, m.Range.Start.Line+1+i, strings.TrimRight(line, "\r"))
	}
	if len(m.MetaVariables) == 0 {
		return
	}
	vars := make(map[string]any, len(m.MetaVariables))
	for n, v := range m.MetaVariables {
		if v.Kind() == '[' {
			var list []astgrep.Capture
			_ = jsonv2.Unmarshal(v, &list)
			vars[n] = list
		} else {
			var c astgrep.Capture
			_ = jsonv2.Unmarshal(v, &c)
			vars[n] = c
		}
	}
	fmt.Fprintf(b, "  meta: %s\n", astgrep.MetaLine(vars))
}

// parseIssueNotes lists at most 20 parse issues, as the seed tools do.
func parseIssueNotes(issues []matcher.ParseIssue) []string {
	if len(issues) == 0 {
		return nil
	}
	shown := issues[:min(len(issues), 20)]
	head := "Parse issues:"
	if len(shown) < len(issues) {
		head = fmt.Sprintf("Parse issues (%d / %d):", len(shown), len(issues))
	}
	notes := []string{head}
	for _, i := range shown {
		if i.Path != "" {
			notes = append(notes, fmt.Sprintf("- %s: %s", i.Path, i.Message))
		} else {
			notes = append(notes, "- "+i.Message)
		}
	}
	return notes
}

// searchInput is the seed search tool's input.
type searchInput struct {
	Pattern   string   `json:"pattern" jsonschema:"the regex (RE2: no lookaround or backreferences)"`
	Paths     []string `json:"paths,omitempty" jsonschema:"files, directories or globs relative to the root (*.ts recursive), file:10-20 line ranges; default: the whole root"`
	I         bool     `json:"i,omitempty" jsonschema:"ignore case"`
	Literal   bool     `json:"literal,omitempty" jsonschema:"search the pattern as plain text, not a regex"`
	Multiline *bool    `json:"multiline,omitempty" jsonschema:"let matches span lines; default: on when the pattern holds a newline or \\n"`
	Context   *int     `json:"context,omitempty" jsonschema:"lines shown before and after each match; default: 1 before, 3 after"`
	Skip      int      `json:"skip,omitempty" jsonschema:"files to skip (paging)"`
	Limit     int      `json:"limit,omitempty" jsonschema:"files per page (0: all that fit in 50 KB)"`
	Root      string   `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

func (s *Server) search(ctx context.Context, req *sdk.CallToolRequest, in searchInput) (string, searchSummary, error) {
	var sum searchSummary
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", sum, err
	}
	if strings.TrimSpace(in.Pattern) == "" {
		return "", sum, &toolError{msg: "Pattern must not be empty"}
	}
	q := grep.Query{Pattern: in.Pattern, IgnoreCase: in.I, Literal: in.Literal, Multiline: in.Multiline,
		ContextBefore: in.Context, ContextAfter: in.Context, Scope: workspace.Scope{Paths: in.Paths}, Skip: in.Skip, Limit: pageLimit(in.Limit, maxFilesPerPage)}
	var res grep.Result
	if err := r.runInto(ctx, call{command: lsp.CommandSearch, arg: q, report: progressOf(ctx, req)}, &res); err != nil {
		return "", sum, err
	}
	p := newPage()
	var headings workspace.FileHeadings
	matches := 0
	for _, group := range grep.GroupByFile(res.Matches) {
		var b strings.Builder
		h := headings
		h.Write(&b, group[0].Path)
		grep.WriteLines(&b, group)
		if !p.add(b.String()) {
			break
		}
		headings = h
		matches += len(group)
	}
	sum = searchSummary{MatchCount: matches, FileCount: p.shown, TotalFiles: res.TotalFiles, FilesSearched: res.FilesSearched,
		Skip: in.Skip, Shown: p.shown, Truncated: p.full}
	var notes []string
	if len(res.Matches) == 0 {
		notes = append(notes, "No matches found")
	}
	if res.PerFileLimitReached {
		notes = append(notes, "Some files have more matches than shown (20 per file, 200 for a single file); narrow the pattern or paths.")
	}
	if p.cut {
		notes = append(notes, "The first file's lines were cut at the 50 KB cap; narrow paths to that file with a line range (file:10-20) to see the rest.")
	}
	if len(res.MissingPaths) > 0 {
		notes = append(notes, "Skipped missing paths: "+strings.Join(res.MissingPaths, ", "))
	}
	notes = append(notes, res.Warnings...)
	next := in.Skip + p.shown
	more := ""
	switch {
	case p.full:
		more = fmt.Sprintf("Showing files %d-%d of %d (the 50 KB reply cap); for the rest call search again with the same arguments and", in.Skip+1, next, res.TotalFiles)
	case res.NextSkip != nil:
		next = *res.NextSkip
		more = fmt.Sprintf("Showing files %d-%d of %d; for the rest call search again with the same arguments and", in.Skip+1, next, res.TotalFiles)
	}
	if more != "" {
		sum.NextSkip = &next
	}
	return p.finish(notes, more, next), sum, nil
}

// dumpInput is the input of dump_syntax_tree.
type dumpInput struct {
	Code     string `json:"code,omitempty" jsonschema:"a pattern or code snippet to show the tree of (needs language)"`
	Path     string `json:"path,omitempty" jsonschema:"a file (relative to the root) to show the tree of, instead of code"`
	Language string `json:"language,omitempty" jsonschema:"the language of code (go, typescript, …); for a file, its own by default"`
	Format   string `json:"format,omitempty" jsonschema:"pattern: what the pattern compiled to; ast: named nodes; cst: every node"`
	Skip     int    `json:"skip,omitempty" jsonschema:"lines to skip (paging)"`
	Root     string `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// lineSummary is the structuredContent of replies paged by lines.
type lineSummary struct {
	Lines    int  `json:"lines" jsonschema:"lines in all"`
	Skip     int  `json:"skip"`
	Shown    int  `json:"shown"`
	NextSkip *int `json:"nextSkip,omitempty"`
}

func (s *Server) dumpSyntaxTree(ctx context.Context, req *sdk.CallToolRequest, in dumpInput) (string, lineSummary, error) {
	var sum lineSummary
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", sum, err
	}
	q := astgrep.Query{Pattern: in.Code, Lang: in.Language, DebugQuery: in.Format}
	switch {
	case (in.Code == "") == (in.Path == ""):
		return "", sum, &toolError{msg: "give either code (with language) or path, not both and not neither"}
	case in.Path != "":
		if in.Format == "pattern" {
			return "", sum, &toolError{msg: `format "pattern" shows a pattern: pass it as code, or use format "ast" or "cst" for a file`}
		}
		q.Paths = []string{in.Path}
	case in.Language == "":
		return "", sum, &toolError{msg: "code needs its language (go, typescript, python, …): see `structls languages`"}
	}
	var res astgrep.DebugResult
	if err := r.runInto(ctx, call{command: lsp.CommandAstGrep, arg: q, report: progressOf(ctx, req)}, &res); err != nil {
		return "", sum, err
	}
	text, sum := pageLines(res.Text, in.Skip, "for the rest call dump_syntax_tree again with the same arguments and")
	if len(res.Warnings) > 0 {
		text = "Note: " + strings.Join(res.Warnings, "\nNote: ") + "\n\n" + text
	}
	return text, sum, nil
}

// pageLines pages a text by lines: the lines from skip on that fit in the
// cap, then, when more follows, "Showing lines … " + again + " skip=N".
func pageLines(text string, skip int, again string) (string, lineSummary) {
	lines := strings.SplitAfter(text, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	p := newPage()
	for _, l := range lines[min(skip, len(lines)):] {
		if !p.add(l) {
			break
		}
	}
	sum := lineSummary{Lines: len(lines), Skip: skip, Shown: p.shown}
	next := min(skip, len(lines)) + p.shown
	more := ""
	if next < len(lines) {
		more = fmt.Sprintf("Showing lines %d-%d of %d (the 50 KB reply cap); %s", skip+1, next, len(lines), again)
		sum.NextSkip = &next
	}
	return p.finish(nil, more, next), sum
}
