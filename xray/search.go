package xray

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/structls/structls/grep"
	"github.com/structls/structls/internal/inorder"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// candidate is a file the driver matched, with its hits (none in filename mode).
type candidate struct {
	file workspace.File
	hits []grep.Match
}

// Search runs a structls.xray query over the snapshot: the driver picks the
// candidate files (phase 1), then the evaluator runs once per candidate, in
// parallel (phase 2). It returns a *workspace.InputError or
// *workspace.PathError for input the user must fix (a regex or evaluator
// that does not compile: then no file is evaluated), and ctx.Err() when
// cancelled. Positions are in enc; cache, when not nil, keeps parsed trees.
func Search(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress workspace.ProgressFunc, cache *syntax.Cache) (*Result, error) {
	return SearchStream(ctx, snap, q, enc, progress, cache, nil)
}

// SearchStream is Search that hands the matches to emit in batches, in
// their final order, as the files are evaluated, and keeps none of them:
// the result it returns holds everything else (see Batch). A batch query
// (scans) does not stream: its matches are all in the result. When emit
// fails, the run stops and returns its error.
func SearchStream(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress workspace.ProgressFunc,
	cache *syntax.Cache, emit func(Batch) error) (*Result, error) {
	return search(ctx, snap, q, enc, progress, cache, DefaultLimits, emit)
}

func search(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress workspace.ProgressFunc,
	cache *syntax.Cache, limits Limits, emit func(Batch) error) (*Result, error) {
	res, _, err := searchSized(ctx, snap, q, enc, progress, cache, limits, emit)
	return res, err
}

// searchSized is search that also returns about the bytes of the result's
// output (output.go); a batch's result is not sized.
func searchSized(ctx context.Context, snap *workspace.Snapshot, q Query, enc workspace.Encoding, progress workspace.ProgressFunc,
	cache *syntax.Cache, limits Limits, emit func(Batch) error) (*Result, int, error) {
	set, err := q.validate()
	if err != nil {
		return nil, 0, err
	}
	if len(q.Scans) > 0 {
		res, err := searchBatch(ctx, snap, q, set, enc, progress, cache, limits)
		return res, 0, err
	}
	ev, err := Compile(q.Evaluator, limits)
	if err != nil {
		return nil, 0, err
	}
	run, stop := context.WithTimeout(ctx, time.Duration(set.timeoutMs)*time.Millisecond)
	defer stop()
	res := emptyResult()
	candidates, warnings, err := driver(run, snap, q, set, progress)
	if ctx.Err() != nil {
		res, err := res.stopped(ctx)
		return res, 0, err
	}
	if err != nil && run.Err() == nil {
		return nil, 0, err
	}
	res.Warnings = append(res.Warnings, warnings...)
	res.Candidates = len(candidates)
	if set.maxFiles > 0 && len(candidates) > set.maxFiles {
		candidates = candidates[:set.maxFiles]
		res.MaxFilesReached = true
	}
	cache.StartQuery()
	e := &evaluation{snap: snap, ev: ev, enc: enc, cache: cache, fileTimeout: time.Duration(set.fileTimeoutMs) * time.Millisecond,
		debugNodes: set.debugNodes, prints: newPrintLog(ctx)}
	c := &collector{res: res, emit: emit, text: set.text, limit: maxRunOutputKept, skip: q.Skip, page: newTextPage(q.Skip)}
	if emit != nil {
		c.limit = maxRunOutputStreamed
	}
	// A file whose evaluation the deadline or a stop cut short is not
	// delivered: inorder.Run checks ctx before each delivery.
	var scratches syntax.Scratches // kept from file to file, given back when the run ends
	defer scratches.Release()
	held, stopHeld := newFlight(run)
	defer stopHeld()
	err = inorder.RunWindow(run, len(candidates), evaluationWindow, func() func(int) *fileResult {
		scratch := scratches.New()
		return func(i int) *fileResult {
			r := e.file(run, candidates[i], scratch)
			held.acquire(i, r.size)
			return r
		}
	}, func(i int, r *fileResult) error {
		held.delivered(i, r.size)
		err := c.add(r)
		if err != nil {
			held.stop() // inorder waits for the workers: none may wait for room
		}
		return err
	}, progress)
	if err == nil || run.Err() != nil || errors.Is(err, errOutputLimit) {
		err = c.flush() // what was evaluated before a deadline, a stop or the output limit is kept
	}
	switch {
	case ctx.Err() != nil && !workspace.StoppedByUser(ctx):
		return nil, 0, ctx.Err()
	case err != nil:
		return nil, 0, err // emit failed: the client is gone
	}
	res.Timeout = errors.Is(run.Err(), context.DeadlineExceeded)
	res.Cancelled = workspace.StoppedByUser(ctx)
	res.OutputLimitReached = c.limited
	if c.limited {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the output reached its limit of %d MiB after %d of %d candidate files; the rest were left out: narrow the driver, paths or globs, or return fewer matches or smaller fields",
			c.limit>>20, res.FilesEvaluated, len(candidates)))
	}
	res.Partial = res.Timeout || res.MaxFilesReached || res.Cancelled || res.OutputLimitReached
	c.finish()
	return res, c.output, nil
}

