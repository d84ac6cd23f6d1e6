package outline

import (
	"context"
	"errors"
	"fmt"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/inorder"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Search runs a structls.outline query over env's snapshot: every file the
// paths and globs name, in a language with an outline, is parsed (through
// env's parse cache, when there is one) and its items selected. It returns
// a *workspace.InputError or *workspace.PathError for input the user must
// fix, and ctx.Err() when cancelled. Positions are in env.Encoding.
func Search(ctx context.Context, env engine.Env, q Query) (*Result, error) {
	return SearchStream(ctx, env, q, nil)
}

// SearchStream is Search that hands the files of the page to emit, in
// batches in their final order, as soon as they are outlined, instead of
// returning them: the Result it returns has no files (and, with format
// "text", only the rendering's tail). Files are outlined in parallel but
// delivered in order, and nothing is kept of a file once emit returns, so
// memory does not grow with the tree. An error from emit (the client has
// gone) ends the outline with that error. A nil emit is Search: the page's
// files are collected (with textOnly, only their rendering).
func SearchStream(ctx context.Context, env engine.Env, q Query, emit func(Batch) error) (*Result, error) {
	set, req, err := engine.Start(env, q.Scope, engine.PlainPaths, q.validate)
	if err != nil {
		return nil, err
	}
	hasDirectory := false
	for _, t := range req.Targets {
		hasDirectory = hasDirectory || t.IsDir || t.Glob != ""
	}
	set.resolve(hasDirectory)
	walked, err := env.Snapshot.Walk(ctx, req.Targets, req.Walk)
	if err != nil {
		return nil, err
	}
	res := &Result{Files: []File{}, Warnings: append(append(append([]string{}, req.MissingWarnings()...), req.Warnings...), req.SkippedWarnings()...),
		MissingPaths: req.MissingPaths()}
	var files []workspace.File
	for _, f := range walked {
		if l := lang.ForPath(f.Rel); l != nil && SpecFor(l.Name) != nil && (set.lang == nil || set.lang == l) {
			files = append(files, f)
		} else if f.Named && l == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: structls does not know its language from its name, so it has no outline", f.Rel))
		} else if f.Named && set.lang == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %s has no outline (docs/protocol.md, structls.outline, lists the languages that have one)", f.Rel, l.Name))
		}
	}
	res.FilesSearched = len(files)
	out := &page{res: res, skip: q.Skip, limit: set.limit, text: set.text, textOnly: q.TextOnly, singleFile: len(files) == 1,
		emit: emit, render: newRenderer(set.view, hasDirectory)}
	var scratches syntax.Scratches // kept from file to file, given back when the outline ends
	defer scratches.Release()
	newWorker := func() func(int) outcome {
		w := &outliner{snap: env.Snapshot, enc: env.Encoding, trees: env.Trees, selected: set.selects, scratch: scratches.New(),
			keep: func(entries []Entry) []Entry { return set.filter(entries, q.PubMembers) }}
		return func(i int) outcome {
			f, problem := w.outline(ctx, files[i])
			return outcome{f, problem}
		}
	}
	err = inorder.RunWindow(ctx, len(files), outlineWindow, newWorker, func(_ int, o outcome) error {
		if o.problem != "" {
			res.Warnings = append(res.Warnings, o.problem)
		}
		if o.file == nil {
			return nil
		}
		return out.add(o.file)
	}, env.Progress)
	if err != nil && !errors.Is(err, errPageDone) {
		return nil, err
	}
	if err := out.flush(); err != nil {
		return nil, err
	}
	out.finish()
	if q.TextOnly {
		res.Files = []File{}
	}
	return res, nil
}

// outlineWindow is how many files the workers may outline ahead of the one
// delivered last (inorder.RunWindow): wide, so that while one worker
// parses a large file the others go on with the files after it; what
// waits for delivery is the outlines of at most this many files.
const outlineWindow = 256

