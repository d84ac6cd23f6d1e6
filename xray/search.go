package xray

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/grep"
	"github.com/structls/structls/internal/inorder"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// candidate is a file the driver matched, with its hits (none in filename mode).
type candidate struct {
	file workspace.File
	hits []grep.Match
}

// Search runs a structls.xray query over env's snapshot: the driver picks
// the candidate files (phase 1), then the evaluator runs once per
// candidate, in parallel (phase 2). It returns a *workspace.InputError or
// *workspace.PathError for input the user must fix (a regex or evaluator
// that does not compile: then no file is evaluated), and ctx.Err() when
// cancelled. Positions are in env.Encoding; env's parse cache, when there
// is one, keeps the parsed trees.
func Search(ctx context.Context, env engine.Env, q Query) (*Result, error) {
	return SearchStream(ctx, env, q, nil)
}

// SearchStream is Search that hands the matches to emit in batches, in
// their final order, as the files are evaluated, and keeps none of them:
// the result it returns holds everything else (see Batch). A batch query
// (scans) does not stream: its matches are all in the result. When emit
// fails, the run stops and returns its error.
func SearchStream(ctx context.Context, env engine.Env, q Query, emit func(Batch) error) (*Result, error) {
	return search(ctx, env, q, DefaultLimits, emit)
}

func search(ctx context.Context, env engine.Env, q Query, limits Limits, emit func(Batch) error) (*Result, error) {
	res, _, err := searchSized(ctx, env, q, limits, emit)
	return res, err
}

// searchSized is search that also returns about the bytes of the result's
// output (output.go); a batch's result is not sized.
func searchSized(ctx context.Context, env engine.Env, q Query, limits Limits, emit func(Batch) error) (*Result, int, error) {
	if len(q.Scans) > 0 {
		// A batch's paths are its folders, one cell each (searchBatch):
		// here only the rest of the query is checked.
		set, _, err := engine.Start(env, workspace.Scope{Globs: q.Globs}, engine.PlainPaths, q.validate)
		if err != nil {
			return nil, 0, err
		}
		res, err := searchBatch(ctx, env, q, set, limits)
		return res, 0, err
	}
	set, req, err := engine.Start(env, q.Scope, q.paths(), q.validate)
	if err != nil {
		return nil, 0, err
	}
	ev, err := Compile(q.Evaluator, limits)
	if err != nil {
		return nil, 0, err
	}
	run, stop := context.WithTimeout(ctx, time.Duration(set.timeoutMs)*time.Millisecond)
	defer stop()
	res := emptyResult()
	candidates, warnings, err := driver(run, req, q, set)
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
	e := &evaluation{snap: env.Snapshot, ev: ev, enc: env.Encoding, trees: env.Trees, fileTimeout: time.Duration(set.fileTimeoutMs) * time.Millisecond,
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
		var buf []byte // the worker's read buffer: nothing of a file outlives its evaluation
		return func(i int) *fileResult {
			r := e.file(run, candidates[i], scratch, &buf)
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
	}, env.Progress)
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
func driver(ctx context.Context, req *engine.Request, q Query, set settings) ([]candidate, []string, error) {
	if set.filename {
		return filenameDriver(ctx, req, q)
	}
	return contentDriver(ctx, req, q)
}

// contentDriver searches file contents with package grep, every hit of
// every file (up to MaxMatchesPerFile a file).
func contentDriver(ctx context.Context, req *engine.Request, q Query) ([]candidate, []string, error) {
	unlimited, perFile, around := 0, MaxMatchesPerFile, q.ContextLines
	env := engine.Env{Snapshot: req.Snapshot, Encoding: workspace.UTF8}
	if progress := req.Progress; progress != nil {
		env.Progress = func(done, _ int) { progress(done, 0) }
	}
	found, err := grep.Search(ctx, env, grep.Query{Pattern: q.Driver, IgnoreCase: q.IgnoreCase, Multiline: q.Multiline,
		ContextBefore: &around, ContextAfter: &around, Scope: q.Scope, Limit: &unlimited, PerFileLimit: &perFile})
	if err != nil {
		return nil, nil, err
	}
	warnings := append(found.Warnings, req.MissingWarnings()...)
	if found.PerFileLimitReached {
		warnings = append(warnings, fmt.Sprintf("some files have more than %d driver hits; their match_positions hold the first %d", perFile, perFile))
	}
	byURI := map[string][]grep.Match{}
	for _, m := range found.Matches {
		byURI[m.URI] = append(byURI[m.URI], m)
	}
	var out []candidate
	_, err = walk(ctx, req, func(f workspace.File) {
		if hits, ok := byURI[f.URI()]; ok {
			out = append(out, candidate{file: f, hits: hits})
		}
	})
	return out, warnings, err // grep warned about the paths already
}

// filenameDriver matches the regex against each file's path relative to its folder.
func filenameDriver(ctx context.Context, req *engine.Request, q Query) ([]candidate, []string, error) {
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
	warnings, err := walk(ctx, req, func(f workspace.File) {
		if re.MatchString(f.Rel) {
			out = append(out, candidate{file: f})
		}
	})
	return out, append(warnings, req.SkippedWarnings()...), err // the content driver's come from grep
}

// walk visits the files of the query's paths and globs in folder and path
// order. It returns warnings about the paths: missing, or skipped.
func walk(ctx context.Context, req *engine.Request, visit func(workspace.File)) ([]string, error) {
	files, err := req.Snapshot.Walk(ctx, req.Targets, req.Walk)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		visit(f)
	}
	return append(req.MissingWarnings(), req.Warnings...), nil
}

// evaluation is phase 2: what the workers share.
type evaluation struct {
	snap        *workspace.Snapshot
	ev          *Evaluator
	enc         workspace.Encoding
	trees       parsecache.Trees
	fileTimeout time.Duration
	debugNodes  int // explore mode: the nodes of each match's kind tree; 0 = off
	prints      *printLog
}
