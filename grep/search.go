package grep

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/structls/structls/workspace"
)

// ProgressFunc is told how many of the candidate files are done; it is
// called from several goroutines and must be cheap (the caller throttles).
type ProgressFunc func(done, total int)

// Search runs a structls.search query over the snapshot. Positions are in
// enc. It returns an *InvalidQueryError or *workspace.PathError for input
// the user must fix, and ctx.Err() when cancelled.
func Search(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress ProgressFunc) (*Result, error) {
	set, err := q.validate()
	if err != nil {
		return nil, err
	}
	m, err := compile(q, set.multilineForce)
	if err != nil {
		return nil, err
	}
	targets, missing, err := snap.ResolvePaths(q.Paths, true)
	if err != nil {
		return nil, err
	}
	files, err := snap.Walk(ctx, targets, workspace.WalkOptions{Globs: q.Globs, Gitignore: set.gitignore, Hidden: set.hidden})
	if err != nil {
		return nil, err
	}
	single := len(targets) == 1 && !targets[0].IsDir
	if set.perFileLimit < 0 {
		set.perFileLimit = DefaultPerFileLimit
		if single {
			set.perFileLimit = DefaultSingleFileLimit
		}
	}
	sc := &scanner{m: m, before: set.before, after: set.after, perFileLimit: set.perFileLimit, enc: enc}
	scans, warnings := scanAll(ctx, snap, sc, files, progress)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res := page(scans, q.Skip, set.fileLimit, single)
	res.FilesSearched = len(files)
	res.MissingPaths = missing
	res.Warnings = warnings
	if set.text {
		res.Text = renderText(res, single)
	}
	return res, nil
}

// scanAll scans the files on GOMAXPROCS workers; scans[i] belongs to files[i].
func scanAll(ctx context.Context, snap *workspace.Snapshot, sc *scanner, files []workspace.File, progress ProgressFunc) ([]fileScan, []string) {
	scans := make([]fileScan, len(files))
	var next, done atomic.Int64
	var mu sync.Mutex
	var tooLarge []string
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(files), 1)) {
		wg.Go(func() {
			var lowerBuf []byte
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(files) {
					return
				}
				content, err := snap.ReadFile(files[i])
				switch {
				case errors.Is(err, workspace.ErrTooLarge):
					mu.Lock()
					tooLarge = append(tooLarge, err.Error())
					mu.Unlock()
				case err == nil:
					scans[i] = sc.scan(ctx, files[i], content, &lowerBuf)
				}
				// Binary and unreadable files are skipped silently, as ripgrep does.
				if progress != nil {
					progress(int(done.Add(1)), len(files))
				}
			}
		})
	}
	wg.Wait()
	return scans, sizeWarnings(tooLarge, snap.Settings.EffectiveMaxFileSize())
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
// with a match, in path order. A single-file search has no pages.
func page(scans []fileScan, skip, limit int, single bool) *Result {
	var matching []fileScan
	for _, s := range scans {
		if len(s.matches) > 0 {
			matching = append(matching, s)
		}
	}
	res := &Result{Matches: []Match{}, TotalFiles: len(matching)}
	if single {
		skip, limit = 0, 0
	}
	from := min(skip, len(matching))
	to := len(matching)
	if limit > 0 && from+limit < to {
		to = from + limit
		res.FileLimitReached = true
		next := to
		res.NextSkip = &next
	}
	for _, s := range matching[from:to] {
		res.Matches = append(res.Matches, s.matches...)
		res.FileCount++
		res.PerFileLimitReached = res.PerFileLimitReached || s.capped
		res.LinesTruncated = res.LinesTruncated || s.truncated
	}
	res.MatchCount = len(res.Matches)
	return res
}
