// Package xray is structls's two-phase search (the structls.xray command),
// after code-indexer's X-Ray: a regex driver picks candidate files and the
// positions of its hits (phase 1, package grep over contents, or a regex
// over file paths), then a sandboxed Starlark evaluator runs once per
// candidate file over the file's flat syntax tree and returns the matches
// (phase 2).
//
// The evaluator contract — its globals, the XRayNode API and the checks on
// what it returns, with their messages — is code-indexer's, written in
// Starlark instead of Python: see evaluator.go, node.go and result.go.
package xray

import (
	"github.com/structls/structls/engine"
	"github.com/structls/structls/workspace"
)

// Query is the argument of structls.xray (its contract: docs/protocol.md). Pointer fields
// distinguish "not given" (use the default) from an explicit zero.
type Query struct {
	Driver       string `json:"driver"`              // regex, phase 1
	Evaluator    string `json:"evaluator,omitempty"` // Starlark function body; empty: echo every hit
	Target       string `json:"target,omitempty"`    // "content" (default) or "filename"
	IgnoreCase   bool   `json:"ignoreCase,omitempty"`
	Multiline    *bool  `json:"multiline,omitempty"`
	ContextLines int    `json:"contextLines,omitempty"` // lines around each hit in match_positions, 0..10
	workspace.Scope
	MaxFiles       *int   `json:"maxFiles,omitempty"`       // candidate files evaluated; the first N in path order
	TimeoutSeconds *int   `json:"timeoutSeconds,omitempty"` // whole run; default 120
	FileTimeoutMs  *int   `json:"fileTimeoutMs,omitempty"`  // one file's evaluation; default 5000
	IncludeAst     bool   `json:"includeAst,omitempty"`     // explore mode: each match carries its kind tree
	MaxDebugNodes  *int   `json:"maxDebugNodes,omitempty"`  // nodes of that tree; default 50, at most 500
	Format         string `json:"format,omitempty"`         // "json" (default) or "text"
	Skip           int    `json:"skip,omitempty"`           // matches left out before the first returned (paging)
	Scans          []Scan `json:"scans,omitempty"`          // a batch instead of driver/evaluator/target (batch.go)
}

// Defaults and limits.
const (
	DefaultTimeoutSeconds = 120
	MaxTimeoutSeconds     = 7200
	DefaultFileTimeoutMs  = 5000
	MaxFileTimeoutMs      = 600_000
	MaxContextLines       = 10
	// MaxMatchesPerFile caps the hits handed to an evaluator and the matches
	// it may return for one file (one generated Go file has 21,880 calls).
	MaxMatchesPerFile = 100_000
)

// Result is the reply of structls.xray.
type Result struct {
	Matches          []Match           `json:"matches"`
	FileMetadata     []FileMetadata    `json:"fileMetadata"`
	EvaluationErrors []EvaluationError `json:"evaluationErrors"`
	Candidates       int               `json:"candidates"`     // files the driver matched, before maxFiles
	FilesEvaluated   int               `json:"filesEvaluated"` // files whose evaluation finished (with or without an error)
	Partial          bool              `json:"partial"`        // timeout, maxFilesReached, cancelled or outputLimitReached
	Timeout          bool              `json:"timeout"`        // timeoutSeconds ran out; files not evaluated by then are left out
	MaxFilesReached  bool              `json:"maxFilesReached"`
	Cancelled        bool              `json:"cancelled"` // the person stopped the run (progress Cancel); what was evaluated by then is kept
	// OutputLimitReached: the output reached its limit (docs/xray.md's
	// limits) and the files after it were left out.
	OutputLimitReached bool        `json:"outputLimitReached,omitempty"`
	CellErrors         []CellError `json:"cellErrors,omitempty"` // a batch's cells that could not run
	// MatchCount counts the matches found, those skipped and those past
	// the text's cap included.
	MatchCount int `json:"matchCount"`
	// NextSkip is the skip that continues a text that stopped at its cap.
	NextSkip *int     `json:"nextSkip,omitempty"`
	Warnings []string `json:"warnings"`
	Text     string   `json:"text,omitempty"`
}

// Match is one match an evaluator returned. Fields holds its other keys
// (JSON values; an XRayNode becomes {type, startByte, endByte, startPoint,
// endPoint}); nil when there are none, which encodes as {}.
type Match struct {
	Path        string           `json:"path"` // relative to its workspace folder
	URI         string           `json:"uri"`
	Language    string           `json:"language"`
	LineNumber  int              `json:"lineNumber"` // 1-based
	LineContent string           `json:"lineContent"`
	Range       *workspace.Range `json:"range,omitempty"` // the line, when it is in the file
	Fields      map[string]any   `json:"fields"`
	Ast         *AstNode         `json:"ast,omitempty"`       // explore mode (includeAst)
	ScanIndex   *int             `json:"scanIndex,omitempty"` // a batch's scan, folder and name
	ScanName    string           `json:"scanName,omitempty"`
	Folder      string           `json:"folder,omitempty"`
}

