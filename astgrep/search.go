// Package astgrep is the structural search engine, structls.astGrep: it
// walks a snapshot's files, skips those that lack a literal of the pattern,
// parses the rest (through the parse cache of package parsecache when the
// server keeps one), matches the pattern of package matcher, and builds the
// reply — the page of matches asked for, in path order, as JSON and as the
// text rendering, streamed in batches or whole. It also answers the debug
// views that read a file (Debug, NodeAt).
package astgrep

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// settings is a validated Query.
type settings struct {
	opts     matcher.Options
	only     *lang.Language // the lang field, when given
	limit    int            // 0 = unlimited
	text     bool
	textOnly bool
}

func (q Query) validate() (settings, error) {
	var s settings
	if strings.TrimSpace(q.Pattern) == "" {
		return s, invalidf("pattern must not be empty: give code with metavariables, e.g. foo($A)")
	}
	if err := matcher.CheckPatternSize(q.Pattern); err != nil {
		return s, invalidf("%v", err)
	}
	strictness, err := matcher.ParseStrictness(q.Strictness)
	if err != nil {
		return s, invalidf("%v", err)
	}
	s.opts = matcher.Options{Strictness: strictness, Selector: q.Selector}
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
	if q.TextOnly && !s.text {
		return s, invalidf(`textOnly needs format "text": the text is what it returns`)
	}
	s.textOnly = q.TextOnly
	return s, nil
}

// Search runs a structls.astGrep query over the snapshot: each file in a
// language of the catalogue is parsed (unless it lacks a literal of the
// pattern) and every matching node reported, sorted by path and position.
// env.Trees, when not zero, keeps the parsed trees for the next query.
//
// Memory is bounded by the page, not by the matches: a first pass counts
// each file's matches (no text, no positions), then only the page returned
// is built, its files parsed again (from the cache, in the server). When
// the page is everything (limit 0 and skip 0, the CLI's default) the first
// pass builds the matches as it goes instead, as they are all returned.
// matchCount is always exact: every file is matched to the end, which costs
// time but no memory per match.
func Search(ctx context.Context, env engine.Env, q Query) (*Result, error) {
	return SearchStream(ctx, env, q, nil)
}

// SearchStream is Search that hands the matches of the page to emit, in
// batches in their final order, as soon as they are known, instead of
// returning them: the Result it returns has no matches (and, with format
// "text", only the rendering's tail: the notes after the matches). Files
// are searched in parallel but delivered in order, and nothing is kept of
// a batch once emit returns, so memory does not grow with the matches. An
// error from emit (the client has gone) ends the search with that error.
// A nil emit is Search.
func SearchStream(ctx context.Context, env engine.Env, q Query, emit func(Batch) error) (*Result, error) {
	set, req, err := engine.Start(env, q.Scope, engine.PlainPaths, q.validate)
	if err != nil {
		return nil, err
	}
	patterns := matcher.NewPatternSet(q.Pattern, set.opts)
	if set.only == nil {
		patterns.SkipUnparsed()
	}
	if set.only != nil { // fail fast when the one language asked for cannot take the pattern
		if _, err := patterns.Get(ctx, set.only); err != nil {
			return nil, invalidf("%v", err)
		}
	}
	res := &Result{Matches: []Match{}, MissingPaths: req.MissingPaths()}
	out := newMatchSink(res, set, q.Skip, emit)
	s := &searcher{patterns: patterns, only: set.only, enc: env.Encoding, contextLines: q.ContextLines, text: set.text, trees: env.Trees,
		buildAll: set.limit == 0 && q.Skip == 0}
	found, err := s.run(ctx, env.Snapshot, req.Targets, req.Walk, env.Progress, out.send)
	if err != nil {
		return nil, err
	}
	if patterns.CompiledAny() == 0 && len(patterns.Failures()) > 0 {
		return nil, invalidf("the pattern does not compile in any language searched: %s", joinIssues(patterns.Failures()))
	}
	res.FilesSearched, res.FileCount = found.searched, len(found.files)
	for _, f := range found.files {
		res.MatchCount += f.count
	}
	start, end := pageBounds(res.MatchCount, q.Skip, set.limit)
	if end < res.MatchCount {
		res.LimitReached, res.NextSkip = true, &end
	}
	if !s.buildAll {
		if err := s.page(ctx, env.Snapshot, found.files, start, end, out.send); err != nil {
			return nil, err
		}
	}
	res.ParseErrors = append(patterns.Failures(), found.issues...)
	res.Warnings = append(append(append(patterns.Warnings(), req.Warnings...), found.warnings...), req.SkippedWarnings()...)
	if skipped := patterns.Skipped(); len(skipped) > 0 {
		res.Warnings = append([]string{skippedNote(patterns.Searched(), skipped)}, res.Warnings...)
	}
	out.finish()
	return res, nil
}

