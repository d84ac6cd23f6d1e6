package grep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/readbuf"
	"github.com/structls/structls/workspace"
)

// Search runs a structls.search query over env's snapshot; it parses
// nothing, so env.Trees is not used. Positions are in env.Encoding. It
// returns a *workspace.InputError or *workspace.PathError for input the
// user must fix, and ctx.Err() when cancelled.
func Search(ctx context.Context, env engine.Env, q Query) (*Result, error) {
	return SearchStream(ctx, env, q, nil)
}

// SearchStream is Search that hands the matches of the page to emit in
// batches (emit must not keep a batch's slice, which the next batch
// reuses), in their final order, instead of returning them: the Result it
// returns has no matches (with format "text", the whole rendering, which
// is capped and decides which matches the page keeps). The files are
// scanned in parallel and sorted once all are, so their matches are kept
// until then; what streaming saves is the reply that held them all, in the
// server and in the client, a copy for each step of the way (200,000
// matching lines made a 700 MB CLI), and nothing is kept of a batch once
// emit returns. An error from emit (the client has gone) ends the search
// with that error. A nil emit is Search.
func SearchStream(ctx context.Context, env engine.Env, q Query, emit func(Batch) error) (*Result, error) {
	set, req, err := engine.Start(env, q.Scope, engine.LineRanges, q.validate)
	if err != nil {
		return nil, err
	}
	targets := req.Targets
	single := len(targets) == 1 && !targets[0].IsDir
	if set.perFileLimit < 0 {
		set.perFileLimit = DefaultPerFileLimit
		if single {
			set.perFileLimit = DefaultSingleFileLimit
		}
	}
	sc := &scanner{m: set.matcher, before: set.before, after: set.after, perFileLimit: set.perFileLimit, enc: env.Encoding}
	scans, searched, warnings, walkErr := scanAll(ctx, env.Snapshot, sc, targets, req.Walk, env.Progress)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if walkErr != nil {
		return nil, walkErr
	}
	var stream *batcher
	if emit != nil {
		stream = &batcher{emit: emit}
	}
	pageStream := stream
	if set.text {
		pageStream = nil // the rendering decides which matches the page keeps: they go out after it
	}
	res, err := page(scans, q.Skip, set.fileLimit, single, pageStream)
	if err != nil {
		return nil, err
	}
	res.FilesSearched = searched
	res.MissingPaths = req.Missing
	res.Warnings = slices.Concat(req.Warnings, warnings, req.SkippedWarnings())
	if set.text {
		res.Text = renderText(res, single, q.Skip)
		if stream != nil {
			for _, group := range GroupByFile(res.Matches) {
				if err := stream.add(group); err != nil {
					return nil, err
				}
			}
			res.Matches = []Match{}
		}
	}
	if stream != nil {
		if err := stream.flush(); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// scanAll walks the targets and scans the files as the walk finds them. It
// returns the scans of the files with a match, sorted by path, the number of
// files searched, the warnings about files skipped (too large; named in
// `paths` but unreadable), and the error that ended the walk, if any (an
// ignore file too large to read, the context's end).
func scanAll(ctx context.Context, snap *workspace.Snapshot, sc *scanner, targets []workspace.Target,
	walk workspace.WalkOptions, progress workspace.ProgressFunc) ([]fileScan, int, []string, error) {
	var mu sync.Mutex
	var hits []fileScan
	var tooLarge, unreadable []string
	var lent [][]byte // the workers' read buffers (readbuf), given back when the walk ends
	defer func() {
		for _, b := range lent {
			readbuf.Put(b)
		}
	}()
	found, walkErr := snap.WalkParallel(ctx, targets, walk, nil, func() func(workspace.File) {
		w := scratch{read: readbuf.Get()}
		mu.Lock()
		lent = append(lent, w.read)
		mu.Unlock()
		return func(f workspace.File) {
			content, err := snap.ReadFile(f, w.read)
			switch {
			case errors.Is(err, workspace.ErrTooLarge):
				mu.Lock()
				tooLarge = append(tooLarge, err.Error())
				mu.Unlock()
			case err == nil:
				if f.Doc == nil {
					w.read = content
				}
				if scan := sc.scan(ctx, f, content, &w); len(scan.matches) > 0 {
					scan.file = f
					mu.Lock()
					hits = append(hits, scan)
					mu.Unlock()
				}
			case f.Named && !errors.Is(err, workspace.ErrBinary):
				mu.Lock()
				unreadable = append(unreadable, fmt.Sprintf("skipped %s: %s (check that the file exists and is readable)",
					f.Rel, readFailure(err)))
				mu.Unlock()
			}
			// Binary files, and unreadable files found by walking, are skipped silently, as ripgrep does.
		}
	}, progress)
	slices.SortFunc(hits, func(a, b fileScan) int {
		if a.file.Folder != b.file.Folder {
			return a.file.Folder - b.file.Folder
		}
		return strings.Compare(a.file.Rel, b.file.Rel)
	})
	slices.Sort(tooLarge)
	slices.Sort(unreadable)
	return hits, found, append(sizeWarnings(tooLarge, snap.Settings.EffectiveMaxFileSize()), unreadable...), walkErr
}

// readFailure says why a file could not be read, without repeating its path.
func readFailure(err error) string {
	var pathErr *os.PathError
	if errors.As(err, &pathErr) {
		return fmt.Sprintf("cannot %s it: %v", pathErr.Op, pathErr.Err)
	}
	return err.Error()
}

func sizeWarnings(tooLarge []string, limit int64) []string {
	const shown = 20
	var out []string
	for i, w := range tooLarge {
		if i == shown {
			out = append(out, fmt.Sprintf("… and %d more files skipped for size", len(tooLarge)-shown))
			break
		}
		out = append(out, fmt.Sprintf("skipped %s (limit %d bytes; raise the maxFileSize setting to search it)", w, limit))
	}
	return out
}

// page selects the files of one page: files [skip, skip+limit) among those
// with a match, in path order. A single-file search has no pages. With
// stream set, their matches go to it, and the Result holds none; each
// file's matches are dropped once passed on.
func page(scans []fileScan, skip, limit int, single bool, stream *batcher) (*Result, error) {
	res := &Result{Matches: []Match{}, TotalFiles: len(scans)}
	if single {
		skip, limit = 0, 0
	}
	from := min(skip, len(scans))
	to := len(scans)
	if limit > 0 && from+limit < to {
		to = from + limit
		res.FileLimitReached = true
		next := to
		res.NextSkip = &next
	}
	if stream == nil {
		n := 0
		for _, s := range scans[from:to] {
			n += len(s.matches)
		}
		res.Matches = make([]Match, 0, n)
	}
	for i := from; i < to; i++ {
		s := &scans[i]
		res.FileCount++
		res.MatchCount += len(s.matches)
		res.PerFileLimitReached = res.PerFileLimitReached || s.capped
		res.LinesTruncated = res.LinesTruncated || s.truncated
		if stream == nil {
			res.Matches = append(res.Matches, s.matches...)
			continue
		}
		if err := stream.add(s.matches); err != nil {
			return nil, err
		}
		s.matches = nil
	}
	return res, nil
}

// batcher hands matches on in batches of about batchBytes of JSON, each
// file's matches whole in one batch, rather than a notification per file.
type batcher struct {
	emit  func(Batch) error
	batch []Match // its array is reused from batch to batch
	bytes int     // about the JSON of batch
}

// batchBytes is about how much JSON a streamed batch holds.
const batchBytes = 64 << 10

// add takes one file's matches, and emits the batch once it is full.
func (b *batcher) add(matches []Match) error {
	b.batch = append(b.batch, matches...)
	b.bytes += matchesSize(matches)
	if b.bytes < batchBytes {
		return nil
	}
	return b.flush()
}

// flush emits the matches not yet emitted, if any.
func (b *batcher) flush() error {
	if len(b.batch) == 0 {
		return nil
	}
	err := b.emit(Batch{Matches: b.batch})
	clear(b.batch) // the array keeps no match alive
	b.batch, b.bytes = b.batch[:0], 0
	return err
}
