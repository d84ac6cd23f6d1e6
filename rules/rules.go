// Package rules runs ast-grep's YAML rule language: rule files and
// sgconfig.yml projects are loaded and validated (an error names the file,
// the line, the field and what is allowed there), each rule is compiled onto
// package matcher (patterns, strictness and metavariables mean what they mean
// to structls.astGrep), and a rule set checks a parsed file in one walk of
// its tree, each node tried only by the rules whose kinds it has.
//
// The entry points:
//
//   - FindConfig and LoadProject: a folder's sgconfig.yml with its ruleDirs,
//     utilDirs, testConfigs and languageGlobs;
//   - ParseRules (or Project.ParseRules, inside a project): YAML text of
//     rules separated by "---";
//   - RuleSet.Check: one already-parsed document → Findings with byte ranges,
//     messages, severities, labels and fixes (the live diagnostics use it);
//   - Scan: the structls.scan command over a workspace snapshot.
//
// The specification is ast-grep's rule reference
// (ast-grep.github.io/reference/yaml.html) and the pinned ast-grep CLI the
// differential tests run; where structls differs on purpose,
// docs/ast-grep-differences.md says so.
package rules

import (
	"fmt"

	"github.com/structls/structls/lang"
)

// Severity is how serious a rule's findings are: ast-grep's names.
type Severity string

// The severities, least serious first; SeverityOff disables a rule.
const (
	SeverityHint    Severity = "hint"
	SeverityInfo    Severity = "info"
	SeverityWarning Severity = "warning"
	SeverityError   Severity = "error"
	SeverityOff     Severity = "off"
)

// severities lists the accepted names, in ast-grep's order for messages.
var severities = []Severity{SeverityOff, SeverityHint, SeverityInfo, SeverityWarning, SeverityError}

// Rule is one compiled rule document.
type Rule struct {
	ID       string
	Language *lang.Language
	Severity Severity
	// Message is the message template; Finding.Message is it rendered
	// against a match ($A → the captured text).
	Message string
	Note    string // printed as written, never interpolated
	URL     string
	// Metadata is the rule's metadata map as decoded YAML (nil when absent).
	Metadata map[string]any
	// File is where the rule was read from (the name given to ParseRules
	// for inline text), Line the 1-based line its document starts on.
	File string
	Line int
	// Fixes are the rule's fixes, in order; scan and `--apply` use the
	// first, editors offer them all.
	Fixes []*Fix

	core   *core      // the rule, constraints, utils and transforms
	labels []labelDef // the labels map; nil for the default labels
	files  *fileFilter
	hasFix bool
	// required are conditions every match's text meets (its patterns'
	// and regexes' literals): a file failing one holds no match (the
	// prefilter before parsing).
	required []textFilter
}

// Fix is one fix of a rule: a template and how far the replaced range
// extends beyond the matched node.
type Fix struct {
	Title    string // required in a list of fixes, else ""
	Template string
	expand   [2]*relation // expandStart, expandEnd; nil when absent
}

// Finding is one match of a rule in a document. Offsets are UTF-8 bytes
// into the document's text, end exclusive.
type Finding struct {
	Rule       *Rule
	RuleID     string
	Severity   Severity
	Message    string // interpolated
	Note       string
	URL        string
	Start, End int // the matched node
	Labels     []Label
	// Fixes holds one edit per fix of the rule, in order (empty when the
	// rule has none).
	Fixes []Edit
}

// Label marks a node that explains a finding: the matched node (primary)
// or a node a relational rule matched, or the labels map's variables.
type Label struct {
	Start, End int
	Style      string // "primary" or "secondary"
	Message    string // "" when the rule gives none
}

// Edit replaces the bytes [Start, End) of a document with Text. An edit
// with Err could not be rendered (its text past the size caps, a transform
// that failed): it has no Text and is never applied; its error is shown
// for the finding instead.
type Edit struct {
	Title      string
	Start, End int
	Text       string
	Err        error
}

// Error is a rule or configuration that does not load: where (file, 1-based
// line and column; 0 when unknown), which field, and what to write instead.
type Error struct {
	File         string
	Line, Column int
	Field        string // the YAML path of the field, e.g. "rule.inside.stopBy"; "" for the document
	Message      string
}

// Error renders "file:line:col: field: message".
func (e *Error) Error() string {
	where := e.File
	if e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", where, e.Line, e.Column)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", where, e.Field, e.Message)
	}
	return fmt.Sprintf("%s: %s", where, e.Message)
}
