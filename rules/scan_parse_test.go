package rules

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// TestScanParsePaths: Scan without a parse cache (each worker parses into
// its own scratch, reused file after file) reports exactly what it reports
// with one (trees parsed and kept), byte for byte, in both orders.
func TestScanParsePaths(t *testing.T) {
	config, err := filepath.Abs("testdata/ruleset/sgconfig.yml")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(runtime.GOROOT(), "src", "net", "http", "internal"), "testdata/tscorpus"} {
		dir, _ = filepath.Abs(dir)
		if _, err := os.Stat(dir); err != nil {
			t.Logf("skipping %s: %v", dir, err)
			continue
		}
		folder, err := workspace.NewFolder(dir, "")
		if err != nil {
			t.Fatal(err)
		}
		snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
		scan := func(cache *syntax.Cache) string {
			res, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF16, Trees: parsecache.Trees{Cache: cache}}, Query{Config: config, Format: "text"})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Diagnostics) == 0 {
				t.Fatalf("%s: no diagnostics: the comparison would prove nothing", dir)
			}
			out, err := json.Marshal(res)
			if err != nil {
				t.Fatal(err)
			}
			return string(out)
		}
		without := scan(nil)
		cache := syntax.NewCache(64 << 20)
		with := scan(cache)
		again := scan(cache) // from the cache
		if diff := cmp.Diff(without, with); diff != "" {
			t.Errorf("%s: without a cache (-) and with one (+) differ:\n%s", dir, diff)
		}
		if again != with {
			t.Errorf("%s: the cached trees give a different result", dir)
		}
	}
}

// TestScanReleasesWorkerArenas: without a parse cache each worker parses
// into its own arena, kept from file to file; when the scan ends the
// arenas are given back, not held until a collection finds them dropped.
func TestScanReleasesWorkerArenas(t *testing.T) {
	dir := testutil.LargeGoDir(t, 5000)
	folder, err := workspace.NewFolder(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	snap := workspace.NewSnapshot([]workspace.Folder{folder}, workspace.Settings{}, nil)
	rule := "id: calls\nlanguage: go\nseverity: warning\nmessage: a call\nrule:\n  pattern: f($A, $B)\n"
	// No collection may run the dropped scratches' cleanups meanwhile: only
	// the release at the end of the run gives the arenas back.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := syntax.ArenaBytes()
	res, err := Scan(context.Background(), engine.Env{Snapshot: snap, Encoding: workspace.UTF8}, Query{Rules: rule})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 5000 {
		t.Fatalf("%d diagnostics; want 5000", len(res.Diagnostics))
	}
	if after := syntax.ArenaBytes(); after-before >= 8<<20 { // a kept arena holds 16 MiB here
		t.Errorf("the process's arenas hold %d bytes after the scan, %d before", after, before)
	}
}