// fileHits is what the first pass finds in a file: the file, its language,
// how many matches it has, and — only when every match is returned — the
// matches themselves (sent on in order, then dropped).
type fileHits struct {
	file    workspace.File
	lang    *lang.Language
	count   int
	matches []Match
}

// searcher holds what the workers share.
type searcher struct {
	patterns     *matcher.PatternSet
	only         *lang.Language
	enc          workspace.Encoding
	contextLines int
	text         bool // the text rendering is wanted: keep each match's source lines
	trees        parsecache.Trees
	buildAll     bool        // every match is returned: build them in the first pass
	full         atomic.Bool // the cache has no room left for the trees of files the pattern cannot match (fill)
}

// scanned is the outcome of the first pass.
type scanned struct {
	files    []fileHits // files with matches, sorted by folder and path
	searched int
	issues   []matcher.ParseIssue
	warnings []string
}

// fileNote is what the first pass has to say about a file besides its
// matches: a parse issue (syntax errors, too large) or a warning (a file
// named explicitly that could not be read).
type fileNote struct {
	issue   *matcher.ParseIssue
	warning string
}

// worker is what one worker of a pass keeps from file to file: its read
// buffer, its parse scratch, and the line table of the file whose matches
// it builds (workspace.Mapper.Reset), where a table made anew for each
// file was most of the cost of mapping a warm query's matches.
type worker struct {
	buf     []byte
	scratch *syntax.Scratch
	lines   workspace.Mapper
}

// file is the first pass over one file: it counts the matches (building
// them only when every match is returned). named says the user named the
// file in `paths`, so skipping it must be explained.
func (s *searcher) file(ctx context.Context, snap *workspace.Snapshot, f workspace.File, named bool, w *worker) (fileHits, fileNote) {
	hits := fileHits{file: f, lang: s.only}
	if hits.lang == nil {
		hits.lang = lang.ForPath(f.Rel)
	}
	p, err := s.patterns.Get(ctx, hits.lang)
	if err != nil {
		return hits, fileNote{}
	}
	tree, note := s.tree(ctx, snap, f, named, p, hits.lang, w)
	if tree == nil {
		return hits, note
	}
	if tree.HasError() {
		note.issue = &matcher.ParseIssue{Path: f.Rel, Message: "parse error (syntax tree contains error nodes); searched anyway"}
	}
	var build *matchBuilder // made at the first match: most files have none
	err = p.FindEach(ctx, tree, func(n int32, env *matcher.Env) bool {
		hits.count++
		if s.buildAll {
			if build == nil {
				build = s.newMatchBuilder(f, hits.lang, tree, &w.lines)
			}
			hits.matches = append(hits.matches, build.match(n, env))
		}
		return true
	})
	if err != nil {
		hits.count, hits.matches = 0, nil // cancelled: the query ends with ctx's error
	}
	return hits, note
}