// FileMetadata is what an evaluator said about a whole file: its `value`
// when not None, and its `file_role`.
type FileMetadata struct {
	Path     string `json:"path"`
	URI      string `json:"uri"`
	Value    any    `json:"value,omitempty"`
	FileRole string `json:"fileRole,omitempty"`
}

// EvaluationError is one file the evaluator could not handle; the run goes on.
type EvaluationError struct {
	Path         string    `json:"path"`
	URI          string    `json:"uri"`
	ErrorType    ErrorType `json:"errorType"`
	ErrorMessage string    `json:"errorMessage"`
	ScanIndex    *int      `json:"scanIndex,omitempty"` // in a batch
	Folder       string    `json:"folder,omitempty"`
}

// ErrorType is the taxonomy of evaluationErrors (code-indexer's, but for
// ValidationFailed).
type ErrorType string

// The error types.
const (
	UnsupportedLanguage    ErrorType = "UnsupportedLanguage"    // no grammar for the file
	EvaluatorTimeout       ErrorType = "EvaluatorTimeout"       // fileTimeoutMs or the step budget ran out
	EvaluatorCrash         ErrorType = "EvaluatorCrash"         // a runtime error in the evaluator (a sandbox limit included)
	InvalidEvaluatorReturn ErrorType = "InvalidEvaluatorReturn" // the return value breaks the contract
	ReadError              ErrorType = "ReadError"              // the file could not be read or parsed
)

// code-indexer's ValidationFailed has no counterpart: code that does not
// compile is refused before any file is evaluated (InvalidParams), or, for
// a batch's named evaluator, is that cell's CellError.

// invalidf makes the error for a query the user must fix.
var invalidf = workspace.Inputf

// settings is a Query with defaults applied and values checked.
type settings struct {
	filename      bool
	maxFiles      int // 0 = unlimited
	timeoutMs     int
	fileTimeoutMs int
	debugNodes    int // 0: no explore mode
	text          bool
}

func (q Query) validate() (settings, error) {
	s := settings{
		maxFiles:      intOr(q.MaxFiles, 0),
		timeoutMs:     intOr(q.TimeoutSeconds, DefaultTimeoutSeconds) * 1000,
		fileTimeoutMs: intOr(q.FileTimeoutMs, DefaultFileTimeoutMs),
	}
	var err error
	if s.text, err = workspace.TextFormat(q.Format); err != nil {
		return s, err
	}
	switch q.Target {
	case "", "content":
	case "filename":
		s.filename = true
	default:
		return s, invalidf("target %q is not supported: use \"content\" (the driver searches file contents) or \"filename\" (it searches file paths)", q.Target)
	}
	switch {
	case q.Driver == "" && len(q.Scans) == 0:
		return s, invalidf("driver must not be empty: give the regex that picks candidate files, e.g. \"executeQuery\" (\".\" takes every file with target \"filename\")")
	case q.MaxFiles != nil && s.maxFiles < 1:
		return s, invalidf("maxFiles must be at least 1 (got %d); leave it out for no limit", s.maxFiles)
	case q.TimeoutSeconds != nil && (*q.TimeoutSeconds < 1 || *q.TimeoutSeconds > MaxTimeoutSeconds):
		return s, invalidf("timeoutSeconds must be between 1 and %d (got %d)", MaxTimeoutSeconds, *q.TimeoutSeconds)
	case s.fileTimeoutMs < 1 || s.fileTimeoutMs > MaxFileTimeoutMs:
		return s, invalidf("fileTimeoutMs must be between 1 and %d (got %d)", MaxFileTimeoutMs, s.fileTimeoutMs)
	case q.Skip < 0:
		return s, invalidf("skip must be 0 or more (got %d)", q.Skip)
	case q.ContextLines < 0 || q.ContextLines > MaxContextLines:
		return s, invalidf("contextLines must be between 0 and %d (got %d)", MaxContextLines, q.ContextLines)
	case q.MaxDebugNodes != nil && !q.IncludeAst:
		return s, invalidf("maxDebugNodes applies to explore mode only: add includeAst: true")
	case q.MaxDebugNodes != nil && (*q.MaxDebugNodes < 1 || *q.MaxDebugNodes > MaxDebugNodes):
		return s, invalidf("maxDebugNodes must be between 1 and %d (got %d)", MaxDebugNodes, *q.MaxDebugNodes)
	case s.filename && (q.Multiline != nil || q.ContextLines != 0):
		return s, invalidf("multiline and contextLines apply to target \"content\" only: file paths are single lines")
	}
	if q.IncludeAst {
		s.debugNodes = intOr(q.MaxDebugNodes, DefaultDebugNodes)
	}
	return s, nil
}

// paths says what the entries of the query's paths may be: a content
// driver takes file:10-20 line ranges, as structls.search does.
func (q Query) paths() engine.Paths {
	if q.Target == "filename" {
		return engine.PlainPaths
	}
	return engine.LineRanges
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}
