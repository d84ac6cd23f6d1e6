package rules

import (
	"bytes"
	"slices"
	"strings"

	"github.com/structls/structls/syntax"
)

// suppressions are a file's ast-grep-ignore comments.
type suppressions struct {
	wholeFile *suppression
	byLine    map[int][]*suppression
}

// suppression is one ast-grep-ignore comment: all rules, or the listed ids.
type suppression struct {
	all     bool
	ids     []string
	comment int32 // the comment node
	used    bool  // it hid a match
}

func (s *suppression) covers(id string) bool {
	if s.all {
		return true
	}
	for _, x := range s.ids {
		if x == id {
			return true
		}
	}
	return false
}

// hides reports whether a match of rule id at node n is suppressed: a
// comment covers the line the node starts on.
func (s *suppressions) hides(t *syntax.Tree, n int32, id string) bool {
	if s.wholeFile != nil && s.wholeFile.covers(id) {
		s.wholeFile.used = true
		return true
	}
	for _, sup := range s.byLine[int(t.StartPoint(n).Row)] {
		if sup.covers(id) {
			sup.used = true
			return true
		}
	}
	return false
}

// The built-in rules of suppression comments (ast-grep's combined.rs):
// unused-suppression reports a comment that hid nothing (its fix deletes
// the comment), no-suppress-all a comment that names no rule.
var (
	unusedSuppressionRule = &Rule{ID: "unused-suppression", Severity: SeverityHint, Message: "Unused 'ast-grep-ignore' directive.",
		Fixes: []*Fix{{}}}
	noSuppressAllRule = &Rule{ID: "no-suppress-all", Severity: SeverityOff, Message: "ast-grep-ignore must specify rule IDs.",
		Note: "Use 'ast-grep-ignore: rule-id' to suppress specific rules."}
)

// all returns every suppression comment, in the order of the comments.
func (s *suppressions) all() []*suppression {
	var all []*suppression
	if s.wholeFile != nil {
		all = append(all, s.wholeFile)
	}
	for _, list := range s.byLine {
		all = append(all, list...)
	}
	slices.SortFunc(all, func(a, b *suppression) int { return int(a.comment - b.comment) })
	return all
}

// builtinFindings reports the comments the built-in rules flag, with the
// set's severities for them ("" or off: not reported).
func (s *suppressions) builtinFindings(t *syntax.Tree, unused, suppressAll Severity) []Finding {
	var out []Finding
	for _, sup := range s.all() {
		node := &t.Nodes[sup.comment]
		f := Finding{Start: int(node.Start), End: int(node.End), Labels: []Label{{Start: int(node.Start), End: int(node.End), Style: "primary"}}}
		if sup.all && suppressAll != "" && suppressAll != SeverityOff {
			r := noSuppressAllRule
			g := f
			g.Rule, g.RuleID, g.Severity, g.Message, g.Note = r, r.ID, suppressAll, r.Message, r.Note
			out = append(out, g)
		}
		if !sup.used && unused != "" && unused != SeverityOff {
			r := unusedSuppressionRule
			f.Rule, f.RuleID, f.Severity, f.Message = r, r.ID, unused, r.Message
			f.Fixes = []Edit{{Start: int(node.Start), End: int(node.End)}}
			out = append(out, f)
		}
	}
	return out
}

// findSuppressions collects the comments holding ast-grep-ignore and the
// line each covers, as ast-grep's combined.rs does (docs/rules.md, Suppression).
func findSuppressions(t *syntax.Tree) *suppressions {
	out := &suppressions{byLine: map[int][]*suppression{}}
	if !bytes.Contains(t.Source, []byte("ast-grep-ignore")) {
		return out
	}
	for i := range t.Nodes {
		n := int32(i)
		if !strings.Contains(t.Kind(n), "comment") {
			continue
		}
		text := string(t.Text(n))
		at := strings.Index(text, "ast-grep-ignore")
		if at < 0 {
			continue
		}
		sup := parseSuppression(text[at+len("ast-grep-ignore"):])
		sup.comment = n
		prev, next := siblingsOf(t, n)
		start := t.StartPoint(n)
		switch {
		case prev >= 0 && t.EndPoint(prev).Row == start.Row:
			line := int(t.StartPoint(prev).Row)
			out.byLine[line] = append(out.byLine[line], sup)
		case start.Row == 0 && prev < 0 && (next < 0 || t.StartPoint(next).Row >= 2):
			out.wholeFile = sup
		default:
			line := int(t.EndPoint(n).Row) + 1
			out.byLine[line] = append(out.byLine[line], sup)
		}
	}
	return out
}

// parseSuppression reads what follows ast-grep-ignore: ": a, b" lists
// rule ids; anything else suppresses every rule.
func parseSuppression(rest string) *suppression {
	rest = strings.TrimSpace(rest)
	colon := strings.IndexByte(rest, ':')
	if colon < 0 {
		return &suppression{all: true}
	}
	var ids []string
	for _, item := range strings.Split(rest[colon+1:], ",") {
		item = strings.TrimSpace(item)
		if sp := strings.IndexAny(item, " \t"); sp >= 0 {
			item = item[:sp]
		}
		if item != "" {
			ids = append(ids, item)
		}
	}
	if len(ids) == 0 {
		return &suppression{all: true}
	}
	return &suppression{ids: ids}
}

// siblingsOf returns n's previous and next siblings (-1 for none).
func siblingsOf(t *syntax.Tree, n int32) (prev, next int32) {
	prev, next = -1, t.Nodes[n].NextSibling
	if p := t.Nodes[n].Parent; p >= 0 {
		for c := t.Nodes[p].FirstChild; c >= 0 && c != n; c = t.Nodes[c].NextSibling {
			prev = c
		}
	}
	return prev, next
}
