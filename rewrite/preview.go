package rewrite

import (
	"bytes"
	"container/heap"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/subst"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Preview computes an edit over the snapshot and writes nothing. Every file
// in a language of the catalogue (or of `lang`) is read — an open document's
// unsaved text in place of the disk — and, unless it lacks a literal of
// every op's pattern, parsed once; then each op, in the order given, replaces
// its matches (pre-order: of nested matches the outer one wins, the inner
// ones are counted in Skipped, as ast-grep does). Replacements of different
// ops that overlap are an input error naming both; a file whose tree has
// syntax errors is never rewritten and is listed in ParseErrors instead.
// env's parse cache, when there is one, keeps the parsed trees for later
// queries.
func Preview(ctx context.Context, env engine.Env, q Query) (*Plan, error) {
	set, req, err := engine.Start(env, q.Scope, engine.PlainPaths, q.validate)
	if err != nil {
		return nil, err
	}
	if set.only != nil { // fail fast when the one language asked for cannot take a pattern
		for _, op := range set.ops {
			if _, err := op.patterns.Get(ctx, set.only); err != nil {
				return nil, workspace.Inputf("ops[%d].pattern: %v", op.index, err)
			}
		}
	}
	scan, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	e := &editor{settings: set, enc: env.Encoding, trees: env.Trees, walk: req.Walk, refuse: stop}
	files, limitReached, searched, issues, err := e.run(scan, env.Snapshot, req.Targets, env.Progress)
	if cause := context.Cause(scan); err != nil && errors.As(cause, new(*workspace.InputError)) {
		return nil, cause // refused while scanning: too much text
	}
	if err != nil {
		return nil, err
	}
	parseErrors, warnings, err := notes(set, req)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		if f.refusal != nil {
			return nil, f.refusal
		}
	}
	return newPlan(files, planSummary{searched: searched, parseErrors: append(parseErrors, issues...),
		warnings: warnings, limitReached: limitReached, text: set.text}), nil
}

// notes gathers what a preview reports besides its files: the languages an
// op's pattern does not compile in (an error when it compiles in none of
// those searched), how patterns were compiled, and the paths skipped.
func notes(set settings, req *engine.Request) ([]matcher.ParseIssue, []string, error) {
	parseErrors, warnings := []matcher.ParseIssue{}, []string{}
	for _, op := range set.ops {
		failures := op.patterns.Failures()
		if op.patterns.CompiledAny() == 0 && len(failures) > 0 {
			return nil, nil, workspace.Inputf("ops[%d].pattern does not compile in any language searched: %s", op.index, joinIssues(failures))
		}
		for _, f := range failures {
			parseErrors = append(parseErrors, matcher.ParseIssue{Message: fmt.Sprintf("ops[%d]: %s", op.index, f.Message)})
		}
		for _, w := range op.patterns.Warnings() {
			warnings = append(warnings, fmt.Sprintf("ops[%d]: %s", op.index, w))
		}
	}
	warnings = append(warnings, req.MissingWarnings()...)
	return parseErrors, append(append(warnings, req.Warnings...), req.SkippedWarnings()...), nil
}

// editor holds what the workers of one preview share.
type editor struct {
	settings
	enc   workspace.Encoding
	trees parsecache.Trees
	walk  workspace.WalkOptions
	// produced counts the bytes of replacement text made so far, over all
	// files: past MaxReplacementText the preview is refused (refuse stops
	// the scan with the reason), so its memory stays bounded.
	produced atomic.Int64
	refused  atomic.Bool
	refuse   context.CancelCauseFunc
}

// fileEdits is the preview of one file.
type fileEdits struct {
	file         workspace.File
	root         string // the real path of the file's workspace folder
	docPath      string // the path open documents are keyed by
	version      *int32
	edits        []edit
	skipped      int
	refusal      error // the file cannot be previewed as asked (overlapping ops): the preview is refused
	hash         [sha256.Size]byte
	content      []byte // the new content
	replacements []Replacement
	diff         string // unified diff, for the text rendering
}

