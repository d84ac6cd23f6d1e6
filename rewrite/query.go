// Package rewrite is structural rewriting, the structls.astEdit engine:
// edit plans of several pattern → rewrite operations over the workspace
// (the templates are expanded by package subst), previews that write
// nothing, plans made of edits computed elsewhere (rules' fixes), and the
// checks that keep a plan from ever being applied onto text that changed
// since. Writing a plan to disk is package atomicwrite's.
package rewrite

import (
	"strings"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/subst"
	"github.com/structls/structls/workspace"
)

// Query is the argument of structls.astEdit (its contract: docs/protocol.md).
type Query struct {
	Ops        []Op   `json:"ops"`
	Lang       string `json:"lang,omitempty"`
	Strictness string `json:"strictness,omitempty"`
	Selector   string `json:"selector,omitempty"`
	workspace.Scope
	// MaxFiles caps the files a preview changes (default 1000); the files
	// past it, in path order, are left out and LimitReached says so.
	MaxFiles int    `json:"maxFiles,omitempty"`
	Format   string `json:"format,omitempty"`
	// TextOnly, with format "text", leaves the files (and the LSP layer's
	// WorkspaceEdit) out of the reply: the preview text, the totals, the id
	// and the fingerprint are all a reader of the text needs, and a large
	// edit's new text is then not sent at all.
	TextOnly bool `json:"textOnly,omitempty"`
}

// Op is one operation of an edit: every match of Pattern is replaced by
// Rewrite, a template ($A, $$$ARGS; "" deletes the match). Rewrite must be
// given, even as "", so that a misspelt or forgotten field never deletes code.
// Every op matches the text as it was before the edit (not what an earlier
// op made of it), so ops never rewrite each other's output; where their
// replacements would overlap, the preview is refused.
type Op struct {
	Pattern string  `json:"pattern"`
	Rewrite *string `json:"rewrite"`
}

// MaxOps caps the operations of one edit: each runs over every file.
const MaxOps = 100

// DefaultMaxFiles is the cap on files changed when the query sets none.
const DefaultMaxFiles = 1000

// Result is the reply of structls.astEdit: the preview of an edit. Nothing
// has been written; the LSP layer adds the WorkspaceEdit built from Files.
type Result struct {
	ID                string               `json:"id"`
	Files             []FileEdit           `json:"files"`
	TotalReplacements int                  `json:"totalReplacements"`
	FilesTouched      int                  `json:"filesTouched"`
	FilesSearched     int                  `json:"filesSearched"`
	Skipped           int                  `json:"skipped"` // matches nested in another match of the same op: the outer one wins
	ParseErrors       []matcher.ParseIssue `json:"parseErrors"`
	Warnings          []string             `json:"warnings"`
	LimitReached      bool                 `json:"limitReached"`
	// Fingerprint names the plan: its files, the text each was read as,
	// and every replacement (see fingerprint.go); "" when nothing changes.
	Fingerprint string `json:"fingerprint"`
	Text        string `json:"text,omitempty"` // with format "text": the preview and a unified diff
}

// FileEdit is the replacements in one file, in order.
type FileEdit struct {
	Path string `json:"path"` // relative to its workspace folder, slash-separated
	URI  string `json:"uri"`
	// Version is the open document's version the preview was computed on;
	// null for a file read from disk.
	Version      *int32        `json:"version"`
	Replacements []Replacement `json:"replacements"`
}

// Replacement is one matched node and the text that replaces it.
type Replacement struct {
	Range     workspace.Range     `json:"range"`
	ByteRange workspace.ByteRange `json:"byteRange"`
	Before    string              `json:"before"`
	After     string              `json:"after"`
}

// settings is a validated Query.
type settings struct {
	ops      []compiledOp
	only     *lang.Language // the lang field, when given
	maxFiles int
	text     bool
}

// compiledOp is an op ready to run: its pattern (compiled per language on
// first use) and its parsed template.
type compiledOp struct {
	index    int
	pattern  string
	patterns *matcher.PatternSet
	template *subst.Template
}

// validate checks the query and compiles its templates; each error names
// the field to fix.
func (q Query) validate() (settings, error) {
	var s settings
	if len(q.Ops) == 0 {
		return s, workspace.Inputf(`ops must hold at least one operation, e.g. [{"pattern": "foo($A)", "rewrite": "bar($A)"}]`)
	}
	if len(q.Ops) > MaxOps {
		return s, workspace.Inputf("ops holds %d operations; an edit takes at most %d: split it into several edits", len(q.Ops), MaxOps)
	}
	strictness, err := matcher.ParseStrictness(q.Strictness)
	if err != nil {
		return s, workspace.Inputf("%v", err)
	}
	opts := matcher.Options{Strictness: strictness, Selector: q.Selector}
	seen := map[string]int{}
	for i, op := range q.Ops {
		key := strings.TrimSpace(op.Pattern)
		switch first, dup := seen[key]; {
		case strings.TrimSpace(op.Pattern) == "":
			return s, workspace.Inputf("ops[%d].pattern must not be empty: give code with metavariables, e.g. foo($A)", i)
		case dup:
			return s, workspace.Inputf("ops[%d].pattern repeats ops[%d].pattern %q: give each pattern once, with one rewrite", i, first, op.Pattern)
		case op.Rewrite == nil:
			return s, workspace.Inputf(`ops[%d].rewrite is missing: give the replacement text, or "" to delete each match`, i)
		case len(op.Pattern) > matcher.MaxPatternBytes || len(*op.Rewrite) > matcher.MaxPatternBytes:
			return s, workspace.Inputf("ops[%d]: the pattern and the rewrite may have at most %d MiB each (they have %d and %d bytes): match and write smaller pieces of code", i, matcher.MaxPatternBytes>>20, len(op.Pattern), len(*op.Rewrite))
		}
		seen[key] = i
		s.ops = append(s.ops, compiledOp{index: i, pattern: op.Pattern,
			patterns: matcher.NewPatternSet(op.Pattern, opts), template: subst.ParseTemplate(*op.Rewrite)})
	}
	if q.Lang != "" {
		if s.only, err = lang.Lookup(q.Lang); err != nil {
			return s, workspace.Inputf("%v", err)
		}
	}
	switch {
	case q.MaxFiles < 0:
		return s, workspace.Inputf("maxFiles must be a positive number of files, or 0 for the default %d (got %d)", DefaultMaxFiles, q.MaxFiles)
	case q.MaxFiles == 0:
		s.maxFiles = DefaultMaxFiles
	default:
		s.maxFiles = q.MaxFiles
	}
	if s.text, err = workspace.TextFormat(q.Format); err != nil {
		return s, err
	}
	if q.TextOnly && !s.text {
		return s, workspace.Inputf(`textOnly needs "format": "text" (it leaves the files out and keeps only the text)`)
	}
	return s, nil
}
