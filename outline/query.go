package outline

import (
	"regexp"
	"slices"
	"strings"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/workspace"
)

// Query is the argument of the structls.outline command.
type Query struct {
	workspace.Scope
	Lang string `json:"lang,omitempty"` // only files of this language
	// Items picks the top-level items: "auto" (default: structure for
	// files, exports when a directory is given), "structure" (declared
	// here, no imports), "exports", "imports" or "all".
	Items string   `json:"items,omitempty"`
	Types []string `json:"types,omitempty"` // keep only these symbol types
	// Match keeps the items whose name or signature the regular
	// expression (RE2) matches; members are never matched.
	Match string `json:"match,omitempty"`
	// View is the text rendering: "auto" (digest for files, names when a
	// directory is given), "names", "signatures", "digest" or "expanded".
	View       string `json:"view,omitempty"`
	PubMembers bool   `json:"pubMembers,omitempty"` // members: only the public ones
	Skip       int    `json:"skip,omitempty"`       // files to skip (paging)
	Limit      *int   `json:"limit,omitempty"`      // files per page (default 500, 0 = all)
	Format     string `json:"format,omitempty"`     // "json" (default) or "text"
	// TextOnly, with format text, leaves the files out of the reply: the
	// CLI prints only the text, and over a large tree the items' JSON
	// costs more than the outline.
	TextOnly bool `json:"textOnly,omitempty"`
}

// Result is the reply of structls.outline.
type Result struct {
	Files         []File   `json:"files"`
	ItemCount     int      `json:"itemCount"` // top-level items in the files of this page
	FilesSearched int      `json:"filesSearched"`
	LimitReached  bool     `json:"limitReached"`
	NextSkip      *int     `json:"nextSkip,omitempty"` // files: the skip of the next page, when there is one
	Warnings      []string `json:"warnings"`
	MissingPaths  []string `json:"missingPaths"`
	Text          string   `json:"text,omitempty"`
}

// File is the outline of one file.
type File struct {
	Path     string `json:"path"`
	URI      string `json:"uri"`
	Language string `json:"language"`
	Items    []Item `json:"items"`
}

// DefaultFileLimit is the files of one page when the query sets no limit.
const DefaultFileLimit = 500

// Item selections and views.
const (
	ItemsAuto      = "auto"
	ItemsStructure = "structure"
	ItemsExports   = "exports"
	ItemsImports   = "imports"
	ItemsAll       = "all"

	ViewAuto       = "auto"
	ViewNames      = "names"
	ViewSignatures = "signatures"
	ViewDigest     = "digest"
	ViewExpanded   = "expanded"
)

var (
	itemChoices = []string{ItemsAuto, ItemsStructure, ItemsExports, ItemsImports, ItemsAll}
	viewChoices = []string{ViewAuto, ViewNames, ViewSignatures, ViewDigest, ViewExpanded}
)

// settings is a validated query.
type settings struct {
	items, view string
	types       map[string]bool
	match       *regexp.Regexp
	lang        *lang.Language
	limit       int
	text        bool
}

func (q Query) validate() (settings, error) {
	s := settings{items: q.Items, view: q.View, limit: DefaultFileLimit}
	if q.Limit != nil {
		s.limit = *q.Limit
	}
	var err error
	if s.text, err = workspace.TextFormat(q.Format); err != nil {
		return s, err
	}
	if s.items == "" {
		s.items = ItemsAuto
	}
	if s.view == "" {
		s.view = ViewAuto
	}
	switch {
	case !slices.Contains(itemChoices, s.items):
		return s, workspace.Inputf("items %q is not supported: use one of %s", q.Items, strings.Join(itemChoices, ", "))
	case !slices.Contains(viewChoices, s.view):
		return s, workspace.Inputf("view %q is not supported: use one of %s", q.View, strings.Join(viewChoices, ", "))
	case q.Skip < 0:
		return s, workspace.Inputf("skip must be a non-negative number of files (got %d)", q.Skip)
	case s.limit < 0:
		return s, workspace.Inputf("limit must be 0 (every file) or a positive number of files (got %d)", s.limit)
	case q.TextOnly && !s.text:
		return s, workspace.Inputf(`textOnly needs "format": "text" (it leaves the files out and keeps only the text)`)
	}
	for _, t := range q.Types {
		for _, one := range strings.Split(t, ",") {
			if one = strings.TrimSpace(one); one == "" {
				continue
			}
			if !slices.Contains(SymbolTypes, one) {
				return s, workspace.Inputf("type %q is not a symbol type: use one of %s", one, strings.Join(SymbolTypes, ", "))
			}
			if s.types == nil {
				s.types = map[string]bool{}
			}
			s.types[one] = true
		}
	}
	if q.Match != "" {
		if s.match, err = regexp.Compile(q.Match); err != nil {
			return s, workspace.Inputf("match is not a valid regular expression: %s (the syntax is RE2)",
				strings.TrimPrefix(err.Error(), "error parsing regexp: "))
		}
	}
	if q.Lang != "" {
		if s.lang, err = lang.Lookup(q.Lang); err != nil {
			return s, workspace.Inputf("%v", err)
		}
	}
	return s, nil
}

// SymbolTypes are the symbol types the tables use, in the order the names
// view groups them (ast-grep's order).
var SymbolTypes = []string{"file", "module", "namespace", "package", "class", "struct", "enum", "interface", "trait",
	"function", "method", "constructor", "property", "field", "enumMember", "variable", "constant", "type",
	"macro", "object", "key", "heading", "rule", "event", "operator", "typeParameter"}

// resolve turns auto into what the inputs call for: a directory among
// them means exports and names, files only mean structure and digest.
func (s *settings) resolve(hasDirectory bool) {
	if s.items == ItemsAuto {
		s.items = ItemsStructure
		if hasDirectory {
			s.items = ItemsExports
		}
	}
	if s.view == ViewAuto {
		s.view = ViewDigest
		if hasDirectory {
			s.view = ViewNames
		}
	}
}

// keep reports whether a top-level entry is selected.
func (s *settings) keep(e *Entry) bool {
	return s.selects(e) && (s.match == nil || s.match.MatchString(e.Name) || s.match.MatchString(e.Signature))
}

// selects is keep without the match, which reads the signature: it needs
// only what an entry is before its signature and members are made.
func (s *settings) selects(e *Entry) bool {
	switch s.items {
	case ItemsStructure:
		if e.IsImport {
			return false
		}
	case ItemsExports:
		if !e.IsExported {
			return false
		}
	case ItemsImports:
		if !e.IsImport {
			return false
		}
	}
	return s.types == nil || s.types[e.SymbolType]
}

// filter applies the selection to a file's entries, in place: it runs
// before positions are mapped, so that entries left out cost no mapping.
func (s *settings) filter(entries []Entry, pubMembers bool) []Entry {
	kept := entries[:0]
	for _, e := range entries {
		if !s.keep(&e) {
			continue
		}
		if pubMembers {
			e.Members = publicOnly(e.Members)
		}
		kept = append(kept, e)
	}
	return kept
}

// publicOnly keeps the public members, in place, at every level.
func publicOnly(members []Entry) []Entry {
	kept := members[:0]
	for _, m := range members {
		if m.IsExported {
			m.Members = publicOnly(m.Members)
			kept = append(kept, m)
		}
	}
	return kept
}