// outcome is one file's outline, or nil and a warning saying why not.
type outcome struct {
	file    *File
	problem string
}

// outliner is one worker of SearchStream. What it reuses from file to file
// — the read buffer, the parse scratch whose arena pages stay touched, the
// line table — makes a file cost no allocation beyond what it keeps.
type outliner struct {
	snap  *workspace.Snapshot
	enc   workspace.Encoding
	trees parsecache.Trees
	// selected and keep are the query's selection: selected sees a
	// top-level entry before its signature and members are made, keep
	// filters what is left.
	selected func(*Entry) bool
	keep     func([]Entry) []Entry
	buf      []byte
	scratch  *syntax.Scratch
	mapper   workspace.Mapper
}

// outline reads, parses and extracts one file; on failure it returns a
// warning saying why. A file on disk unchanged since the server cached its
// tree is not read (parsecache.Trees.Read).
func (w *outliner) outline(ctx context.Context, f workspace.File) (*File, string) {
	l := lang.ForPath(f.Rel)
	spec := SpecFor(l.Name)
	text, err := w.trees.Read(w.snap, f, l.Grammar(), &w.buf)
	if err != nil {
		switch {
		case errors.Is(err, workspace.ErrTooLarge):
			return nil, fmt.Sprintf("%s: %v (raise the maxFileSize setting to outline it)", f.Rel, err)
		case errors.Is(err, workspace.ErrBinary):
			return nil, "" // binary files are skipped silently, as by every search
		}
		return nil, fmt.Sprintf("%s: cannot read it: %v (check that it exists and is readable)", f.Rel, err)
	}
	var entries []Entry
	if tree := text.Tree; tree != nil {
		entries = extractSelected(tree, spec, w.selected)
	} else if l.Grammar() != nil { // a catalogue built without the grammar: no items
		if tree, err = parse(ctx, l, spec, text.Content, w.trees.Cache, w.scratch); err != nil {
			return nil, fmt.Sprintf("%s: cannot parse it as %s: %v", f.Rel, l.Name, err)
		}
		w.trees.Remember(f, text, l.Grammar())
		entries = extractSelected(tree, spec, w.selected)
	}
	w.mapper.Reset(text.Content)
	items := Items(w.keep(entries), &w.mapper, w.enc)
	return &File{Path: f.Rel, URI: f.URI(), Language: l.Name, Items: items}, ""
}

// ExtractSource parses content as l and extracts its outline. With a cache
// that keeps trees, the whole tree is parsed through it, for the queries
// that follow; without one, the tree is parsed for the outline alone, pruned
// of the language's opaque kinds.
func ExtractSource(ctx context.Context, l *lang.Language, content []byte, cache *syntax.Cache) ([]Entry, error) {
	spec := SpecFor(l.Name)
	if spec == nil || l.Grammar() == nil {
		return nil, nil
	}
	var scratch syntax.Scratch // one file's: given back at once
	defer scratch.Release()
	tree, err := parse(ctx, l, spec, content, cache, &scratch)
	if err != nil {
		return nil, err
	}
	return extractSelected(tree, spec, nil), nil
}

// parse parses content as l for its outline (spec, l's): the whole tree
// through cache when it keeps trees, for the queries that follow; else in
// scratch (reused by the caller's next file: extraction copies what it
// keeps), pruned of the opaque kinds' insides and, where the language can,
// without the bodies the outline never reads.
func parse(ctx context.Context, l *lang.Language, spec *Spec, content []byte, cache *syntax.Cache, scratch *syntax.Scratch) (*syntax.Tree, error) {
	var skip []uint32
	if spec.Skip != nil && !cache.Enabled() { // a cached tree is whole, for the queries that follow
		skip = spec.Skip(content, nil)
	}
	return cache.ParseWith(ctx, l.Grammar(), content, spec.opaqueKinds(l.Grammar()), skip, scratch)
}
