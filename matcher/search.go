package matcher

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/structls/structls/matcher/lang"
	"github.com/structls/structls/matcher/syntax"
	"github.com/structls/structls/workspace"
)

// ProgressFunc is told how many files are done out of those found so far.
type ProgressFunc func(done, total int)

// settings is a validated Query.
type settings struct {
	opts  Options
	only  *lang.Language // the lang field, when given
	limit int            // 0 = unlimited
	text  bool
}

func (q Query) validate() (settings, error) {
	var s settings
	if strings.TrimSpace(q.Pattern) == "" {
		return s, invalidf("pattern must not be empty: give code with metavariables, e.g. foo($A)")
	}
	strictness, err := ParseStrictness(q.Strictness)
	if err != nil {
		return s, invalidf("%v", err)
	}
	s.opts = Options{Strictness: strictness, Selector: q.Selector}
	if q.Lang != "" {
		if s.only, err = lang.Lookup(q.Lang); err != nil {
			return s, invalidf("%v", err)
		}
	}
	s.limit = DefaultLimit
	if q.Limit != nil {
		s.limit = *q.Limit
	}
	switch {
	case q.Skip < 0:
		return s, invalidf("skip must be a non-negative number (got %d)", q.Skip)
	case s.limit < 0 || s.limit > 1<<30:
		return s, invalidf("limit must be between 0 (unlimited) and %d matches (got %d)", 1<<30, s.limit)
	case q.ContextLines < 0 || q.ContextLines > 1000:
		return s, invalidf("contextLines must be between 0 and 1000 (got %d)", q.ContextLines)
	}
	if s.text, err = workspace.TextFormat(q.Format); err != nil {
		return s, err
	}
	return s, workspace.ValidateGlobs(q.Globs)
}

// Search runs a structls.astGrep query over the snapshot: each file in a
// language of the catalogue is parsed (unless it lacks a literal of the
// pattern) and every matching node reported, sorted by path and position.
// cache, when not nil, keeps the parsed trees for the next query.
func Search(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress ProgressFunc, cache *syntax.Cache) (*Result, error) {
	set, err := q.validate()
	if err != nil {
		return nil, err
	}
	resolved, err := snap.ResolvePaths(q.Paths, false)
	if err != nil {
		return nil, err
	}
	targets := resolved.Targets
	patterns := NewPatternSet(q.Pattern, set.opts)
	if set.only != nil { // fail fast when the one language asked for cannot take the pattern
		if _, err := patterns.Get(ctx, set.only); err != nil {
			return nil, invalidf("%v", err)
		}
	}
	cache.StartQuery()
	walk := workspace.WalkOptions{Globs: q.Globs, Gitignore: q.Gitignore == nil || *q.Gitignore, Hidden: q.Hidden == nil || *q.Hidden}
	s := &searcher{patterns: patterns, only: set.only, enc: enc, contextLines: q.ContextLines, text: set.text, cache: cache}
	files, searched, issues, err := s.run(ctx, snap, targets, walk, progress)
	if err != nil {
		return nil, err
	}
	if patterns.CompiledAny() == 0 && len(patterns.Failures()) > 0 {
		return nil, invalidf("the pattern does not compile in any language searched: %s", joinIssues(patterns.Failures()))
	}
	res := page(files, q.Skip, set.limit)
	res.FilesSearched = searched
	res.ParseErrors = append(patterns.Failures(), issues...)
	res.Warnings = patterns.Warnings()
	if set.text {
		res.Text = renderText(res)
	}
	return res, nil
}

// fileMatches is the result for one file.
type fileMatches struct {
	rel     string
	folder  int
	matches []Match
}

// searcher holds what the workers share.
type searcher struct {
	patterns     *PatternSet
	only         *lang.Language
	enc          workspace.Encoding
	contextLines int
	text         bool // the text rendering is wanted: keep each match's source lines
	cache        *syntax.Cache
}