// edit is one replacement.
type edit struct {
	op         int
	start, end int
	after      []byte
}

// run scans the targets; it returns the files with replacements, in path
// order — the first maxFiles of them, and whether there were more — how many
// files were searched, and the parse issues. Only maxFiles previews are held
// at any time, so a huge workspace cannot exhaust memory.
func (e *editor) run(ctx context.Context, snap *workspace.Snapshot, targets []workspace.Target,
	progress workspace.ProgressFunc) ([]*fileEdits, bool, int, []matcher.ParseIssue, error) {
	var mu sync.Mutex
	kept := &lastInPathOrder{}
	limitReached := false
	issues := []matcher.ParseIssue{}
	keep := func(f workspace.File) bool {
		l := lang.ForPath(f.Rel)
		return l != nil && (e.only == nil || l == e.only) || (e.only != nil && f.Named)
	}
	found, walkErr := snap.WalkParallel(ctx, targets, e.walk, keep, func() func(workspace.File) {
		var buf []byte
		return func(f workspace.File) {
			fe, issue := e.file(ctx, snap, f, &buf)
			mu.Lock()
			defer mu.Unlock()
			if fe != nil {
				heap.Push(kept, fe)
				if kept.Len() > e.maxFiles {
					heap.Pop(kept)
					limitReached = true
				}
			}
			if issue != nil {
				issues = append(issues, *issue)
			}
		}
	}, progress)
	if err := ctx.Err(); err != nil {
		return nil, false, 0, nil, err
	}
	if walkErr != nil {
		return nil, false, 0, nil, walkErr
	}
	files := []*fileEdits(*kept)
	slices.SortFunc(files, comparePaths)
	slices.SortFunc(issues, func(a, b matcher.ParseIssue) int { return strings.Compare(a.Path, b.Path) })
	return files, limitReached, found, issues, nil
}

// comparePaths orders files by workspace folder, then path: the order of
// every result.
func comparePaths(a, b *fileEdits) int {
	if a.file.Folder != b.file.Folder {
		return a.file.Folder - b.file.Folder
	}
	return strings.Compare(a.file.Rel, b.file.Rel)
}

// lastInPathOrder is a heap (container/heap) whose top is the file last in
// path order: the one to drop when there are more than maxFiles.
type lastInPathOrder []*fileEdits

func (h lastInPathOrder) Len() int           { return len(h) }
func (h lastInPathOrder) Less(i, j int) bool { return comparePaths(h[i], h[j]) > 0 }
func (h lastInPathOrder) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *lastInPathOrder) Push(x any)        { *h = append(*h, x.(*fileEdits)) }
func (h *lastInPathOrder) Pop() any {
	old := *h
	last := old[len(old)-1]
	*h = old[:len(old)-1]
	return last
}

