package rules

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/structls/structls/subst"
)

// maxRewriteDepth bounds rewriters that rewrite with themselves, and
// maxRewrites the rewrites one finding may make in all: a rewriter that
// rewrites the rule's own variable with itself would recurse forever, and
// one whose every level rewrites two nodes would double its work per level.
// Past either, the rewrite transform fails (the match's fixes with it).
const (
	maxRewriteDepth = 64
	maxRewrites     = 10000
)

// expansion renders a match's templates (message, fix, rewriters' fixes):
// metavariables expand to the captured source, transforms to their values.
type expansion struct {
	s      *state
	src    subst.Source
	e      *env
	values map[string]string
	depth  int
	// base is the environment of the rule's match: every rewriter, however
	// deeply nested, starts from a copy of it (a rewriter's own bindings
	// do not reach the rewrites its transforms make).
	base *env
	// err is why a transform failed: every template of the match then
	// fails with it, rather than render with the value missing.
	err error
}

// newExpansion computes the core's transforms for a match; base is the
// rule's match environment (nil: e itself, for the rule's own expansion).
func newExpansion(s *state, src subst.Source, e *env, co *core, depth int, base *env) *expansion {
	if base == nil {
		base = e
	}
	x := &expansion{s: s, src: src, e: e, values: map[string]string{}, depth: depth, base: base}
	for _, t := range co.transforms {
		v, err := t.apply(x)
		if err != nil {
			if depth == 0 { // the rule's own transform is named, not each rewriter's under it
				err = fmt.Errorf("transform `%s`: %w", t.name, err)
			}
			x.err = err
			break
		}
		x.values[t.name] = v
	}
	return x
}

// bindings are the match's captures as spans, with the transform values.
func (x *expansion) bindings() subst.Bindings {
	t := x.s.t
	b := subst.Bindings{Single: map[string]subst.Span{}, Multi: map[string]subst.Span{}, Values: x.values}
	for name, n := range x.e.vars.Single {
		if _, isValue := x.values[name]; !isValue {
			b.Single[name] = subst.Span{Start: int(t.Nodes[n].Start), End: int(t.Nodes[n].End)}
		}
	}
	for name, nodes := range x.e.vars.Multi {
		if len(nodes) > 0 {
			b.Multi[name] = subst.Span{Start: int(t.Nodes[nodes[0]].Start), End: int(t.Nodes[nodes[len(nodes)-1]].End)}
		}
	}
	return b
}

// render expands a template for a match spanning [start, end). A template
// that cannot be expanded (its text past subst.MaxReplacementText, a
// transform that failed) is an error, never its own text: a fix written
// unexpanded would corrupt the file.
func (x *expansion) render(template string, start, end int) (string, error) {
	if !strings.Contains(template, "$") {
		return template, nil
	}
	if x.err != nil {
		return "", x.err
	}
	out, err := subst.ParseTemplate(template).Expand(x.src, subst.Span{Start: start, End: end}, x.bindings())
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// renderMessage is render for a finding's message, which is shown, never
// written: one that cannot be expanded is shown as written, saying why.
func (x *expansion) renderMessage(template string, start, end int) string {
	out, err := x.render(template, start, end)
	if err != nil {
		return fmt.Sprintf("%s (structls could not expand this message: %v)", template, err)
	}
	return out
}

// fixEdit computes a fix's edit at node n: its range (with expandStart /
// expandEnd) and its text, or Err when the text cannot be rendered.
func (x *expansion) fixEdit(f *Fix, n int32) Edit {
	t := x.s.t
	start, end := int(t.Nodes[n].Start), int(t.Nodes[n].End)
	if rel := f.expand[0]; rel != nil {
		if c, ok := rel.find(x.s, n, x.e.clone()); ok {
			start = int(t.Nodes[c].Start)
		}
	}
	if rel := f.expand[1]; rel != nil {
		if c, ok := rel.find(x.s, n, x.e.clone()); ok {
			end = int(t.Nodes[c].End)
		}
	}
	text, err := x.render(f.Template, int(t.Nodes[n].Start), int(t.Nodes[n].End))
	if err == nil && x.s.overLimit {
		err = errOverLimit // expandStart or expandEnd cut short: the range may be wrong
	}
	if err != nil {
		return Edit{Title: f.Title, Start: start, End: end, Err: fmt.Errorf("the fix cannot be rendered: %w", err)}
	}
	return Edit{Title: f.Title, Start: start, End: end, Text: text}
}

// variableText is a transform source's text: a transform value, a single
// capture de-indented from its line, or a multi capture's source span.
func (x *expansion) variableText(name string, multi bool) string {
	if v, ok := x.values[name]; ok && !multi {
		return v
	}
	t := x.s.t
	if n, ok := x.e.vars.Single[name]; ok && !multi {
		return dedent(t.Source, int(t.Nodes[n].Start), int(t.Nodes[n].End))
	}
	nodes := x.e.vars.Multi[name]
	if n, ok := x.e.vars.Single[name]; ok && len(nodes) == 0 {
		nodes = []int32{n}
	}
	if len(nodes) == 0 {
		return ""
	}
	return dedent(t.Source, int(t.Nodes[nodes[0]].Start), int(t.Nodes[nodes[len(nodes)-1]].End))
}

// dedent returns src[start:end] with the indentation of the line it starts
// on taken off its later lines.
func dedent(src []byte, start, end int) string {
	return dedentLines(string(src[start:end]), lineIndent(src, start))
}

// lineIndent returns the leading spaces and tabs of the line holding off.
func lineIndent(src []byte, off int) string {
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	end := lineStart
	for end < off && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[lineStart:end])
}

