package workspace

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Scan walks the targets and hands each file kept by keep (nil keeps all)
// to GOMAXPROCS workers as soon as the walk finds it, so reading and
// searching overlap the walk. newWorker is called once per worker and
// returns that worker's visit function (so each can own its buffers).
// progress, when set, is told how many files are done of those found so
// far. Scan returns the number of files found; after ctx ends, remaining
// files are passed over and the walk's error is ctx.Err().
func (s *Snapshot) Scan(ctx context.Context, targets []Target, opts WalkOptions, keep func(File) bool,
	newWorker func() func(File), progress func(done, total int)) (int, error) {
	files := make(chan File, 256)
	var found, done atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		visit := newWorker()
		wg.Go(func() {
			for f := range files {
				if ctx.Err() != nil {
					continue // drain
				}
				visit(f)
				if progress != nil {
					progress(int(done.Add(1)), int(found.Load()))
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
	close(files)
	wg.Wait()
	return int(found.Load()), err
}