// file previews the edit of one file, read into *buf (kept for the next
// file) unless the server has its tree (parsecache.Trees.Read).
func (e *editor) file(ctx context.Context, snap *workspace.Snapshot, f workspace.File, buf *[]byte) (*fileEdits, *matcher.ParseIssue) {
	l := e.only
	if l == nil {
		l = lang.ForPath(f.Rel)
	}
	patterns := make([]*matcher.Pattern, len(e.ops))
	for i, op := range e.ops {
		patterns[i], _ = op.patterns.Get(ctx, l) // a language the pattern does not compile in is in Failures
	}
	text, err := e.trees.Read(snap, f, l.Grammar(), buf)
	switch {
	case errors.Is(err, workspace.ErrTooLarge):
		return nil, matcher.TooLargeIssue(f.Rel, err, "rewrite")
	case err != nil:
		return nil, nil // binary or unreadable: skipped, as the walk would
	}
	content := text.Content
	if !slices.ContainsFunc(patterns, func(p *matcher.Pattern) bool { return mayMatch(p, content) }) {
		return nil, nil
	}
	tree := text.Tree
	if tree == nil {
		if tree, err = e.trees.Cache.Parse(ctx, l.Grammar(), content); err != nil {
			return nil, nil // cancelled: the caller reports ctx.Err()
		}
		e.trees.Remember(f, text, l.Grammar())
	}
	fe := &fileEdits{file: f}
	src := subst.NewSource(tree.Source)
	for i, p := range patterns {
		if p != nil && fe.refusal == nil {
			fe.skipped += e.matchOp(tree, src, i, p, fe)
		}
	}
	if fe.refusal != nil {
		return fe, nil
	}
	if len(fe.edits) == 0 {
		return nil, nil
	}
	if tree.HasError() {
		return nil, &matcher.ParseIssue{Path: f.Rel, Message: fmt.Sprintf(
			"not rewritten: the file has syntax errors, so %s left out; fix the errors or leave the file out of paths", english.Count(len(fe.edits), "replacement was", "replacements were"))}
	}
	if bad := invalidUTF8At(content); bad >= 0 {
		p, _ := workspace.NewMapper(content).OffsetPosition(bad, workspace.UTF32)
		return nil, &matcher.ParseIssue{Path: f.Rel, Message: fmt.Sprintf(
			"not rewritten: the file is not valid UTF-8 (line %d, column %d), and an LSP edit cannot carry its bytes (ast-grep skips it too); convert it to UTF-8 or leave it out of paths",
			p.Line+1, p.Character+1)}
	}
	fe.finish(snap, content, e.ops, e.enc, e.text)
	return fe, nil
}

