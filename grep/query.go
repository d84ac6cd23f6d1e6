// Package grep is structls's regex search (the structls.search command): RE2
// regular expressions over the workspace snapshot, line by line as ripgrep
// does, with the seed search tool's paging, caps and text rendering.
//
// Speed comes from cost staging: the literals every match must contain are
// extracted from the parsed regex, a file lacking one is never run through
// the regex, and in a file that has them the regex only runs on the lines
// that hold them. Files are scanned in parallel.
package grep

import (
	"github.com/structls/structls/workspace"
)

// Query is the argument of structls.search (its contract: docs/protocol.md). Pointer fields
// distinguish "not given" (use the default) from an explicit zero.
type Query struct {
	Pattern       string `json:"pattern"`
	IgnoreCase    bool   `json:"ignoreCase,omitempty"`
	Literal       bool   `json:"literal,omitempty"`
	Multiline     *bool  `json:"multiline,omitempty"` // default: on when the pattern holds a newline or `\n`
	ContextBefore *int   `json:"contextBefore,omitempty"`
	ContextAfter  *int   `json:"contextAfter,omitempty"`
	workspace.Scope
	Skip         int    `json:"skip,omitempty"`         // file offset of the page
	Limit        *int   `json:"limit,omitempty"`        // files per page; 0 = unlimited
	PerFileLimit *int   `json:"perFileLimit,omitempty"` // matches per file; 0 = unlimited
	Format       string `json:"format,omitempty"`       // "json" (default) or "text"
}

// Defaults of the seed search tool.
const (
	DefaultContextBefore     = 1
	DefaultContextAfter      = 3
	DefaultFileLimit         = 20
	DefaultPerFileLimit      = 20
	DefaultSingleFileLimit   = 200
	MaxLineColumns           = 512
	maxContextLines          = 1000
	maxAllowedResultsPerPage = 1 << 30
)

// Result is the reply of structls.search.
type Result struct {
	Matches             []Match  `json:"matches"`
	MatchCount          int      `json:"matchCount"`    // matches in this page
	FileCount           int      `json:"fileCount"`     // files in this page
	TotalFiles          int      `json:"totalFiles"`    // files with a match, over all pages
	FilesSearched       int      `json:"filesSearched"` // files read and scanned
	FileLimitReached    bool     `json:"fileLimitReached"`
	PerFileLimitReached bool     `json:"perFileLimitReached"`
	LinesTruncated      bool     `json:"linesTruncated,omitempty"`
	NextSkip            *int     `json:"nextSkip,omitempty"`
	MissingPaths        []string `json:"missingPaths"` // always an array, as every list field
	Warnings            []string `json:"warnings"`
	Text                string   `json:"text,omitempty"`
}

// Batch is one partial result of a streamed structls.search
// (SearchStream): the next matches, in their final order. The batches'
// matches followed by the final Result's give exactly what the query
// returns without streaming.
type Batch struct {
	Matches []Match `json:"matches"`
}

// Match is one matching line. Range is its first submatch's range, so a
// client can take a match as a location (a quickfix entry) as it is.
type Match struct {
	Path          string          `json:"path"` // relative to its workspace folder
	URI           string          `json:"uri"`
	Range         workspace.Range `json:"range"`
	LineNumber    int             `json:"lineNumber"` // 1-based
	LineText      string          `json:"lineText"`   // trailing whitespace trimmed, at most 512 columns; a multiline match's lines joined by "\n"
	Truncated     bool            `json:"truncated,omitempty"`
	Submatches    []Submatch      `json:"submatches"`
	ContextBefore []ContextLine   `json:"contextBefore"`
	ContextAfter  []ContextLine   `json:"contextAfter"`
}

// Submatch is one regex match within a matching line (it may run past the
// line in multiline mode).
type Submatch struct {
	Text      string              `json:"text"`
	ByteRange workspace.ByteRange `json:"byteRange"`
	Range     workspace.Range     `json:"range"`
}

// ContextLine is a line shown around a match.
type ContextLine struct {
	LineNumber int    `json:"lineNumber"`
	Text       string `json:"text"`
}

// invalidf makes the error for a query the user must fix.
var invalidf = workspace.Inputf

// settings is a Query with defaults applied and values checked.
type settings struct {
	before, after  int
	fileLimit      int // 0 = unlimited
	perFileLimit   int // 0 = unlimited; -1 = pick by scope
	text           bool
	multilineForce *bool
	matcher        *matcher // the compiled pattern
}

func intOr(p *int, def int) int {
	if p == nil {
		return def
	}
	return *p
}

// validate applies defaults, rejects out-of-range values and compiles the
// pattern.
func (q Query) validate() (settings, error) {
	s := settings{
		before:         intOr(q.ContextBefore, DefaultContextBefore),
		after:          intOr(q.ContextAfter, DefaultContextAfter),
		fileLimit:      intOr(q.Limit, DefaultFileLimit),
		perFileLimit:   intOr(q.PerFileLimit, -1),
		multilineForce: q.Multiline,
	}
	var err error
	if s.text, err = workspace.TextFormat(q.Format); err != nil {
		return s, err
	}
	switch {
	case q.Skip < 0:
		return s, invalidf("skip must be a non-negative number (got %d)", q.Skip)
	case s.fileLimit < 0 || s.fileLimit > maxAllowedResultsPerPage:
		return s, invalidf("limit must be between 0 (unlimited) and %d files (got %d)", maxAllowedResultsPerPage, s.fileLimit)
	case q.PerFileLimit != nil && (s.perFileLimit < 0 || s.perFileLimit > maxAllowedResultsPerPage):
		return s, invalidf("perFileLimit must be between 0 (unlimited) and %d (got %d)", maxAllowedResultsPerPage, s.perFileLimit)
	case s.before < 0 || s.before > maxContextLines:
		return s, invalidf("contextBefore must be between 0 and %d (got %d)", maxContextLines, s.before)
	case s.after < 0 || s.after > maxContextLines:
		return s, invalidf("contextAfter must be between 0 and %d (got %d)", maxContextLines, s.after)
	}
	s.matcher, err = compile(q, s.multilineForce)
	return s, err
}
