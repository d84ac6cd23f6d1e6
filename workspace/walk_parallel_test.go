package workspace

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestWalkParallelProgressTotalIsFinal checks the progress contract of WalkParallel: the
// total is 0 while the walk runs and the final count after, never a count
// that is still growing. The walk is held after its first file until that
// file's progress has been reported, so the first report always comes
// while the walk is unfinished.
func TestWalkParallelProgressTotalIsFinal(t *testing.T) {
	const n = 50
	var archive strings.Builder
	for i := range n {
		fmt.Fprintf(&archive, "-- f%02d.txt --\nx\n", i)
	}
	snap, _ := newTestSnapshot(t, archive.String(), Settings{})
	resolved, err := snap.ResolvePaths(nil, false)
	if err != nil {
		t.Fatal(err)
	}
	firstReported := make(chan struct{})
	var once sync.Once
	kept := 0
	keep := func(f File) bool {
		if !strings.HasSuffix(f.Rel, ".txt") {
			return false // bin.dat
		}
		if kept++; kept == 2 {
			<-firstReported
		}
		return true
	}
	var mu sync.Mutex
	type call struct{ done, total int }
	var calls []call
	progress := func(done, total int) {
		mu.Lock()
		calls = append(calls, call{done, total})
		mu.Unlock()
		once.Do(func() { close(firstReported) })
	}
	found, err := snap.WalkParallel(context.Background(), resolved.Targets, WalkOptions{Hidden: true}, keep,
		func() func(File) { return func(File) {} }, progress)
	if err != nil || found != n {
		t.Fatalf("WalkParallel = %d, %v; want %d files", found, err, n)
	}
	if calls[0].total != 0 {
		t.Errorf("first report %+v comes before the walk has finished; want total 0", calls[0])
	}
	for _, c := range calls {
		if c.total != 0 && c.total != n {
			t.Errorf("report %+v: a total must be 0 (unknown) or the final %d", c, n)
		}
	}
	if last := calls[len(calls)-1]; last != (call{n, n}) {
		t.Errorf("last report %+v; want {%d %d}", last, n, n)
	}
}
