package workspace

import (
	"sync"

	"github.com/structls/structls/internal/workers"
)

// The walk lists directories in parallel, as ripgrep and ast-grep do: a
// directory costs a handful of system calls (open beneath the root, statfs,
// getdents, close) and nothing else, so on a tree of thousands of
// directories one goroutine listing them alone kept a core idle while the
// work on the files waited for the list (an outline of typeorm, 2,010
// directories). Goroutines take directories from a shared stack, push the
// directories each listing finds, and hand the files it keeps to the
// calling goroutine, which alone calls emit: so the order files arrive in
// is not the walk's order any more, and every caller that needs one sorts
// (SortFiles), as it did already.

// dirTask is one directory for the walk to list: its absolute and
// folder-relative (slash) path, its depth below the target, and the ignore
// files that apply inside it (its parents').
type dirTask struct {
	abs, rel string
	depth    int
	ignores  *ignoreChain
}

// walkedFile is one file a listing keeps.
type walkedFile struct {
	abs, rel string
	local    bool
}

// walkDirs walks the directory top and everything below it that the rules
// keep, listing directories on workers.Count() goroutines, and calls emit
// from the calling goroutine for every file kept, a directory's files at a
// time. Once the walk's context ends, nothing more is listed or emitted, and
// walkDirs returns its error.
func (w *walker) walkDirs(top dirTask, emit func(abs, rel string, local bool)) error {
	var (
		mu      sync.Mutex
		more    = sync.NewCond(&mu) // a directory was pushed, or the walk is over
		stack   = []dirTask{top}
		pending = 1 // directories pushed and not yet listed to the end
	)
	found := make(chan []walkedFile, 64)
	var wg sync.WaitGroup
	for range workers.Count() {
		wg.Go(func() {
			buf := make([]byte, direntBufSize)
			for {
				mu.Lock()
				for len(stack) == 0 && pending > 0 {
					more.Wait()
				}
				if pending == 0 {
					mu.Unlock()
					return
				}
				t := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				mu.Unlock()

				files, dirs := w.dir(t, buf)
				if len(files) > 0 {
					found <- files
				}

				mu.Lock()
				// Pushed last first, so the next taken is the first by name:
				// the walk stays depth-first, near the directories just read.
				for i := len(dirs) - 1; i >= 0; i-- {
					stack = append(stack, dirs[i])
				}
				pending += len(dirs) - 1
				if len(dirs) > 0 || pending == 0 {
					more.Broadcast()
				}
				mu.Unlock()
			}
		})
	}
	go func() {
		wg.Wait()
		close(found)
	}()
	for files := range found {
		for _, f := range files {
			if w.ctx.Err() != nil {
				break // drained, no more emitted: the walk is being stopped
			}
			emit(f.abs, f.rel, f.local)
		}
	}
	if w.failure.err != nil { // set before the goroutines that listed the directories ended
		return w.failure.err
	}
	return w.ctx.Err()
}
