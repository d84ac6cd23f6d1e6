package outline

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/workspace"
)

// agItem is one top-level item of `ast-grep outline --json=stream`.
type agItem struct {
	Name       string `json:"name"`
	SymbolType string `json:"symbolType"`
	AstKind    string `json:"astKind"`
	Signature  string `json:"signature"`
	IsExported bool   `json:"isExported"`
	Range      struct {
		ByteOffset struct {
			Start int `json:"start"`
		} `json:"byteOffset"`
		Start struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
}

type agFile struct {
	Path  string   `json:"path"`
	Items []agItem `json:"items"`
}

// astGrepOutline runs the pinned ast-grep CLI's outline over paths and
// returns its items by absolute path.
func astGrepOutline(t *testing.T, paths ...string) map[string][]agItem {
	t.Helper()
	args := append([]string{"outline", "--items", "all", "--json=stream"}, paths...)
	out, err := exec.Command(testutil.AstGrep(t), args...).Output()
	if err != nil {
		t.Fatalf("ast-grep outline %v: %v", paths, err)
	}
	files := map[string][]agItem{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var f agFile
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("ast-grep outline printed %q: %v", sc.Text(), err)
		}
		abs, _ := filepath.Abs(f.Path)
		files[abs] = f.Items
	}
	return files
}

// key is what the differential compares: a top-level item's name, symbol
// type and 1-based start line.
type key struct {
	Name, SymbolType string
	Line             int
}

func (k key) String() string { return fmt.Sprintf("%s %s:%d", k.SymbolType, k.Name, k.Line) }

// agreement compares structls's and ast-grep's top-level items of one file
// after the documented differences (docs/ast-grep-differences.md) are
// applied by explain; it returns the unexplained differences.
func agreement(t *testing.T, language string, src []byte, ag []agItem, explain differences) []string {
	ours := outlineOf(t, language, src)
	theirs := map[key]bool{}
	for _, it := range ag {
		if k, keep := explain.theirs(it, src); keep {
			theirs[k] = true
		}
	}
	mine := map[key]bool{}
	for _, it := range explain.ours(ours) {
		mine[key{it.Name, it.SymbolType, it.Line()}] = true
	}
	var diff []string
	for k := range theirs {
		if !mine[k] {
			diff = append(diff, "only ast-grep: "+k.String())
		}
	}
	for k := range mine {
		if !theirs[k] {
			diff = append(diff, "only structls: "+k.String())
		}
	}
	sort.Strings(diff)
	return diff
}

// differences normalises each side for one language's documented differences.
type differences struct {
	theirs func(agItem, []byte) (key, bool) // nil: as printed
	ours   func([]Item) []Item              // nil: as extracted
}

func (d differences) withDefaults() differences {
	if d.theirs == nil {
		d.theirs = func(it agItem, _ []byte) (key, bool) {
			return key{it.Name, it.SymbolType, it.Range.Start.Line + 1}, true
		}
	}
	if d.ours == nil {
		d.ours = func(items []Item) []Item { return items }
	}
	return d
}