func (s *searcher) run(ctx context.Context, snap *workspace.Snapshot, targets []workspace.Target, walk workspace.WalkOptions,
	progress ProgressFunc) ([]fileMatches, int, []ParseIssue, error) {
	var mu sync.Mutex
	var hits []fileMatches
	var issues []ParseIssue
	keep := func(f workspace.File) bool {
		l := lang.ForPath(f.Rel)
		return l != nil && (s.only == nil || l == s.only) || (s.only != nil && !isDirTarget(targets, f))
	}
	found, walkErr := snap.Scan(ctx, targets, walk, keep, func() func(workspace.File) {
		var buf []byte
		scratch := new(syntax.Scratch)
		return func(f workspace.File) {
			fm, issue, content := s.file(ctx, snap, f, buf, scratch)
			if f.Doc == nil && content != nil {
				buf = content
			}
			mu.Lock()
			defer mu.Unlock()
			if len(fm.matches) > 0 {
				hits = append(hits, fm)
			}
			if issue != nil {
				issues = append(issues, *issue)
			}
		}
	}, progress)
	if err := ctx.Err(); err != nil {
		return nil, 0, nil, err
	}
	if walkErr != nil {
		return nil, 0, nil, walkErr
	}
	slices.SortFunc(hits, func(a, b fileMatches) int {
		if a.folder != b.folder {
			return a.folder - b.folder
		}
		return strings.Compare(a.rel, b.rel)
	})
	slices.SortFunc(issues, func(a, b ParseIssue) int { return strings.Compare(a.Path, b.Path) })
	return hits, found, issues, nil
}

// isDirTarget reports whether f was found by walking a directory (rather
// than named explicitly, in which case `lang` applies whatever its extension).
func isDirTarget(targets []workspace.Target, f workspace.File) bool {
	for _, t := range targets {
		if !t.IsDir && t.Base == f.Abs {
			return false
		}
	}
	return true
}

// file searches one file; content is the buffer it was read into.
func (s *searcher) file(ctx context.Context, snap *workspace.Snapshot, f workspace.File, buf []byte, scratch *syntax.Scratch) (fileMatches, *ParseIssue, []byte) {
	fm := fileMatches{rel: f.Rel, folder: f.Folder}
	l := s.only
	if l == nil {
		l = lang.ForPath(f.Rel)
	}
	p, err := s.patterns.Get(ctx, l)
	if err != nil {
		return fm, nil, nil
	}
	content, err := snap.ReadFile(f, buf)
	switch {
	case errors.Is(err, workspace.ErrTooLarge):
		return fm, &ParseIssue{Path: f.Rel, Message: fmt.Sprintf("skipped: %v (raise the maxFileSize setting to search it)", err)}, nil
	case err != nil:
		return fm, nil, nil // binary or unreadable: skipped, as the walk would
	}
	if !p.mayMatch(content) {
		return fm, nil, content
	}
	tree, err := s.parse(ctx, l, p, content, scratch)
	if err != nil {
		return fm, nil, content
	}
	var issue *ParseIssue
	if tree.HasError() {
		issue = &ParseIssue{Path: f.Rel, Message: "parse error (syntax tree contains error nodes); searched anyway"}
	}
	var mapper *workspace.Mapper // built at the first match: most files have none
	p.FindAll(tree, func(n int32, env *Env) {
		if mapper == nil {
			mapper = workspace.NewMapper(content)
		}
		fm.matches = append(fm.matches, s.match(f, l, tree, mapper, n, env))
	})
	return fm, issue, content
}

// parse returns the tree of a file: whole, through the server's cache, which
// keeps it for the next query; or, with no cache, just the subtrees that
// have the kind the pattern's matches must have, built in the worker's
// scratch memory (the matches are copied out before the next file).
func (s *searcher) parse(ctx context.Context, l *lang.Language, p *Pattern, content []byte, scratch *syntax.Scratch) (*syntax.Tree, error) {
	if s.cache.Enabled() || p.rootSymbol < 0 {
		return s.cache.Parse(ctx, l.Grammar(), content)
	}
	return syntax.ParseSubtrees(ctx, l.Grammar(), content, uint16(p.rootSymbol), scratch)
}

// mayMatch reports whether content holds every literal of the pattern, and
// every keyword as a whole word: the cheap test that keeps most files from
// being parsed at all.
func (p *Pattern) mayMatch(content []byte) bool {
	if p.Strictness == Signature {
		return true // text is not compared
	}
	for _, lit := range p.literals {
		if !bytes.Contains(content, []byte(lit)) {
			return false
		}
	}
	for _, kw := range p.keywords {
		if !containsWord(content, kw) {
			return false
		}
	}
	return true
}

