package astgrep

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/structls/structls/internal/inorder"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// run is the first pass over the files the targets name. When every match
// is returned (buildAll), the matches built here go to send in their final
// order as the files are done (runInOrder); otherwise the pass only counts
// them, and the files are searched while the walk still finds them
// (runUnordered), then sorted.
func (s *searcher) run(ctx context.Context, snap *workspace.Snapshot, targets []workspace.Target, walk workspace.WalkOptions,
	progress workspace.ProgressFunc, send func([]Match) error) (*scanned, error) {
	var out *scanned
	var err error
	if s.buildAll {
		out, err = s.runInOrder(ctx, snap, targets, walk, progress, send)
	} else {
		out, err = s.runUnordered(ctx, snap, targets, walk, progress)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out.issues, func(a, b matcher.ParseIssue) int { return strings.Compare(a.Path, b.Path) })
	slices.Sort(out.warnings)
	return out, nil
}

// searches says whether the first pass searches f: a file in the language
// asked for (any of the catalogue's without one), or named in `paths`.
func (s *searcher) searches(f workspace.File) bool {
	l := lang.ForPath(f.Rel)
	return l != nil && (s.only == nil || l == s.only) || (s.only != nil && f.Named)
}

// runInOrder lists the files first and sorts them into the order of the
// results, then searches them in parallel, taking their outcomes in that
// order: so the matches built here go to send as soon as the files before
// them are done.
func (s *searcher) runInOrder(ctx context.Context, snap *workspace.Snapshot, targets []workspace.Target, walk workspace.WalkOptions,
	progress workspace.ProgressFunc, send func([]Match) error) (*scanned, error) {
	var files []workspace.File
	err := snap.WalkFunc(ctx, targets, walk, func(f workspace.File) {
		if s.searches(f) {
			files = append(files, f)
		}
	})
	if err != nil {
		return nil, err
	}
	workspace.SortFiles(files)
	out := &scanned{searched: len(files)}
	var scratches syntax.Scratches // kept from file to file, given back when the pass ends
	defer scratches.Release()
	newWorker := func() func(int) fileOutcome {
		w := &worker{scratch: scratches.New()}
		return func(i int) fileOutcome {
			if testHookInOrderFile != nil {
				testHookInOrderFile(i)
			}
			var o fileOutcome
			o.hits, o.note = s.file(ctx, snap, files[i], files[i].Named, w)
			return o
		}
	}
	err = inorder.RunWindow(ctx, len(files), searchWindow, newWorker, func(_ int, o fileOutcome) error {
		matches := o.hits.matches
		o.hits.matches = nil
		out.add(o)
		if len(matches) == 0 {
			return nil
		}
		return send(matches)
	}, progress)
	return out, err
}

// searchWindow is how many files the workers of runInOrder may search
// ahead of the one delivered last. Wide, so that while one worker parses a
// large file (the Go standard library's largest, 3 MB, takes over a second)
// the others go on with the files after it instead of waiting: with 64, a
// fresh server's first query over the standard library took 5.0-5.3 s
// wall, with 512 4.7-4.9 s (the same CPU time), and 4096 gained nothing
// more. What waits for delivery is the matches of at most this many files.
const searchWindow = 512

// testHookInOrderFile, when a test sets it, is called by runInOrder's
// worker before it searches file i (in the results' order).
var testHookInOrderFile func(i int)

// runUnordered searches the files as the walk finds them (Snapshot.WalkParallel),
// in parallel, and sorts the files with matches at the end: the walk, a
// good part of a warm query, overlaps the search.
func (s *searcher) runUnordered(ctx context.Context, snap *workspace.Snapshot, targets []workspace.Target, walk workspace.WalkOptions,
	progress workspace.ProgressFunc) (*scanned, error) {
	out := &scanned{}
	var mu sync.Mutex
	var scratches syntax.Scratches // kept from file to file, given back when the pass ends
	defer scratches.Release()
	newWorker := func() func(workspace.File) {
		w := &worker{scratch: scratches.New()}
		return func(f workspace.File) {
			var o fileOutcome
			o.hits, o.note = s.file(ctx, snap, f, f.Named, w)
			mu.Lock()
			out.add(o)
			mu.Unlock()
		}
	}
	found, err := snap.WalkParallel(ctx, targets, walk, s.searches, newWorker, progress)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	out.searched = found
	slices.SortFunc(out.files, func(a, b fileHits) int { return workspace.CompareFiles(a.file, b.file) })
	return out, nil
}

// fileOutcome is what the first pass finds in one file.
type fileOutcome struct {
	hits fileHits
	note fileNote
}

// add records the outcome of one file (its matches, if any, already sent).
func (out *scanned) add(o fileOutcome) {
	switch {
	case o.note.issue != nil:
		out.issues = append(out.issues, *o.note.issue)
	case o.note.warning != "":
		out.warnings = append(out.warnings, o.note.warning)
	}
	if o.hits.count > 0 {
		out.files = append(out.files, o.hits)
	}
}
