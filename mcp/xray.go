package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/structls/structls/lsp"
	"github.com/structls/structls/workspace"
	"github.com/structls/structls/xray"
)

// xraySearchInput is code-indexer's xray_search input (less the repository
// alias: a call names its root instead) with await_seconds.
type xraySearchInput struct {
	Pattern         string   `json:"pattern" jsonschema:"the driver regex (RE2): it picks the candidate files and the hit positions given to the evaluator"`
	EvaluatorCode   string   `json:"evaluator_code,omitempty" jsonschema:"Starlark code, the body of a function run once per candidate file with node, source, lang, file_path and match_positions; it returns {\"matches\": [{\"line_number\": N, ...}], \"value\": ...}; default: every hit"`
	SearchTarget    string   `json:"search_target,omitempty" jsonschema:"content: the regex runs over file contents; filename: over paths"`
	IncludePatterns []string `json:"include_patterns,omitempty" jsonschema:"globs of files to include (* is one path segment, ** recursive)"`
	ExcludePatterns []string `json:"exclude_patterns,omitempty" jsonschema:"globs of files to leave out"`
	Path            string   `json:"path,omitempty" jsonschema:"a subdirectory (or file) of the root to search"`
	CaseSensitive   *bool    `json:"case_sensitive,omitempty" jsonschema:"default true"`
	ContextLines    int      `json:"context_lines,omitempty" jsonschema:"lines before and after each hit given in match_positions"`
	Multiline       bool     `json:"multiline,omitempty"`
	TimeoutSeconds  int      `json:"timeout_seconds,omitempty" jsonschema:"the whole run; files not evaluated by then are left out"`
	MaxResults      int      `json:"max_results,omitempty" jsonschema:"evaluate only the first N candidate files"`
	AwaitSeconds    *float64 `json:"await_seconds,omitempty" jsonschema:"wait this long for the result; a run not done by then answers {job_id} for job_status"`
	MaxDebugNodes   int      `json:"max_debug_nodes,omitempty" jsonschema:"xray_explore: nodes of each match's kind tree"`
	Skip            int      `json:"skip,omitempty" jsonschema:"matches to skip (paging)"`
	Root            string   `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// batchScanInput is one scan of xray_search_batch.
type batchScanInput struct {
	DriverRegex   string `json:"driver_regex" jsonschema:"the driver regex (RE2)"`
	EvaluatorCode string `json:"evaluator_code,omitempty" jsonschema:"Starlark evaluator code (or pattern_name)"`
	PatternName   string `json:"pattern_name,omitempty" jsonschema:"a named evaluator: .structls/xray/NAME.star in the root"`
	SearchTarget  string `json:"search_target,omitempty" jsonschema:"content (default) or filename"`
	Name          string `json:"name,omitempty" jsonschema:"a name for this scan's matches"`
}

// xrayBatchInput is code-indexer's xray_search_batch input.
type xrayBatchInput struct {
	Scans          []batchScanInput `json:"scans" jsonschema:"at most 50 scans, each run over the root"`
	TimeoutSeconds int              `json:"timeout_seconds,omitempty" jsonschema:"the whole batch"`
	MaxResults     int              `json:"max_results,omitempty" jsonschema:"evaluate only the first N candidate files of each scan"`
	AwaitSeconds   *float64         `json:"await_seconds,omitempty" jsonschema:"wait this long for the result; a run not done by then answers {job_id} for job_status"`
	Skip           int              `json:"skip,omitempty" jsonschema:"matches to skip (paging)"`
	Root           string           `json:"root,omitempty" jsonschema:"the workspace root to use (its path or base name, as given to --root); default: the first"`
}

// jobInput names a job.
type jobInput struct {
	JobID string `json:"job_id" jsonschema:"the job_id an X-Ray tool returned"`
	Skip  int    `json:"skip,omitempty" jsonschema:"matches to skip (paging)"`
}

// jobSummary is the structuredContent of the X-Ray tools.
type jobSummary struct {
	JobID            string `json:"job_id"`
	State            string `json:"state" jsonschema:"running, completed, failed or cancelled"`
	Progress         string `json:"progress,omitempty"`
	Matches          int    `json:"matches" jsonschema:"matches found so far"`
	Candidates       int    `json:"candidates"`
	FilesEvaluated   int    `json:"filesEvaluated"`
	EvaluationErrors int    `json:"evaluationErrors"`
	Partial          bool   `json:"partial"`
	Timeout          bool   `json:"timeout"`
	Cancelled        bool   `json:"cancelled"`
	Skip             int    `json:"skip"`
	Shown            int    `json:"shown"`
	NextSkip         *int   `json:"nextSkip,omitempty"`
}

// xrayMatch is the part of an X-Ray match the text shows.
type xrayMatch struct {
	Path        string                     `json:"path"`
	LineNumber  int                        `json:"lineNumber"`
	LineContent string                     `json:"lineContent"`
	Fields      map[string]json.RawMessage `json:"fields"`
	Ast         *xray.AstNode              `json:"ast"`
	ScanIndex   *int                       `json:"scanIndex"`
	ScanName    string                     `json:"scanName"`
}

// xrayTail is everything of an X-Ray result but its matches.
type xrayTail struct {
	FileMetadata     []json.RawMessage `json:"fileMetadata"`
	EvaluationErrors []struct {
		Path         string `json:"path"`
		ErrorType    string `json:"errorType"`
		ErrorMessage string `json:"errorMessage"`
	} `json:"evaluationErrors"`
	Candidates      int               `json:"candidates"`
	FilesEvaluated  int               `json:"filesEvaluated"`
	Partial         bool              `json:"partial"`
	Timeout         bool              `json:"timeout"`
	MaxFilesReached bool              `json:"maxFilesReached"`
	Cancelled       bool              `json:"cancelled"`
	CellErrors      []json.RawMessage `json:"cellErrors"`
	Warnings        []string          `json:"warnings"`
}

// xrayResult is the structls.xray reply.
type xrayResult struct {
	Matches []xrayMatch `json:"matches"`
	xrayTail
}

// render shows a match as structls's X-Ray text does: LINE|content, then
// its fields as "  name=value" (keys sorted), its scan, its kind tree.
func (m xrayMatch) render() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%s\n", m.LineNumber, m.LineContent)
	if m.ScanIndex != nil {
		fmt.Fprintf(&b, "  scan: %d %s\n", *m.ScanIndex, m.ScanName)
	}
	keys := make([]string, 0, len(m.Fields))
	for k := range m.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "  %s=%s\n", k, workspace.FirstLine(string(m.Fields[k])))
	}
	if m.Ast != nil {
		b.WriteString("  ast:\n")
		writeKindTree(&b, m.Ast, 2)
	}
	return b.String()
}

// writeKindTree writes an explore-mode kind tree, a node a line.
func writeKindTree(b *strings.Builder, n *xray.AstNode, depth int) {
	field := ""
	if n.Field != "" {
		field = n.Field + ": "
	}
	fmt.Fprintf(b, "%s%s%s %d:%d-%d:%d %q\n", strings.Repeat("  ", depth), field, n.Type,
		n.Range.Start.Line+1, n.Range.Start.Character+1, n.Range.End.Line+1, n.Range.End.Character+1, n.TextPreview)
	for _, c := range n.Children {
		writeKindTree(b, c, depth+1)
	}
	if n.Truncated {
		fmt.Fprintf(b, "%s…\n", strings.Repeat("  ", depth+1))
	}
}

func (s *Server) addXRayTools() {
	common := func(sc *jsonschema.Schema) {
		withEnum(sc, "search_target", "content", "filename")
		withDefault(sc, "search_target", "content")
		withDefault(sc, "case_sensitive", true)
		withRange(sc, "context_lines", 0, xray.MaxContextLines)
		withDefault(sc, "timeout_seconds", xray.DefaultTimeoutSeconds)
		withRange(sc, "timeout_seconds", 1, xray.MaxTimeoutSeconds)
		withRange(sc, "max_results", 0, 0)
		awaitSchema(sc)
		delete(sc.Properties, "max_debug_nodes")
	}
	addTool(s, "xray_search", "X-Ray: a regex driver picks candidate files, then a sandboxed Starlark evaluator runs once "+
		"per file over its syntax tree and returns the matches — for questions no pattern can ask. Answers inline when done "+
		"within await_seconds, else {job_id}: poll job_status, stop with cancel_job.", previewOnly, common, s.xraySearch("xray_search"))
	addTool(s, "xray_explore", "X-Ray in explore mode: as xray_search (evaluator optional), each match also carries the "+
		"kind tree of its line's statement (max_debug_nodes nodes) — what you need to write an evaluator.", previewOnly,
		func(sc *jsonschema.Schema) {
			common(sc)
			sc.Properties["max_debug_nodes"], _ = jsonschema.For[int](nil)
			withDefault(sc, "max_debug_nodes", 50)
			withRange(sc, "max_debug_nodes", 1, 500)
		}, s.xraySearch("xray_explore"))
	addTool(s, "xray_search_batch", "Run up to 50 X-Ray scans (driver_regex with evaluator_code or pattern_name) in one "+
		"job; matches carry their scan. Answers inline when done within await_seconds, else {job_id}.", previewOnly,
		func(sc *jsonschema.Schema) {
			prop(sc, "scans").MinItems, prop(sc, "scans").MaxItems = new(1), new(50)
			withDefault(sc, "timeout_seconds", 600)
			withRange(sc, "timeout_seconds", 1, xray.MaxTimeoutSeconds)
			withRange(sc, "max_results", 0, 0)
			awaitSchema(sc)
		}, s.xrayBatch)
	addTool(s, "job_status", "The state of an X-Ray job (running, completed, failed, cancelled), its progress and the "+
		"matches found so far, paged by skip.", readOnly, func(sc *jsonschema.Schema) { withRange(sc, "skip", 0, 0) }, s.jobStatus)
	addTool(s, "cancel_job", "Stop an X-Ray job; what it found is kept (state cancelled) and shown.", previewOnly, nil, s.cancelJob)
}

// awaitSchema describes await_seconds and skip.
func awaitSchema(sc *jsonschema.Schema) {
	withDefault(sc, "await_seconds", 20)
	withRange(sc, "await_seconds", 0, 120)
	withRange(sc, "skip", 0, 0)
}

// xraySearch returns the handler of xray_search and xray_explore.
func (s *Server) xraySearch(tool string) func(context.Context, *sdk.CallToolRequest, xraySearchInput) (string, jobSummary, error) {
	return func(ctx context.Context, req *sdk.CallToolRequest, in xraySearchInput) (string, jobSummary, error) {
		r, err := s.rootFor(req, in.Root)
		if err != nil {
			return "", jobSummary{}, err
		}
		if strings.TrimSpace(in.Pattern) == "" {
			return "", jobSummary{}, &toolError{msg: "pattern is required (formerly 'driver_regex' — use 'pattern')"}
		}
		q := xray.Query{Driver: in.Pattern, Evaluator: in.EvaluatorCode, Target: in.SearchTarget,
			IgnoreCase: in.CaseSensitive != nil && !*in.CaseSensitive, ContextLines: in.ContextLines,
			Scope: workspace.Scope{Globs: globsOf(in.IncludePatterns, in.ExcludePatterns)}}
		if in.Multiline {
			q.Multiline = &in.Multiline
		}
		if in.Path != "" {
			q.Paths = []string{in.Path}
		}
		if in.MaxResults > 0 {
			q.MaxFiles = &in.MaxResults
		}
		if in.TimeoutSeconds > 0 {
			q.TimeoutSeconds = &in.TimeoutSeconds
		}
		if tool == "xray_explore" {
			q.IncludeAst = true
			if in.MaxDebugNodes > 0 {
				q.MaxDebugNodes = &in.MaxDebugNodes
			}
		}
		return s.runJob(ctx, req, r, tool, q, in.AwaitSeconds, in.Skip)
	}
}

// globsOf turns include and exclude patterns into ripgrep-style globs.
func globsOf(include, exclude []string) []string {
	globs := append([]string(nil), include...)
	for _, e := range exclude {
		globs = append(globs, "!"+e)
	}
	return globs
}

func (s *Server) xrayBatch(ctx context.Context, req *sdk.CallToolRequest, in xrayBatchInput) (string, jobSummary, error) {
	r, err := s.rootFor(req, in.Root)
	if err != nil {
		return "", jobSummary{}, err
	}
	q := xray.Query{}
	for i, sc := range in.Scans {
		if strings.TrimSpace(sc.DriverRegex) == "" {
			return "", jobSummary{}, &toolError{msg: fmt.Sprintf("scans[%d]: driver_regex is required", i)}
		}
		if sc.EvaluatorCode != "" && sc.PatternName != "" {
			return "", jobSummary{}, &toolError{msg: fmt.Sprintf("scans[%d]: give evaluator_code or pattern_name, not both", i)}
		}
		q.Scans = append(q.Scans, xray.Scan{Driver: sc.DriverRegex, Evaluator: sc.EvaluatorCode, EvaluatorName: sc.PatternName,
			Target: sc.SearchTarget, Name: sc.Name})
	}
	if in.MaxResults > 0 {
		q.MaxFiles = &in.MaxResults
	}
	if in.TimeoutSeconds > 0 {
		q.TimeoutSeconds = &in.TimeoutSeconds
	}
	return s.runJob(ctx, req, r, "xray_search_batch", q, in.AwaitSeconds, in.Skip)
}

// runJob starts an X-Ray job and waits up to await seconds for it: the
// result inline when it ends by then, else the job's id. A call cancelled
// while it waits stops the job.
func (s *Server) runJob(ctx context.Context, req *sdk.CallToolRequest, r *root, tool string, q xray.Query, await *float64, skip int) (string, jobSummary, error) {
	wait := 20.0
	if await != nil {
		wait = *await
	}
	j := s.jobs.start(r, tool, call{command: lsp.CommandXRay, arg: q})
	j.mu.Lock()
	j.forward = progressOf(ctx, req)
	j.mu.Unlock()
	defer func() {
		j.mu.Lock()
		j.forward = nil
		j.mu.Unlock()
	}()
	select {
	case <-j.done:
	case <-time.After(time.Duration(wait * float64(time.Second))):
		sum := j.summary()
		return fmt.Sprintf("X-Ray is still running as job %s (%s). Poll job_status {job_id: %q} for its progress and the matches found so far, or stop it with cancel_job.\n",
			j.id, orStarting(sum.Progress), j.id), sum, nil
	case <-ctx.Done():
		j.cancel()
		<-j.done
		return "", jobSummary{}, ctx.Err()
	}
	if err := j.failure(); err != nil {
		return "", jobSummary{}, err
	}
	text, sum := j.page(skip)
	return text, sum, nil
}

func (s *Server) jobStatus(ctx context.Context, req *sdk.CallToolRequest, in jobInput) (string, jobSummary, error) {
	j, ok := s.jobs.get(in.JobID)
	if !ok {
		return "", jobSummary{}, &toolError{msg: fmt.Sprintf("no job %q: it never existed, or was dropped after %d newer ones", in.JobID, maxJobs)}
	}
	text, sum := j.page(in.Skip)
	return text, sum, nil
}

func (s *Server) cancelJob(ctx context.Context, req *sdk.CallToolRequest, in jobInput) (string, jobSummary, error) {
	j, ok := s.jobs.get(in.JobID)
	if !ok {
		return "", jobSummary{}, &toolError{msg: fmt.Sprintf("no job %q: it never existed, or was dropped after %d newer ones", in.JobID, maxJobs)}
	}
	j.cancel()
	select {
	case <-j.done:
	case <-ctx.Done():
		return "", jobSummary{}, ctx.Err()
	}
	text, sum := j.page(in.Skip)
	return text, sum, nil
}
