package outline

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/structls/structls/internal/workers"
	"github.com/structls/structls/matcher/lang"
	"github.com/structls/structls/matcher/syntax"
	"github.com/structls/structls/workspace"
)

// ProgressFunc is told how many files are done out of how many; it is
// called from several goroutines.
type ProgressFunc func(done, total int)

// Search runs a structls.outline query over the snapshot: every file the
// paths and globs name, in a language with an outline, is parsed (through
// cache, when not nil) and its items selected. It returns a
// *workspace.InputError or *workspace.PathError for input the user must
// fix, and ctx.Err() when cancelled. Positions are in enc.
func Search(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress ProgressFunc, cache *syntax.Cache) (*Result, error) {
	set, err := q.validate()
	if err != nil {
		return nil, err
	}
	resolved, err := snap.ResolvePaths(q.Paths, false)
	if err != nil {
		return nil, err
	}
	hasDirectory := false
	for _, t := range resolved.Targets {
		hasDirectory = hasDirectory || t.IsDir || t.Glob != ""
	}
	set.resolve(hasDirectory)
	walked, err := snap.Walk(ctx, resolved.Targets, workspace.WalkOptions{Globs: q.Globs, Gitignore: set.gitignore, Hidden: set.hidden})
	if err != nil {
		return nil, err
	}
	res := &Result{Files: []File{}, Warnings: append(append([]string{}, missingWarnings(resolved.Missing)...), resolved.Warnings...),
		MissingPaths: resolved.Missing}
	if res.MissingPaths == nil {
		res.MissingPaths = []string{}
	}
	var files []workspace.File
	for _, f := range walked {
		if l := lang.ForPath(f.Rel); l != nil && SpecFor(l.Name) != nil && (set.lang == nil || set.lang == l) {
			files = append(files, f)
		} else if f.Named && l == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: structls does not know its language from its name, so it has no outline", f.Rel))
		} else if f.Named && set.lang == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %s has no outline (see the README for the languages that have one)", f.Rel, l.Name))
		}
	}
	res.FilesSearched = len(files)
	cache.StartQuery()
	outlines, warnings := outlineAll(ctx, snap, files, enc, progress, cache, set.selects, func(entries []Entry) []Entry {
		return set.filter(entries, q.PubMembers)
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	res.Warnings = append(res.Warnings, warnings...)
	for _, f := range outlines {
		if f == nil {
			continue
		}
		if len(f.Items) > 0 || len(files) == 1 {
			res.Files = append(res.Files, *f)
		}
	}
	res.page(q.Skip, set.limit)
	for _, f := range res.Files {
		res.ItemCount += len(f.Items)
	}
	if set.text {
		res.Text = Render(res.Files, set.view, hasDirectory)
	}
	if q.TextOnly {
		res.Files = []File{}
	}
	return res, nil
}

// page keeps the files of one page.
func (r *Result) page(skip, limit int) {
	if skip >= len(r.Files) {
		r.Files = []File{}
		return
	}
	r.Files = r.Files[skip:]
	if limit > 0 && len(r.Files) > limit {
		r.Files = r.Files[:limit]
		r.LimitReached = true
		r.NextSkip = skip + limit
	}
}

// outlineAll extracts the files on GOMAXPROCS workers, keeping the entries
// selected accepts (seeing each before its signature and members are made)
// and then keep keeps; the outlines are in the files' order, nil for a file
// that could not be read or parsed (a warning says why).
func outlineAll(ctx context.Context, snap *workspace.Snapshot, files []workspace.File, enc workspace.Encoding,
	progress ProgressFunc, cache *syntax.Cache, selected func(*Entry) bool, keep func([]Entry) []Entry) ([]*File, []string) {
	out := make([]*File, len(files))
	problems := make([]string, len(files))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var scratches syntax.Scratches // kept from file to file, given back when the outline ends
	defer scratches.Release()
	for range min(workers.Count(), max(1, len(files))) {
		wg.Go(func() {
			w := &outliner{snap: snap, enc: enc, cache: cache, selected: selected, keep: keep, scratch: scratches.New()}
			for i := int(next.Add(1)) - 1; i < len(files) && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				out[i], problems[i] = w.outline(ctx, files[i])
				if progress != nil {
					progress(int(done.Add(1)), len(files))
				}
			}
		})
	}
	wg.Wait()
	var warnings []string
	for _, p := range problems {
		if p != "" {
			warnings = append(warnings, p)
		}
	}
	return out, warnings
}

// outliner is one worker of outlineAll. What it reuses from file to file
// — the read buffer, the parse scratch whose arena pages stay touched, the
// line table — makes a file cost no allocation beyond what it keeps.
type outliner struct {
	snap  *workspace.Snapshot
	enc   workspace.Encoding
	cache *syntax.Cache
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
// warning saying why.
func (w *outliner) outline(ctx context.Context, f workspace.File) (*File, string) {
	l := lang.ForPath(f.Rel)
	content, err := w.snap.ReadFile(f, w.buf[:0])
	if err != nil {
		switch {
		case errors.Is(err, workspace.ErrTooLarge):
			return nil, fmt.Sprintf("%s: %v (raise the maxFileSize setting to outline it)", f.Rel, err)
		case errors.Is(err, workspace.ErrBinary):
			return nil, "" // binary files are skipped silently, as by every search
		}
		return nil, fmt.Sprintf("%s: cannot read it: %v (check that it exists and is readable)", f.Rel, err)
	}
	if f.Doc == nil {
		w.buf = content // an open document's text is the editor's: never a buffer to reuse
	}
	entries, err := extract(ctx, l, content, w.cache, w.scratch, w.selected)
	if err != nil {
		return nil, fmt.Sprintf("%s: cannot parse it as %s: %v", f.Rel, l.Name, err)
	}
	w.mapper.Reset(content)
	items := Items(w.keep(entries), &w.mapper, w.enc)
	return &File{Path: f.Rel, URI: f.URI(), Language: l.Name, Items: items}, ""
}

// ExtractSource parses content as l and extracts its outline. With a cache
// that keeps trees, the whole tree is parsed through it, for the queries
// that follow; without one, the tree is parsed for the outline alone, pruned
// of the language's opaque kinds.
func ExtractSource(ctx context.Context, l *lang.Language, content []byte, cache *syntax.Cache) ([]Entry, error) {
	var scratch syntax.Scratch // one file's: given back at once
	defer scratch.Release()
	return extract(ctx, l, content, cache, &scratch, nil)
}

// extract is ExtractSource with the scratch a pruned parse writes into
// (reused by the caller's next file: Extract copies what it keeps), keeping
// the top-level entries selected accepts (nil: all).
func extract(ctx context.Context, l *lang.Language, content []byte, cache *syntax.Cache, scratch *syntax.Scratch,
	selected func(*Entry) bool) ([]Entry, error) {
	spec := SpecFor(l.Name)
	if spec == nil || l.Grammar() == nil {
		return nil, nil
	}
	var skip []uint32
	if spec.Skip != nil && !cache.Enabled() { // a cached tree is whole, for the queries that follow
		skip = spec.Skip(content, nil)
	}
	tree, err := cache.ParseWith(ctx, l.Grammar(), content, spec.opaqueKinds(l.Grammar()), skip, scratch)
	if err != nil {
		return nil, err
	}
	return extractSelected(tree, spec, selected), nil
}
