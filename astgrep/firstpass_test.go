package astgrep

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/internal/workers"
)

// TestPagesFollowPathOrder: matches come in path order whatever order the
// walk finds the files in (it lists a directory's entries by name, so it
// finds a/x.go, then a-b.go, then a.go; "-" < "." < "/" puts them the other
// way round), both when the first pass builds every match and when it only
// counts them and a page is built after.
func TestPagesFollowPathOrder(t *testing.T) {
	dir := testutil.WriteTree(t, `
-- a/x.go --
package a
func _() { f(3) }
-- a.go --
package a
func _() { f(2) }
-- a-b.go --
package a
func _() { f(1) }
`)
	for _, tc := range []struct {
		name        string
		skip, limit int
		want        []string
	}{
		{"all, built in the first pass", 0, 0, []string{"a-b.go f(1)", "a.go f(2)", "a/x.go f(3)"}},
		{"first page", 0, 2, []string{"a-b.go f(1)", "a.go f(2)"}},
		{"second page", 2, 2, []string{"a/x.go f(3)"}},
		{"middle", 1, 1, []string{"a.go f(2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := search(t, dir, Query{Pattern: "f($A)", Skip: tc.skip, Limit: intp(tc.limit)})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Matches {
				got = append(got, m.Path+" "+m.Text)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("matches (-want +got):\n%s", diff)
			}
			if res.MatchCount != 3 {
				t.Errorf("matchCount %d; want 3", res.MatchCount)
			}
		})
	}
}

// TestInOrderRunsAheadOfASlowFile: while one worker is held on the first
// file (as by a large file's parse), the other searches the 300 files
// after it instead of waiting for its result to be delivered, and every
// match still comes in order. With a window of 64 files this hangs (the
// generous deadline catches it).
func TestInOrderRunsAheadOfASlowFile(t *testing.T) {
	defer workers.SetCount(workers.SetCount(2)) // two workers, whatever the machine
	const others = 300
	var b strings.Builder
	for i := range others + 1 {
		fmt.Fprintf(&b, "-- f%03d.go --\npackage p\n\nfunc g() { f(%d) }\n", i, i)
	}
	dir := testutil.WriteTree(t, b.String())
	var release sync.WaitGroup
	release.Add(1)
	var searched atomic.Int64
	testHookInOrderFile = func(i int) {
		if i == 0 {
			release.Wait()
		} else if searched.Add(1) == others {
			release.Done()
		}
	}
	defer func() { testHookInOrderFile = nil }()
	done := make(chan *Result, 1)
	go func() {
		res, err := search(t, dir, Query{Pattern: "f($A)", Limit: intp(0)})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	select {
	case res := <-done:
		if res == nil || len(res.Matches) != others+1 || res.Matches[0].Text != "f(0)" || res.Matches[others].Text != fmt.Sprintf("f(%d)", others) {
			t.Fatalf("the matches are not the %d in order: %+v", others+1, res)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("only %d of the %d files after a slow one were searched while it was held; want all", searched.Load(), others)
	}
}