// goDifferences are Go's documented differences: ast-grep names a plain
// type a typeParameter, lists the blank identifier, lists only the first
// name of `var a, b = …`, only the first spec of a grouped `type (…)`, and
// no type alias (`type A = B`).
var goDifferences = differences{
	theirs: func(it agItem, src []byte) (key, bool) {
		k := key{it.Name, it.SymbolType, it.Range.Start.Line + 1}
		if k.SymbolType == "typeParameter" {
			k.SymbolType = "type"
		}
		if k.Name == "_" || (it.AstKind == "type_declaration" && groupedAt(src, it.Range.Start.Line)) {
			return k, false
		}
		return k, true
	},
	ours: func(items []Item) []Item {
		var out []Item
		seen := map[workspace.ByteRange]bool{}
		for _, it := range items {
			if (it.SymbolType == "constant" || it.SymbolType == "variable") &&
				(seen[it.ByteRange] || blankFirst.MatchString(it.Signature)) {
				continue // not the first name of its spec
			}
			seen[it.ByteRange] = true
			if it.AstKind == "type_alias" || (it.IsImport && strings.Contains(it.Name, `\`)) {
				continue // ast-grep has no rule for `type A = B`, nor an import path holding an escape
			}
			if (it.SymbolType == "struct" || it.SymbolType == "interface" || it.SymbolType == "type") && it.ByteRange.Start > 0 &&
				inGroup(it) {
				continue
			}
			out = append(out, it)
		}
		return out
	},
}

// blankFirst matches the signature of a spec whose first name is blank.
var blankFirst = regexp.MustCompile(`^(?:const |var )?_\s*,`)

// sourceLine returns 0-based line of src (ast-grep prints no signature
// when given a directory).
func sourceLine(src []byte, line int) string {
	lines := bytes.Split(src, []byte("\n"))
	if line >= len(lines) {
		return ""
	}
	return string(lines[line])
}

// groupedAt reports whether 0-based line of src opens a grouped declaration.
func groupedAt(src []byte, line int) bool {
	l := strings.TrimSpace(sourceLine(src, line))
	return strings.HasPrefix(l, "type") && strings.HasSuffix(strings.TrimSpace(strings.TrimPrefix(l, "type")), "(")
}

// inGroup reports whether a Go type spec sits in a grouped declaration:
// its signature then lacks the "type" keyword (see signature).
func inGroup(it Item) bool { return !strings.HasPrefix(it.Signature, "type ") }

// goStdlibSample is a spread of standard-library packages the
// differential runs on (the whole library, 7,700 files, with
// STRUCTLS_OUTLINE_FULL=1).
var goStdlibSample = []string{"go/ast", "net/http", "strings", "sort", "encoding/json", "runtime/debug", "sync/atomic", "iter", "cmp", "slices", "maps", "os/exec"}

func TestDifferentialGoStdlib(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src")
	var dirs []string
	if os.Getenv("STRUCTLS_OUTLINE_FULL") != "" {
		dirs = []string{root}
	} else {
		for _, d := range goStdlibSample {
			dirs = append(dirs, filepath.Join(root, d))
		}
	}
	compareWithAstGrep(t, dirs, map[string]differences{"go": goDifferences})
}

// compareWithAstGrep runs ast-grep's outline over dirs and checks every
// file of a language in explain agrees.
func compareWithAstGrep(t *testing.T, dirs []string, explain map[string]differences) {
	files := astGrepOutline(t, dirs...)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	compared, failures := 0, 0
	for _, p := range paths {
		l := lang.ForPath(p)
		if l == nil {
			continue
		}
		d, ok := explain[l.Name]
		if !ok {
			continue
		}
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if parsesWithErrors(t, l.Name, src) {
			continue // error recovery differs between grammar versions
		}
		compared++
		if diff := agreement(t, l.Name, src, files[p], d.withDefaults()); len(diff) > 0 {
			failures++
			if failures <= 20 {
				t.Errorf("%s: %d differences:\n  %s", p, len(diff), strings.Join(diff[:min(len(diff), 12)], "\n  "))
			}
		}
	}
	if compared == 0 {
		t.Fatalf("no file compared in %v", dirs)
	}
	t.Logf("%d files compared, %d disagree", compared, failures)
}

// dropOurs is a documented difference where structls lists what ast-grep
// does not: items whose astKind or signature the expressions match.
func dropOurs(astKind, signature string) func([]Item) []Item {
	kindRe, sigRe := regexp.MustCompile(astKind), regexp.MustCompile(signature)
	return func(items []Item) []Item {
		var out []Item
		for _, it := range items {
			if (astKind != "" && kindRe.MatchString(it.AstKind)) || (signature != "" && sigRe.MatchString(it.Signature)) {
				continue
			}
			out = append(out, it)
		}
		return out
	}
}

// retype is a documented difference in symbol types: ast-grep's type
// (by astKind and its type) is structls's other one. ast-grep's names also
// lose their quotes, as structls's do (a module named by a string).
func retype(rules map[[2]string]string) func(agItem, []byte) (key, bool) {
	return func(it agItem, src []byte) (key, bool) {
		k := key{strings.Trim(it.Name, "\"'`"), it.SymbolType, it.Range.Start.Line + 1}
		if to, ok := rules[[2]string{it.AstKind, it.SymbolType}]; ok {
			k.SymbolType = to
		}
		if it.SymbolType == "constant" && strings.Contains(sourceLine(src, it.Range.Start.Line), "=>") {
			k.SymbolType = "function" // a const holding an arrow function
		}
		return k, true
	}
}

// jsDifferences: ast-grep has no rule for abstract classes, generator
// functions, `var` declarations or TypeScript overload signatures; it
// keeps the quotes of module names, calls an exported const holding an
// arrow function a constant (an unexported one a function, as structls
// calls both), a type alias a struct and a namespace a module.
var jsDifferences = differences{
	ours: dropOurs(`^(abstract_class_declaration|generator_function_declaration|function_signature)$`, `^(export )?var `),
	theirs: retype(map[[2]string]string{
		{"type_alias_declaration", "struct"}: "type", {"export_statement", "struct"}: "type",
		{"internal_module", "module"}: "namespace", {"expression_statement", "module"}: "namespace",
	}),
}

// pythonDifferences: ast-grep names `import a as b` "a as b" (structls: the
// module, a), has no rule for `from __future__ import …`, and misses every
// parenthesised `from m import (a, b)`.
var pythonDifferences = differences{
	ours: func(items []Item) []Item {
		var out []Item
		for _, it := range dropOurs(`^future_import_statement$`, "")(items) {
			if it.AstKind != "import_from_statement" || !strings.Contains(it.Signature, "import (") {
				out = append(out, it)
			}
		}
		return out
	},
	theirs: func(it agItem, _ []byte) (key, bool) {
		name, _, _ := strings.Cut(it.Name, " as ")
		return key{name, it.SymbolType, it.Range.Start.Line + 1}, true
	},
}

// rustDifferences: ast-grep has no rule for `static mut`, type aliases,
// unions or macro_rules.
var rustDifferences = differences{ours: dropOurs(`^(type_item|union_item|macro_definition)$`, `^(pub(\(\w+\))? )?static mut `)}

// cDifferences: ast-grep has no rule for macros or typedefs, keeps the
// quotes and brackets of an include, and calls a function prototype
// (`int *make(void);`) a variable.
var cDifferences = differences{
	ours: dropOurs(`^(preproc_def|preproc_function_def|type_definition)$`, ""),
	theirs: func(it agItem, src []byte) (key, bool) {
		k := key{strings.Trim(it.Name, "<>\""), it.SymbolType, it.Range.Start.Line + 1}
		if it.AstKind == "declaration" && prototype.MatchString(sourceLine(src, it.Range.Start.Line)) {
			k.SymbolType = "function"
		}
		return k, true
	},
}

// prototype matches a line declaring a function without defining it.
var prototype = regexp.MustCompile(`^[^=]*\w\s*\([^=]*\)\s*;\s*$`)

// cppDifferences: as C, and ast-grep has no rule for namespaces, global
// variables, prototypes or using aliases, and lists declarations nested in
// a namespace as top-level items (structls: the namespace's members).
var cppDifferences = differences{
	ours: dropOurs(`^(preproc_def|preproc_function_def|type_definition|namespace_definition|alias_declaration|declaration)$`, ""),
	theirs: func(it agItem, src []byte) (key, bool) {
		k := key{strings.Trim(it.Name, "<>\""), it.SymbolType, it.Range.Start.Line + 1}
		return k, braceDepth(src[:it.Range.ByteOffset.Start]) == 0
	},
}

// braceDepth counts the braces left open in src (enough for the samples,
// which hold no braces in strings or comments).
func braceDepth(src []byte) int {
	return bytes.Count(src, []byte("{")) - bytes.Count(src, []byte("}"))
}

// flattenOurs replaces items of astKind by their members (C#'s namespace,
// whose types ast-grep lists as top-level items).
func flattenOurs(astKind string) func([]Item) []Item {
	return func(items []Item) []Item {
		var out []Item
		for _, it := range items {
			if it.AstKind == astKind {
				out = append(out, it.Members...)
			} else {
				out = append(out, it)
			}
		}
		return out
	}
}

// csharpDifferences: ast-grep lists a namespace's types as top-level items
// and not the namespace; it calls a record a struct, as structls does.
var csharpDifferences = differences{ours: flattenOurs("namespace_declaration")}

// kotlinDifferences: ast-grep names an aliased import after its alias
// (structls: the imported path) and has no rule for top-level properties or
// type aliases.
var kotlinDifferences = differences{
	ours: dropOurs(`^(property_declaration|type_alias)$`, ""),
	theirs: func(it agItem, src []byte) (key, bool) {
		k := key{it.Name, it.SymbolType, it.Range.Start.Line + 1}
		if m := aliasedImport.FindStringSubmatch(sourceLine(src, it.Range.Start.Line)); m != nil {
			k.Name = m[1]
		}
		return k, true
	},
}

var aliasedImport = regexp.MustCompile(`^import\s+([\w.]+)\s+as\s+\w+`)

// swiftDifferences: ast-grep calls an actor an object, lists the methods of
// an extension as top-level functions (and not the extension), and has no
// rule for top-level properties or type aliases.
var swiftDifferences = differences{
	ours: dropOurs(`^(property_declaration|typealias_declaration)$`, `^extension `),
	theirs: func(it agItem, src []byte) (key, bool) {
		k := key{it.Name, it.SymbolType, it.Range.Start.Line + 1}
		if strings.HasPrefix(strings.TrimSpace(sourceLine(src, it.Range.Start.Line)), "actor ") {
			k.SymbolType = "class"
		}
		return k, braceDepth(src[:it.Range.ByteOffset.Start]) == 0
	},
}

// rubyDifferences: ast-grep keeps the quotes of a required name and has no
// rule for require_relative or load, nor for top-level constants.
var rubyDifferences = differences{
	ours:   dropOurs(`^assignment$`, `^(require_relative|load)\b`),
	theirs: retype(nil),
}

// phpDifferences: ast-grep has no rule for namespaces or top-level
// constants, and calls a trait an interface.
var phpDifferences = differences{
	ours:   dropOurs(`^(namespace_definition|const_element)$`, ""),
	theirs: retype(map[[2]string]string{{"trait_declaration", "interface"}: "trait"}),
}

// markdownDifferences: ast-grep calls a heading a module.
var markdownDifferences = differences{
	theirs: retype(map[[2]string]string{{"atx_heading", "module"}: "heading", {"setext_heading", "module"}: "heading"}),
}

// sampleDifferences are the documented differences per language on the
// checked-in samples (docs/ast-grep-differences.md).
var sampleDifferences = map[string]differences{
	"go":         goDifferences,
	"python":     pythonDifferences,
	"rust":       rustDifferences,
	"java":       {},
	"c":          cDifferences,
	"cpp":        cppDifferences,
	"csharp":     csharpDifferences,
	"kotlin":     kotlinDifferences,
	"swift":      swiftDifferences,
	"ruby":       rubyDifferences,
	"php":        phpDifferences,
	"markdown":   markdownDifferences,
	"javascript": jsDifferences,
	"typescript": jsDifferences,
	"tsx":        jsDifferences,
}

// TestDifferentialSamples compares the checked-in sample of every language
// both tools outline.
func TestDifferentialSamples(t *testing.T) {
	dir, err := filepath.Abs("testdata/samples")
	if err != nil {
		t.Fatal(err)
	}
	compareWithAstGrep(t, []string{dir}, sampleDifferences)
}

// TestDifferentialCPython compares CPython's standard library where the
// machine has it (/usr/lib/python3.*; nothing is downloaded).
func TestDifferentialCPython(t *testing.T) {
	dirs, _ := filepath.Glob("/usr/lib/python3.[0-9]*")
	if len(dirs) == 0 {
		t.Skip("no CPython library under /usr/lib/python3.*")
	}
	compareWithAstGrep(t, dirs[:1], map[string]differences{"python": pythonDifferences})
}
