package docs

import (
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// module is the import path of this repository's module.
const module = "github.com/structls/structls"

// codeSpan is the text of one `code span`.
var codeSpan = regexp.MustCompile("`([^`]+)`")

// TestImportTable: the import table of design.md ("Packages and layering")
// lists each package of the module with exactly the packages of the module
// it imports, and the layout block above it names every package: a change
// of the layering that the manual does not follow fails here. The benchmark
// programs, the packages of tests only and third_party/ are left out, as the
// table says; so are packages that import nothing of the module.
func TestImportTable(t *testing.T) {
	data, err := os.ReadFile("design.md")
	if err != nil {
		t.Fatal(err)
	}
	layout, table := layeringSection(t, string(data))
	want := moduleImports(t, "..")
	for pkg, imports := range want {
		if !strings.HasPrefix(pkg, "internal/") && !regexp.MustCompile(`(^|\s)`+regexp.QuoteMeta(pkg)+`[/\s]`).MatchString(layout) {
			t.Errorf("the layout block of design.md does not name package %s", pkg)
		}
		if len(imports) == 0 {
			continue
		}
		got, ok := table[pkg]
		switch {
		case !ok:
			t.Errorf("design.md's import table has no row for %s; its imports: %s", pkg, strings.Join(imports, ", "))
		case !slices.Equal(sorted(got), imports):
			t.Errorf("design.md's import table gives %s the imports %s; go list gives %s", pkg, strings.Join(sorted(got), ", "), strings.Join(imports, ", "))
		}
	}
	for pkg := range table {
		if imports, ok := want[pkg]; !ok || len(imports) == 0 {
			t.Errorf("design.md's import table has a row for %s, which is no package importing any other of the module", pkg)
		}
	}
}

// layeringSection returns the layout block and the import table (package →
// imports, in the order written) of design.md's "Packages and layering".
func layeringSection(t *testing.T, doc string) (layout string, table map[string][]string) {
	t.Helper()
	_, section, ok := strings.Cut(doc, "\n## Packages and layering\n")
	if !ok {
		t.Fatal(`design.md has no section "Packages and layering"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	parts := strings.SplitN(section, "```", 3)
	if len(parts) < 3 {
		t.Fatal(`"Packages and layering" has no layout block`)
	}
	layout = parts[1]
	table = map[string][]string{}
	for _, line := range strings.Split(parts[2], "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		pkg := codeSpan.FindStringSubmatch(cells[1])
		var imports []string
		for _, m := range codeSpan.FindAllStringSubmatch(cells[2], -1) {
			imports = append(imports, m[1])
		}
		table[pkg[1]] = imports
	}
	if len(table) == 0 {
		t.Fatal(`"Packages and layering" has no import table`)
	}
	return layout, table
}

// moduleImports returns, for each package of the module below root (but
// the benchmark programs, third_party/ and the packages of tests only), the
// packages of the module its non-test files import, sorted, relative to the
// module path.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		name := d.Name()
		if rel != "." && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "node_modules" ||
			rel == "bench" || rel == "third_party" || rel == "editors") {
			return filepath.SkipDir
		}
		pkg, err := build.Default.ImportDir(path, 0)
		var noGo *build.NoGoError
		switch {
		case errors.As(err, &noGo):
			return nil // no package here
		case err != nil:
			return err
		case len(pkg.GoFiles)+len(pkg.CgoFiles) == 0:
			return nil // a package of tests only
		}
		var imports []string
		for _, imp := range pkg.Imports {
			if p, ok := strings.CutPrefix(imp, module+"/"); ok {
				imports = append(imports, p)
			}
		}
		out[rel] = sorted(imports)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("found %d packages below %s; want the module's", len(out), root)
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