// dedentLines takes prefix off the start of every line of text but the first.
func dedentLines(text, prefix string) string {
	if prefix == "" || !strings.Contains(text, "\n") {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = strings.TrimPrefix(lines[i], prefix)
	}
	return strings.Join(lines, "")
}

// rewrite is the `rewrite` transform: each source node is walked in
// pre-order (itself included); at each node the rewriters are tried in
// order and the first match's fix replaces it (outer matches win).
func (x *expansion) rewrite(t *transform) (string, error) {
	tree := x.s.t
	if x.s.rewrites++; x.s.rewrites > maxRewrites {
		return "", errTooManyRewrites
	}
	var nodes []int32
	if n, ok := x.e.vars.Single[t.source]; ok {
		nodes = []int32{n}
	} else {
		nodes = x.e.vars.Multi[t.source]
	}
	if len(nodes) == 0 {
		return "", nil
	}
	type edit struct {
		start, end int
		text       string
	}
	var edits []edit
	for _, root := range nodes {
		lastEnd := -1
		for i, end := root, subtreeEnd(tree, root); i < end; i++ {
			if int(tree.Nodes[i].Start) < lastEnd {
				continue
			}
			if x.depth >= maxRewriteDepth {
				return "", errRewritesTooDeep
			}
			for _, rw := range t.rewriters {
				e := x.base.clone()
				matched := rw.core.rule.match(x.s, i, e) && checkConstraints(x.s, rw.core.constraints, e)
				if x.s.overLimit {
					return "", errOverLimit // a rewriter cut short would leave its node unrewritten
				}
				if !matched {
					continue
				}
				sub := newExpansion(x.s, x.src, e, rw.core, x.depth+1, x.base)
				start, stop := int(tree.Nodes[i].Start), int(tree.Nodes[i].End)
				text, err := sub.render(rw.fix.Template, start, stop)
				if err == nil {
					err = x.s.chargeTransform(len(text))
				}
				if err != nil {
					return "", err
				}
				edits = append(edits, edit{start: start, end: stop, text: text})
				lastEnd = stop
				break
			}
		}
	}
	if t.joinBy != nil {
		texts := make([]string, len(edits))
		for i, e := range edits {
			texts[i] = e.text
		}
		return strings.Join(texts, *t.joinBy), nil
	}
	start, end := int(tree.Nodes[nodes[0]].Start), int(tree.Nodes[nodes[len(nodes)-1]].End)
	var b strings.Builder
	at := start
	for _, e := range edits {
		b.Write(tree.Source[at:e.start])
		b.WriteString(e.text)
		at = e.end
	}
	b.Write(tree.Source[at:end])
	return dedentLines(b.String(), lineIndent(tree.Source, start)), nil
}

var (
	errOverLimit       = fmt.Errorf("the rule's rewriters or expandStart/expandEnd took more than %d steps for this match: give their recursion a base case or a stopBy", maxMatchSteps)
	errTooManyRewrites = fmt.Errorf("the rewrite transform made more than %d rewrites for one match: its rewriters probably rewrite their own output; narrow their rules", maxRewrites)
	errRewritesTooDeep = fmt.Errorf("rewriters nested more than %d levels deep: a rewriter probably rewrites its own variable with itself; narrow its rule", maxRewriteDepth)
)
