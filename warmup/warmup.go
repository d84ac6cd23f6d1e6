// Package warmup parses a workspace's files in the background into the parse
// cache, so that the first structural query a person makes after opening the
// editor finds its trees ready (issue 14). (The symbol index of
// workspace/symbol is another thing: outline.Index.)
//
// It is an engine like the others: it knows snapshots, languages and the
// parse cache (package parsecache), and nothing of the protocol nor of
// patterns. It lives neither in lsp/ (which only decodes, dispatches and
// maps positions) nor in workspace/ (which must not know languages or trees:
// the dependency runs the other way).
//
// Background work must never slow the foreground: one worker, on an OS
// thread of the lowest scheduling priority, that waits before each file
// while any request runs (Gate), abandons the parse in progress when one
// starts, and stops when the cache is full (it never pushes out a tree a
// query has used). It passes over, unread, the files whose trees a query
// has cached meanwhile (parsecache.FileTrees). Its result needs no
// invalidation: the cache is keyed by content, so a file that changes is
// simply a new key, parsed again by the next run (or by the next query,
// whichever comes first).
package warmup

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Options are the hooks of one run.
type Options struct {
	// Paths are the files to parse (absolute paths, below a folder's Path):
	// those of them that a walk of the folders finds. None means every file
	// the walk finds.
	Paths []string
	// Gate, when set, is waited on before each file (see Gate).
	Gate *Gate
	// Begin, when set, is called once the files are known, with their number.
	Begin func(files int)
	// Progress, when set, is called after each file with the files done.
	Progress func(done, total int)
}

// Result says what a run did.
type Result struct {
	Files  int  // files in a language of the catalogue that the run found
	Done   int  // of those, the files whose trees are now cached (or too large to cache)
	Known  int  // of Done, files a query had cached, unchanged since: passed over unread
	Full   bool // the run stopped because the cache was full
	Errors int  // files that could not be read or parsed (a query will report them)
}

// Run parses the files of the snapshot into the parse cache, one at a time
// on a low-priority thread of its own, recording each file's stamp with its
// tree (trees.Files), and returns when every file is cached or the cache is
// full, or with ctx's error when ctx ends.
func Run(ctx context.Context, snap *workspace.Snapshot, trees parsecache.Trees, opts Options) (Result, error) {
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		// The thread is never unlocked: it ends with the goroutine, and its
		// lowered priority with it.
		runtime.LockOSThread()
		lowerThreadPriority()
		res, err := run(ctx, snap, trees, opts)
		done <- outcome{res, err}
	}()
	o := <-done
	return o.res, o.err
}

func run(ctx context.Context, snap *workspace.Snapshot, trees parsecache.Trees, opts Options) (Result, error) {
	var res Result
	var files []workspace.File
	err := whenIdle(ctx, opts.Gate, func(ctx context.Context) (err error) {
		files, err = languageFiles(ctx, snap, opts.Paths)
		return err
	})
	if err != nil {
		return res, err
	}
	res.Files = len(files)
	if opts.Begin != nil {
		opts.Begin(len(files))
	}
	var buf []byte
	for i, f := range files {
		known, err := parseFile(ctx, snap, trees, opts.Gate, f, &buf)
		switch {
		case errors.Is(err, syntax.ErrCacheFull):
			res.Full = true
			return res, nil
		case ctx.Err() != nil:
			return res, ctx.Err()
		case err != nil:
			res.Errors++
		case known:
			res.Done++
			res.Known++
		default:
			res.Done++
		}
		if opts.Progress != nil {
			opts.Progress(i+1, len(files))
		}
	}
	return res, nil
}

// whenIdle runs work while no request runs. A request that starts
// interrupts it (cancels its context), and it runs again once the request
// has ended — then to its end: work is interrupted once at most, so an
// editor that sends a request at every cursor move cannot keep a large file
// from ever being parsed.
func whenIdle(ctx context.Context, gate *Gate, work func(context.Context) error) error {
	workCtx, release, err := gate.Wait(ctx, true)
	if err != nil {
		return err
	}
	err = work(workCtx)
	interrupted := workCtx.Err() != nil && ctx.Err() == nil
	release()
	if !interrupted {
		return err
	}
	workCtx, release, err = gate.Wait(ctx, false)
	if err != nil {
		return err
	}
	defer release()
	return work(workCtx)
}

// languageFiles walks every folder as a query with default options does and
// keeps the files in a language of the catalogue whose grammar is linked
// in, sorted; with paths, only
// those of them (absolute paths below a folder's Path). Changed files are
// looked up by a whole walk, not named: a file a query would not search (in
// node_modules, ignored by git) is not worth a tree, and only the walk knows.
func languageFiles(ctx context.Context, snap *workspace.Snapshot, paths []string) ([]workspace.File, error) {
	resolved, err := snap.ResolvePaths(nil, false)
	if err != nil {
		return nil, fmt.Errorf("finding the files to parse: %w", err)
	}
	only := map[string]bool{}
	for _, p := range paths {
		only[filepath.Clean(p)] = true
	}
	var files []workspace.File
	walk := workspace.WalkOptions{Gitignore: true, Hidden: true}
	err = snap.WalkFunc(ctx, resolved.Targets, walk, func(f workspace.File) {
		path := filepath.Join(snap.Folders[f.Folder].Path, filepath.FromSlash(f.Rel))
		if l := lang.ForPath(f.Rel); l != nil && l.Grammar() != nil && (len(paths) == 0 || only[path]) {
			files = append(files, f)
		}
	})
	workspace.SortFiles(files)
	return files, err
}

// parseFile reads one file and puts its tree into the cache while no
// request runs (see whenIdle), unless a query has cached its tree already
// and the file is unchanged since (FileTrees.Known): then it reports known,
// having read nothing. buf is the read buffer, reused from file to file.
func parseFile(ctx context.Context, snap *workspace.Snapshot, trees parsecache.Trees, gate *Gate, f workspace.File, buf *[]byte) (known bool, err error) {
	grammar := lang.ForPath(f.Rel).Grammar()
	err = whenIdle(ctx, gate, func(ctx context.Context) error {
		if known = trees.Files.Known(snap, f, grammar, trees.Cache); known {
			return nil
		}
		content, stamp, err := snap.ReadFileStamp(f, *buf)
		if err != nil {
			return err
		}
		if f.Doc == nil {
			*buf = content
		}
		if err := trees.Cache.Warm(ctx, grammar, content); err != nil {
			return err
		}
		trees.Files.Remember(f, stamp, grammar, content, trees.Cache)
		return nil
	})
	return known, err
}