// evaluationWindow is how many files the workers may evaluate ahead of
// the one delivered last. Wide, so that while one worker parses a large
// file the other goes on through the small ones after it (with 64, a
// timed build showed the workers waiting behind the largest files of the
// Go standard library for about a second in all, on a loaded machine); the
// results it holds are those of at most that many files, tens of KB each
// for a typical evaluator.
const evaluationWindow = 512

// stopped is the result of a run ctx ended before its evaluation began: r,
// marked cancelled, when the person stopped it (there is nothing to show
// yet, but a stop is not an error); else ctx's error.
func (r *Result) stopped(ctx context.Context) (*Result, error) {
	if !workspace.StoppedByUser(ctx) {
		return nil, ctx.Err()
	}
	r.Cancelled, r.Partial = true, true
	return r, nil
}

// emptyResult is a result with every list present (arrays, never null).
func emptyResult() *Result {
	return &Result{Matches: []Match{}, FileMetadata: []FileMetadata{}, EvaluationErrors: []EvaluationError{}, Warnings: []string{}}
}

// driver runs phase 1: the candidate files in folder and path order. It
// reports the files the content driver has searched with total 0 (no
// percentage: phase 2, the evaluation, is what takes the time), so a long
// first phase is not silent.
func driver(ctx context.Context, snap *workspace.Snapshot, q Query, set settings, progress workspace.ProgressFunc) ([]candidate, []string, error) {
	if set.filename {
		return filenameDriver(ctx, snap, q, set)
	}
	var searched workspace.ProgressFunc
	if progress != nil {
		searched = func(done, _ int) { progress(done, 0) }
	}
	return contentDriver(ctx, snap, q, set, searched)
}

// contentDriver searches file contents with package grep, every hit of
// every file (up to MaxMatchesPerFile a file).
func contentDriver(ctx context.Context, snap *workspace.Snapshot, q Query, set settings, progress workspace.ProgressFunc) ([]candidate, []string, error) {
	unlimited, perFile, around := 0, MaxMatchesPerFile, q.ContextLines
	found, err := grep.Search(ctx, snap, grep.Query{Pattern: q.Driver, IgnoreCase: q.IgnoreCase, Multiline: q.Multiline,
		ContextBefore: &around, ContextAfter: &around, Scope: q.Scope,
		Limit: &unlimited, PerFileLimit: &perFile}, workspace.UTF8, progress)
	if err != nil {
		return nil, nil, err
	}
	warnings := append(found.Warnings, missingWarnings(found.MissingPaths)...)
	if found.PerFileLimitReached {
		warnings = append(warnings, fmt.Sprintf("some files have more than %d driver hits; their match_positions hold the first %d", perFile, perFile))
	}
	byURI := map[string][]grep.Match{}
	for _, m := range found.Matches {
		byURI[m.URI] = append(byURI[m.URI], m)
	}
	var out []candidate
	_, err = walk(ctx, snap, q, set, func(f workspace.File) {
		if hits, ok := byURI[f.URI()]; ok {
			out = append(out, candidate{file: f, hits: hits})
		}
	})
	return out, warnings, err // grep warned about the paths already
}

// filenameDriver matches the regex against each file's path relative to its folder.
func filenameDriver(ctx context.Context, snap *workspace.Snapshot, q Query, set settings) ([]candidate, []string, error) {
	flags := ""
	if q.IgnoreCase {
		flags = "(?i)"
	}
	re, err := regexp.Compile(flags + q.Driver)
	if err != nil {
		return nil, nil, invalidf("invalid driver regex: %s (the syntax is RE2: no lookaround or backreferences)",
			strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	var out []candidate
	warnings, err := walk(ctx, snap, q, set, func(f workspace.File) {
		if re.MatchString(f.Rel) {
			out = append(out, candidate{file: f})
		}
	})
	return out, warnings, err
}

// walk visits the files of the query's paths and globs in folder and path
// order. It returns warnings about the paths: missing, or skipped.
func walk(ctx context.Context, snap *workspace.Snapshot, q Query, set settings, visit func(workspace.File)) ([]string, error) {
	resolved, err := snap.ResolvePaths(q.Paths, !set.filename) // a content driver takes file:10-20 line ranges, as structls.search does
	if err != nil {
		return nil, err
	}
	files, err := snap.Walk(ctx, resolved.Targets, q.WalkOptions())
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		visit(f)
	}
	return append(missingWarnings(resolved.Missing), resolved.Warnings...), nil
}

func missingWarnings(missing []string) []string {
	var out []string
	for _, m := range missing {
		out = append(out, fmt.Sprintf("path not found: %s (paths are relative to the first workspace folder)", m))
	}
	return out
}

// evaluation is phase 2: what the workers share.
type evaluation struct {
	snap        *workspace.Snapshot
	ev          *Evaluator
	enc         workspace.Encoding
	cache       *syntax.Cache
	fileTimeout time.Duration
	debugNodes  int // explore mode: the nodes of each match's kind tree; 0 = off
	prints      *printLog
}
