package astgrep

import (
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/workspace"
)

// Query is the argument of structls.astGrep (its contract: docs/protocol.md).
type Query struct {
	Pattern      string `json:"pattern"`
	Lang         string `json:"lang,omitempty"`
	Strictness   string `json:"strictness,omitempty"`
	Selector     string `json:"selector,omitempty"`
	ContextLines int    `json:"contextLines,omitempty"`
	workspace.Scope
	Skip       int    `json:"skip,omitempty"`  // match offset
	Limit      *int   `json:"limit,omitempty"` // matches; default 50, 0 = unlimited
	Format     string `json:"format,omitempty"`
	TextOnly   bool   `json:"textOnly,omitempty"`   // with format "text": the text alone, no matches
	DebugQuery string `json:"debugQuery,omitempty"` // pattern, ast, cst or sexp: show a view (see Debug) instead of searching
}

// DefaultLimit is the number of matches returned when the query sets none.
const DefaultLimit = 50

// maxParseIssuesShown caps the parse issues listed in the text rendering.
const maxParseIssuesShown = 20

// Result is the reply of structls.astGrep.
type Result struct {
	Matches       []Match              `json:"matches"`
	MatchCount    int                  `json:"matchCount"` // matches over all pages
	FileCount     int                  `json:"fileCount"`  // files with a match
	FilesSearched int                  `json:"filesSearched"`
	LimitReached  bool                 `json:"limitReached"`
	NextSkip      *int                 `json:"nextSkip,omitempty"`
	ParseErrors   []matcher.ParseIssue `json:"parseErrors"`  // never null
	Warnings      []string             `json:"warnings"`     // never null
	MissingPaths  []string             `json:"missingPaths"` // entries of `paths` that do not exist; never null
	Text          string               `json:"text,omitempty"`
}

// Batch is one partial result of a streamed structls.astGrep: matches in
// their final order and, with format "text", their rendering. The batches'
// matches (and texts) followed by the final Result's give exactly what the
// query returns without streaming.
type Batch struct {
	Matches []Match `json:"matches"`
	Text    string  `json:"text,omitempty"`
}

// Match is one matched node.
type Match struct {
	Path          string              `json:"path"`
	URI           string              `json:"uri"`
	Language      string              `json:"language"`
	Range         workspace.Range     `json:"range"`
	ByteRange     workspace.ByteRange `json:"byteRange"`
	Text          string              `json:"text"`
	MetaVariables map[string]any      `json:"metaVariables"` // NAME → Capture, or []Capture for $$$NAME
	Lines         string              `json:"-"`             // the full lines the match spans (kept for the text rendering only)
	ContextBefore []string            `json:"contextBefore"` // with contextLines; [] without
	ContextAfter  []string            `json:"contextAfter"`
}

// Capture is the node a metavariable bound.
type Capture struct {
	Text      string              `json:"text"`
	Range     workspace.Range     `json:"range"`
	ByteRange workspace.ByteRange `json:"byteRange"`
}

// invalidf makes the error for a query the user must fix.
var invalidf = workspace.Inputf