// containsWord reports whether word occurs in text where a lexer could read
// it as a keyword token: not followed by a letter, digit or underscore, and
// not preceded by a run of them that starts with a letter or underscore (an
// identifier the word would be the end of). A lexer reads such runs longest
// first, so a keyword token never continues or ends one; a run that starts
// with a digit is a number, which can end right before a keyword (Python
// reads 0xfor as 0xf or). Other bytes, non-ASCII ones included, count as
// boundaries: when unsure, the file is parsed.
func containsWord(text []byte, word string) bool {
	for from := 0; ; {
		i := bytes.Index(text[from:], []byte(word))
		if i < 0 {
			return false
		}
		start, end := from+i, from+i+len(word)
		if (end == len(text) || !isWordByte(text[end])) && !identifierEndsAt(text, start) {
			return true
		}
		from = start + 1
	}
}

// identifierEndsAt reports whether text[:i] ends in a run of word bytes that
// starts with a letter or underscore.
func identifierEndsAt(text []byte, i int) bool {
	j := i
	for j > 0 && isWordByte(text[j-1]) {
		j--
	}
	return j < i && !(text[j] >= '0' && text[j] <= '9')
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_'
}

func (s *searcher) match(f workspace.File, l *lang.Language, t *syntax.Tree, mapper *workspace.Mapper, n int32, env *Env) Match {
	node := &t.Nodes[n]
	m := Match{Path: f.Rel, URI: f.URI(), Language: l.Name, Text: string(t.Text(n)), MetaVariables: map[string]any{}}
	m.ByteRange = workspace.ByteRange{Start: int(node.Start), End: int(node.End)}
	m.Range, _ = mapper.OffsetRange(m.ByteRange.Start, m.ByteRange.End, s.enc)
	first, last := m.Range.Start.Line, mapper.Line(int(node.End))
	if s.text {
		m.Lines = string(t.Source[mapper.LineStart(first):mapper.LineEnd(last)])
	}
	for name, c := range env.Single {
		m.MetaVariables[name] = capture(t, mapper, c, s.enc)
	}
	for name, cs := range env.Multi {
		list := make([]Capture, 0, len(cs))
		for _, c := range cs {
			list = append(list, capture(t, mapper, c, s.enc))
		}
		m.MetaVariables[name] = list
	}
	for i := max(0, first-s.contextLines); i < first; i++ {
		m.ContextBefore = append(m.ContextBefore, string(t.Source[mapper.LineStart(i):mapper.LineEnd(i)]))
	}
	for i := last + 1; i <= last+s.contextLines && i < mapper.LineCount(); i++ {
		m.ContextAfter = append(m.ContextAfter, string(t.Source[mapper.LineStart(i):mapper.LineEnd(i)]))
	}
	return m
}

func capture(t *syntax.Tree, mapper *workspace.Mapper, n int32, enc workspace.Encoding) Capture {
	node := &t.Nodes[n]
	c := Capture{Text: string(t.Text(n)), ByteRange: workspace.ByteRange{Start: int(node.Start), End: int(node.End)}}
	c.Range, _ = mapper.OffsetRange(c.ByteRange.Start, c.ByteRange.End, enc)
	return c
}

// page applies skip and limit to the matches of all files, in order.
func page(files []fileMatches, skip, limit int) *Result {
	res := &Result{Matches: []Match{}, ParseErrors: []ParseIssue{}}
	for _, f := range files {
		res.MatchCount += len(f.matches)
		res.FileCount++
	}
	end := res.MatchCount
	if limit > 0 && skip+limit < end {
		end = skip + limit
		res.LimitReached = true
		res.NextSkip = &end
	}
	i := 0
	for _, f := range files {
		for _, m := range f.matches {
			if i >= skip && i < end {
				res.Matches = append(res.Matches, m)
			}
			i++
		}
	}
	return res
}

func joinIssues(issues []ParseIssue) string {
	var parts []string
	for _, i := range issues {
		parts = append(parts, i.Message)
	}
	return strings.Join(parts, "; ")
}
