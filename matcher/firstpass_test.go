package matcher

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
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
