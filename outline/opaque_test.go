package outline

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestOpaqueKindsChangeNothing holds every language's Opaque list to its
// promise: the outline of a tree pruned of those kinds' insides equals the
// outline of the whole tree, on the language's checked-in sample and, for
// Go, on the standard-library sample of the differential test; and on the
// folders STRUCTLS_OUTLINE_OPAQUE_DIRS lists (colon-separated), for a wider
// check by hand. It holds Skip to the same promise: the outline of the tree
// parsed without the text Skip finds equals the whole tree's too, for every
// file that parses without error (in one whose bodies do not parse, a
// declaration may end where its braces close rather than where the
// parser's error recovery ends it).
func TestOpaqueKindsChangeNothing(t *testing.T) {
	files := map[string][]string{} // language → files
	add := func(path string) {
		if l := lang.ForPath(path); l != nil && SpecFor(l.Name) != nil && len(SpecFor(l.Name).Opaque) > 0 {
			files[l.Name] = append(files[l.Name], path)
		}
	}
	walk := func(dir string) {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				add(path)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk("testdata/samples")
	for _, d := range goStdlibSample {
		walk(filepath.Join(runtime.GOROOT(), "src", d))
	}
	for _, d := range filepath.SplitList(os.Getenv("STRUCTLS_OUTLINE_OPAQUE_DIRS")) {
		walk(d)
	}
	for _, name := range Languages() {
		if len(SpecFor(name).Opaque) > 0 && len(files[name]) == 0 {
			t.Errorf("%s has opaque kinds but no sample to hold them to", name)
		}
	}
	var scratch syntax.Scratch
	skippedFiles := 0
	defer func() { t.Logf("%d files parsed without their skipped text", skippedFiles) }()
	for name, paths := range files {
		l, err := lang.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		spec := SpecFor(name)
		for _, path := range paths {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			whole, err := syntax.Parse(context.Background(), l.Grammar(), src)
			if err != nil {
				t.Fatal(err)
			}
			pruned, err := syntax.ParsePruned(context.Background(), l.Grammar(), src, spec.opaqueKinds(l.Grammar()), nil, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			want := Extract(whole, spec)
			if got := Extract(pruned, spec); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: the outline of the pruned tree differs from the whole tree's (%d entries, want %d)", path, len(got), len(want))
			}
			if spec.Skip == nil {
				continue
			}
			skip := spec.Skip(src, nil)
			skipped, err := syntax.ParsePruned(context.Background(), l.Grammar(), src, spec.opaqueKinds(l.Grammar()), skip, &scratch)
			if err != nil {
				t.Fatal(err)
			}
			skippedFiles++
			if got := Extract(skipped, spec); !reflect.DeepEqual(got, want) && !whole.HasError() {
				t.Errorf("%s: the outline of the tree parsed without %d skipped ranges differs from the whole tree's (%d entries, want %d)", path, len(skip)/2, len(got), len(want))
			}
		}
	}
}
