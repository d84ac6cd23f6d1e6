package rules

import (
	"cmp"
	"context"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/subst"
	"github.com/structls/structls/syntax"
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
	if len(table.rules) == 0 {
		return nil, nil
	}
	rel := relPath(s.BaseDir, path)
	kept := make([]bool, len(table.rules))
	for k, r := range table.rules {
		kept[k] = r.files.keeps(rel) && r.mayMatch(tree.Source)
	}
	var sup *suppressions
	if suppress {
		sup = findSuppressions(tree)
		if sup.wholeFile != nil && sup.wholeFile.all {
			// the file is not scanned; only no-suppress-all speaks
			return sup.builtinFindings(tree, "", s.builtins[noSuppressAllRule.ID]), nil
		}
	}
	done := ctx.Done()
	st := &state{t: tree, done: done}
	limit := cmp.Or(s.stepLimit, maxMatchSteps)
	src := subst.NewSource(tree.Source)
	var out []Finding
	for i := range tree.Nodes {
		if i%cancelCheckEvery == 0 && isDone(done) || st.stopped {
			return nil, ctx.Err()
		}
		for _, k := range table.candidates(tree.Nodes[i].Symbol) {
			if !kept[k] {
				continue
			}
			r := table.rules[k]
			st.limitSteps(limit)
			st.labels = st.labels[:0]
			e, ok := r.core.matchAt(st, int32(i))
			if st.overLimit {
				kept[k] = false // the rule is not tried again in this file
				out = append(out, r.overLimitFinding(tree, int32(i)))
				continue
			}
			if !ok {
				continue
			}
			if sup != nil && sup.hides(tree, int32(i), r.ID) {
				st.release(e)
				continue
			}
			st.limitSteps(limit)
			out = append(out, r.finding(st, src, int32(i), e))
			st.release(e)
		}
	}
	if sup != nil {
		unused := s.builtins[unusedSuppressionRule.ID]
		if unused == "" && s.ReportUnusedSuppressions {
			unused = unusedSuppressionRule.Severity
		}
		out = append(out, sup.builtinFindings(tree, unused, s.builtins[noSuppressAllRule.ID])...)
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
	e := s.scratch(nil)
	if !co.rule.match(s, n, e) || !checkConstraints(s, co.constraints, e) {
		s.release(e)
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
func (r *Rule) finding(s *state, src subst.Source, n int32, e *env) Finding {
	node := &s.t.Nodes[n]
	s.rewrites, s.transformText = 0, 0
	x := newExpansion(s, src, e, r.core, 0, nil)
	f := Finding{Rule: r, RuleID: r.ID, Severity: r.Severity, Note: r.Note, URL: r.URL, Start: int(node.Start), End: int(node.End)}
	f.Message = x.renderMessage(r.Message, f.Start, f.End)
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
