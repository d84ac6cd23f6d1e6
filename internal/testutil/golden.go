package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// RunGolden runs every txtar fixture matching glob as a subtest. A
// fixture's files whose names start with "@" are its sections (the query,
// the expected "@want", …); the others form a workspace written to a new
// directory. run gets that directory and the sections and returns the
// result, which must equal "@want" — or, with update, replaces it in the
// fixture file.
func RunGolden(t *testing.T, glob string, update bool, run func(t *testing.T, dir string, sections map[string][]byte) []byte) {
	t.Helper()
	paths, _ := filepath.Glob(glob)
	if len(paths) == 0 {
		t.Fatalf("no fixtures match %s", glob)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sections := map[string][]byte{}
			var files []txtar.File
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "@") {
					sections[f.Name] = f.Data
				} else {
					files = append(files, f)
				}
			}
			dir := WriteTree(t, string(txtar.Format(&txtar.Archive{Files: files})))
			got := run(t, dir, sections)
			if update {
				for i, f := range ar.Files {
					if f.Name == "@want" {
						ar.Files[i].Data = got
					}
				}
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(sections["@want"]), string(got)); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}