// tree returns the tree of a file the pattern may match, or nil with what
// to say about the file: a file on disk known unchanged since its tree was
// cached is not even read (parsecache.Trees.Read); any other is read into
// the worker's buffer, tested against the pattern's literals, and parsed.
func (s *searcher) tree(ctx context.Context, snap *workspace.Snapshot, f workspace.File, named bool, p *matcher.Pattern, l *lang.Language,
	w *worker) (*syntax.Tree, fileNote) {
	var note fileNote
	text, err := s.trees.Read(snap, f, l.Grammar(), &w.buf)
	switch {
	case errors.Is(err, workspace.ErrTooLarge):
		note.issue = matcher.TooLargeIssue(f.Rel, err, "search")
		return nil, note
	case err != nil && named:
		note.warning = fmt.Sprintf("%s was not searched: %v (check that it is a readable text file)", f.Rel, err)
		return nil, note
	case err != nil:
		return nil, note // binary or unreadable, found by walking: skipped, as the walk would
	}
	if !p.MayMatch(text.Content) {
		if text.Tree == nil {
			s.fill(ctx, f, text, l, w.scratch)
		}
		return nil, note
	}
	if text.Tree != nil {
		return text.Tree, note
	}
	tree, err := s.parse(ctx, l, p, text.Content, f.Doc == nil, w.scratch)
	if err != nil {
		if ctx.Err() == nil {
			note.issue = &matcher.ParseIssue{Path: f.Rel, Message: fmt.Sprintf("not searched: %v", err)}
		}
		return nil, note
	}
	s.trees.Remember(f, text, l.Grammar())
	return tree, note
}

// parse returns the tree of a file: whole, through the server's cache, which
// keeps it for the next query; or, with no cache, just the subtrees that
// have the kind the pattern's matches must have. Either way it is parsed in
// the worker's scratch memory (the matches are copied out before the next
// file). A file on disk while a background run fills the cache
// (parsecache.Trees.Background) is cached whole as well while the cache has
// room, so the query's trees serve the next query however far background
// parsing has got, but it pushes out no tree for it: with no room left it
// is parsed as with no cache.
func (s *searcher) parse(ctx context.Context, l *lang.Language, p *matcher.Pattern, content []byte, onDisk bool,
	scratch *syntax.Scratch) (*syntax.Tree, error) {
	cache := s.trees.Cache
	symbol, rooted := p.RootSymbol()
	switch {
	case !rooted:
		return cache.ParseIn(ctx, l.Grammar(), content, scratch)
	case !cache.Enabled():
		return syntax.ParseSubtrees(ctx, l.Grammar(), content, symbol, scratch)
	case s.trees.Background && onDisk:
		return cache.ParseIfRoom(ctx, l.Grammar(), content, symbol, scratch)
	default:
		return cache.ParseIn(ctx, l.Grammar(), content, scratch)
	}
}

// fill caches the tree of a file on disk that the pattern cannot match
// (it lacks a literal) while a background run is to fill the cache
// (parsecache.Trees.Background), as long as the cache has room, pushing out
// no tree: so the first query of a fresh server parses every file of its languages
// in its paths, and the queries after it are warm whatever files they
// need, where leaving those files to the background run (which waits
// while requests run) had a session's later queries parse them one
// pattern at a time. Once the cache is full, the query parses no more of
// them.
func (s *searcher) fill(ctx context.Context, f workspace.File, text parsecache.Text, l *lang.Language, scratch *syntax.Scratch) {
	if !s.trees.Background || f.Doc != nil || s.full.Load() {
		return
	}
	switch err := s.trees.Cache.Fill(ctx, l.Grammar(), text.Content, scratch); {
	case errors.Is(err, syntax.ErrCacheFull):
		s.full.Store(true)
	case err == nil:
		s.trees.Remember(f, text, l.Grammar())
	}
}

func joinIssues(issues []matcher.ParseIssue) string {
	var parts []string
	for _, i := range issues {
		parts = append(parts, i.Message)
	}
	return strings.Join(parts, "; ")
}
