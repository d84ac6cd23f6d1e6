package workspace

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/structls/structls/internal/workers"
)

// WalkParallel walks the targets and hands each file kept by keep (nil keeps all)
// to GOMAXPROCS workers as soon as the walk finds it, so reading and
// searching overlap the walk. newWorker is called once per worker and
// returns that worker's visit function (so each can own its buffers).
// WalkParallel returns the number of files found; after ctx ends, remaining files
// are passed over and the walk's error is ctx.Err().
//
// progress, when set, is called after each file with the files done and
// the total: total is 0 ("not known yet") while the walk is still finding
// files, and the number of files found once it has finished, so a total
// never changes once given and a percentage computed from it never goes
// backwards. Calls come from several workers: done may arrive out of order.
// A last call reports (found, found) once every file is done.
func (s *Snapshot) WalkParallel(ctx context.Context, targets []Target, opts WalkOptions, keep func(File) bool,
	newWorker func() func(File), progress func(done, total int)) (int, error) {
	files := make(chan File, 256)
	var found, done atomic.Int64
	var walked atomic.Bool // the walk has finished: found is the total
	total := func() int {
		if walked.Load() {
			return int(found.Load())
		}
		return 0
	}
	var wg sync.WaitGroup
	for range workers.Count() {
		visit := newWorker()
		wg.Go(func() {
			for f := range files {
				if ctx.Err() != nil {
					continue // drain
				}
				visit(f)
				if progress != nil {
					progress(int(done.Add(1)), total())
				}
			}
		})
	}
	err := s.WalkFunc(ctx, targets, opts, func(f File) {
		if keep == nil || keep(f) {
			found.Add(1)
			files <- f
		}
	})
	walked.Store(true)
	close(files)
	wg.Wait()
	if progress != nil && ctx.Err() == nil {
		progress(int(found.Load()), int(found.Load()))
	}
	return int(found.Load()), err
}
