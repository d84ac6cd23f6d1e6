package rules

import (
	"bytes"
	"context"
	"slices"
	"strings"

	"github.com/structls/structls/matcher/lang"
	"github.com/structls/structls/matcher/syntax"
	"github.com/structls/structls/rewrite"
)

// cancelCheckEvery is how many nodes Check visits between looks at its
// context.
const cancelCheckEvery = 256

// Check runs the set's rules for language l over one parsed document: tree
// must be the whole tree of the document's text (syntax.Parse, or a parse
// cache), path its absolute path (or one relative to BaseDir) for the
// rules' files/ignores. Every node is visited once, in pre-order, and tried
// by the rules whose kinds it has (ast-grep's combined scan); a rule
// reports a node at most once. Suppression comments (ast-grep-ignore) are
// honoured. Findings come in scan order: by node, then rules without a fix
// before rules with one, then by id. The error is ctx's when it ends.
func (s *RuleSet) Check(ctx context.Context, path string, l *lang.Language, tree *syntax.Tree) ([]Finding, error) {
	return s.check(ctx, path, l, tree, true)
}

// CheckUnsuppressed is Check without suppression comments, as `structls
// test` (and `ast-grep test`) run rules.
func (s *RuleSet) CheckUnsuppressed(ctx context.Context, path string, l *lang.Language, tree *syntax.Tree) ([]Finding, error) {
	return s.check(ctx, path, l, tree, false)
}

func (s *RuleSet) check(ctx context.Context, path string, l *lang.Language, tree *syntax.Tree, suppress bool) ([]Finding, error) {
	table := s.table(l)
	if len(table.bySymbol) == 0 {
		return nil, nil
	}
	rel := relPath(s.BaseDir, path)
	kept := map[*Rule]bool{}
	for _, rules := range table.bySymbol {
		for _, r := range rules {
			if _, seen := kept[r]; !seen {
				kept[r] = r.files.keeps(rel) && r.mayMatch(tree.Source)
			}
		}
	}
	var sup *suppressions
	if suppress {
		sup = findSuppressions(tree)
		if sup.wholeFile != nil && sup.wholeFile.all {
			return nil, nil
		}
	}
	done := ctx.Done()
	st := &state{t: tree, done: done}
	src := rewrite.NewSource(tree.Source)
	var out []Finding
	for i := range tree.Nodes {
		if i%cancelCheckEvery == 0 && isDone(done) || st.stopped {
			return nil, ctx.Err()
		}
		for _, r := range table.bySymbol[tree.Nodes[i].Symbol] {
			if !kept[r] {
				continue
			}
			e, ok := r.core.matchAt(st, int32(i))
			if !ok {
				continue
			}
			if sup != nil && sup.hides(tree, int32(i), r.ID) {
				continue
			}
			out = append(out, r.finding(st, src, int32(i), e))
		}
	}
	if sup != nil && s.ReportUnusedSuppressions {
		out = append(out, sup.unused(tree)...)
	}
	return out, nil
}

func isDone(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
		return false
	}
}

// matchAt matches the rule and its constraints at node n.
func (co *core) matchAt(s *state, n int32) (*env, bool) {
	e := newEnv()
	if !co.rule.match(s, n, e) || !checkConstraints(s, co.constraints, e) {
		return nil, false
	}
	return e, true
}

// checkConstraints tests each constrained single metavariable's node;
// multi and unbound variables are not checked (as ast-grep).
func checkConstraints(s *state, constraints []constraint, e *env) bool {
	for _, c := range constraints {
		node, ok := e.vars.Single[c.name]
		if !ok {
			continue
		}
		if !c.rule.match(s, node, e) {
			return false
		}
	}
	return true
}

// finding builds the Finding of a match.
func (r *Rule) finding(s *state, src rewrite.Source, n int32, e *env) Finding {
	node := &s.t.Nodes[n]
	x := newExpansion(s, src, e, r.core, 0)
	f := Finding{Rule: r, RuleID: r.ID, Severity: r.Severity, Note: r.Note, URL: r.URL, Start: int(node.Start), End: int(node.End)}
	f.Message = x.render(r.Message, f.Start, f.End)
	f.Labels = r.labelsOf(s, n, e)
	for _, fix := range r.Fixes {
		f.Fixes = append(f.Fixes, x.fixEdit(fix, n))
	}
	return f
}

// labelsOf returns the labels of a match: the labels map's, or the
// matched node (primary) and the nodes relational rules matched.
func (r *Rule) labelsOf(s *state, n int32, e *env) []Label {
	t := s.t
	if r.labels != nil {
		var out []Label
		for _, d := range r.labels {
			l := Label{Style: d.style, Message: d.message}
			if node, ok := e.vars.Single[d.name]; ok {
				l.Start, l.End = int(t.Nodes[node].Start), int(t.Nodes[node].End)
			} else if nodes := e.vars.Multi[d.name]; len(nodes) > 0 {
				l.Start, l.End = int(t.Nodes[nodes[0]].Start), int(t.Nodes[nodes[len(nodes)-1]].End)
			} else {
				continue
			}
			out = append(out, l)
		}
		return out
	}
	out := []Label{{Start: int(t.Nodes[n].Start), End: int(t.Nodes[n].End), Style: "primary"}}
	for _, c := range e.secondary {
		out = append(out, Label{Start: int(t.Nodes[c].Start), End: int(t.Nodes[c].End), Style: "secondary"})
	}
	return out
}

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

// unusedSuppressionRule is ast-grep's built-in rule reporting suppression
// comments that hid nothing; its fix deletes the comment.
var unusedSuppressionRule = &Rule{ID: "unused-suppression", Severity: SeverityHint, Message: "Unused 'ast-grep-ignore' directive.",
	Fixes: []*Fix{{}}}

// unused returns a finding per suppression comment that hid nothing, in
// the order of the comments.
func (s *suppressions) unused(t *syntax.Tree) []Finding {
	var all []*suppression
	if s.wholeFile != nil {
		all = append(all, s.wholeFile)
	}
	for _, list := range s.byLine {
		all = append(all, list...)
	}
	slices.SortFunc(all, func(a, b *suppression) int { return int(a.comment - b.comment) })
	var out []Finding
	for _, sup := range all {
		if sup.used {
			continue
		}
		node := &t.Nodes[sup.comment]
		r := unusedSuppressionRule
		out = append(out, Finding{Rule: r, RuleID: r.ID, Severity: r.Severity, Message: r.Message, Start: int(node.Start), End: int(node.End),
			Labels: []Label{{Start: int(node.Start), End: int(node.End), Style: "primary"}},
			Fixes:  []Edit{{Start: int(node.Start), End: int(node.End)}}})
	}
	return out
}

// findSuppressions collects the comments holding ast-grep-ignore and the
// line each covers (reference §14).
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