// invalidUTF8At returns the offset of the first byte of text that is not
// valid UTF-8, or -1 when it all is.
func invalidUTF8At(text []byte) int {
	if utf8.Valid(text) {
		return -1
	}
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// matchOp adds the replacements of op i to fe and returns how many matches
// it skipped because they lie inside one it replaces (ast-grep keeps a
// match only when it starts at or after the end of the last one kept).
// Replacements that change nothing are left out. Past MaxReplacementText
// of new text in the whole preview, the preview is refused (e.refuse) and
// the rest is passed over.
func (e *editor) matchOp(tree *syntax.Tree, src subst.Source, i int, p *matcher.Pattern, fe *fileEdits) int {
	skipped, lastEnd := 0, 0
	p.FindAll(tree, func(n int32, env *matcher.Env) {
		node := &tree.Nodes[n]
		start, end := int(node.Start), int(node.End)
		if e.refused.Load() {
			return
		}
		if start < lastEnd {
			skipped++
			return
		}
		lastEnd = end
		after, err := e.ops[i].template.Expand(src, subst.Span{Start: start, End: end}, bindings(tree, env))
		if err == nil && e.produced.Add(int64(len(after))) > subst.MaxReplacementText {
			err = subst.ErrReplacementTooLarge
		}
		if err != nil {
			if !e.refused.Swap(true) {
				e.refuse(workspace.Inputf("ops[%d].rewrite at %s: %v; an edit must make at most %d MiB of new text over all its files: check the template, or narrow paths",
					e.ops[i].index, position(fe.file.Rel, workspace.NewMapper(src.Text), start), err, subst.MaxReplacementText>>20))
			}
			return
		}
		if !bytes.Equal(after, src.Text[start:end]) {
			fe.edits = append(fe.edits, edit{op: i, start: start, end: end, after: after})
		}
	})
	return skipped
}

// bindings turns a match's environment into source spans.
func bindings(tree *syntax.Tree, env *matcher.Env) subst.Bindings {
	b := subst.Bindings{Single: make(map[string]subst.Span, len(env.Single)), Multi: make(map[string]subst.Span, len(env.Multi))}
	for name, n := range env.Single {
		b.Single[name] = subst.Span{Start: int(tree.Nodes[n].Start), End: int(tree.Nodes[n].End)}
	}
	for name, nodes := range env.Multi {
		if len(nodes) > 0 {
			b.Multi[name] = subst.Span{Start: int(tree.Nodes[nodes[0]].Start), End: int(tree.Nodes[nodes[len(nodes)-1]].End)}
		}
	}
	return b
}

// mayMatch reports whether content holds every literal of the pattern: the
// cheap test that keeps most files from being parsed (text is not compared
// in signature mode, so there it always passes).
func mayMatch(p *matcher.Pattern, content []byte) bool {
	if p == nil {
		return false
	}
	if p.Strictness == matcher.Signature {
		return true
	}
	for _, lit := range p.Literals() {
		if !bytes.Contains(content, []byte(lit)) {
			return false
		}
	}
	return true
}

// finish orders the replacements, refuses overlapping ones, and computes
// the new content, its positions and (with text) the unified diff.
func (fe *fileEdits) finish(snap *workspace.Snapshot, content []byte, ops []compiledOp, enc workspace.Encoding, text bool) {
	slices.SortStableFunc(fe.edits, func(a, b edit) int { return a.start - b.start })
	mapper := workspace.NewMapper(content)
	fe.refusal = overlapError(fe.file.Rel, fe.edits, ops, mapper)
	folder := snap.Folders[fe.file.Folder]
	fe.root, fe.docPath = folder.Real, filepath.Join(folder.Path, filepath.FromSlash(fe.file.Rel))
	if fe.file.Doc != nil {
		v := fe.file.Doc.Version
		fe.version = &v
	}
	fe.hash = sha256.Sum256(content)
	if fe.refusal != nil {
		return
	}
	size := len(content)
	for _, ed := range fe.edits {
		size += len(ed.after) - (ed.end - ed.start)
	}
	out := make([]byte, 0, size) // made once: the new text can be 64 MiB
	last := 0
	for _, ed := range fe.edits {
		out = append(out, content[last:ed.start]...)
		// After shares the new content's bytes (never changed once made)
		// rather than copying them: a replacement can be 64 MiB.
		after := unsafe.String(unsafe.SliceData(out[len(out):]), len(ed.after))
		out = append(out, ed.after...)
		last = ed.end
		r := Replacement{ByteRange: workspace.ByteRange{Start: ed.start, End: ed.end},
			Before: string(content[ed.start:ed.end]), After: after}
		r.Range, _ = mapper.OffsetRange(ed.start, ed.end, enc)
		fe.replacements = append(fe.replacements, r)
	}
	fe.content = append(out, content[last:]...)
	if text {
		fe.diff = unifiedDiff(fe.file.Rel, content, fe.edits)
	}
}

// overlapError names the first two replacements, of different ops, that
// overlap or start at the same place (their order would be a guess).
func overlapError(path string, edits []edit, ops []compiledOp, mapper *workspace.Mapper) error {
	widest := -1 // the earlier edit reaching furthest
	for i, b := range edits {
		var a *edit
		switch {
		case widest >= 0 && b.start < edits[widest].end:
			a = &edits[widest]
		case i > 0 && edits[i-1].start == b.start && edits[i-1].op != b.op:
			a = &edits[i-1]
		}
		if a != nil {
			return workspace.Inputf("ops[%d] (%q) at %s and ops[%d] (%q) at %s rewrite overlapping code: narrow one of the patterns, or run them as separate edits",
				ops[a.op].index, ops[a.op].pattern, position(path, mapper, a.start), ops[b.op].index, ops[b.op].pattern, position(path, mapper, b.start))
		}
		if widest < 0 || b.end > edits[widest].end {
			widest = i
		}
	}
	return nil
}

// position renders a byte offset as path:LINE:COLUMN, 1-based, the column
// in characters.
func position(path string, mapper *workspace.Mapper, off int) string {
	p, _ := mapper.OffsetPosition(off, workspace.UTF32)
	return fmt.Sprintf("%s:%d:%d", path, p.Line+1, p.Character+1)
}

func joinIssues(issues []matcher.ParseIssue) string {
	parts := make([]string, len(issues))
	for i, issue := range issues {
		parts[i] = issue.Message
	}
	return strings.Join(parts, "; ")
}
