package rules

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/internal/testutil"
)

// TestSnapshotWriting: `structls test --update-all` writes the snapshot
// file ast-grep 0.51.1 writes for test cases of every scalar style (plain,
// quoted because YAML would read a number, a boolean, null, a timestamp or
// a document marker, escapes, literal blocks with each chomping, long
// lines folded into many lines or quoted, explicit keys past 1,024
// characters), byte for byte.
func TestSnapshotWriting(t *testing.T) {
	bin := testutil.AstGrep(t)
	cases := []string{"a", "1", "true", "null", "~", "yes", "Off", "y", "0x1F", "0o7", "1_000", "1.5", ".inf", "1e3", "2001-12-14", "12:30", "=", "<<",
		"-a", "?a", ":a", "- a", "!a", "&a", "*a", "%a", "@a", "`a", "#a", "|a", ">a", "[a]", "{a}", "'a'", `"a"`, "a,b", "a: b", "a #b", "a:", "a\\b", "é",
		"a\u00a0b", "a\tb", "a\x07b", "a\x7fb", "a\u0085b", "a\r\nb", "a\nb", "a\nb\n", "a\n\n", "a\n\nb", "a\n  \nb", "a\n b", "a  \nb",
		strings.Repeat("x", 80), strings.Repeat("x", 81), strings.Repeat("x", 1024), strings.Repeat("x", 1025), strings.Repeat("x y ", 30) + "x",
		"x\n" + strings.Repeat("y", 1100)}
	cases = append(cases, foldingCases()...)
	cases = append(cases, ambiguousCases...)
	var test strings.Builder
	test.WriteString("id: any\ninvalid:\n")
	for _, c := range cases {
		test.WriteString("- " + strconv.QuoteToASCII(c) + "\n") // Go's escapes are YAML's too
	}
	tree := "-- sgconfig.yml --\nruleDirs: [rules]\ntestConfigs: [{testDir: tests}]\n-- rules/any.yml --\nid: any\nlanguage: javascript\nrule: {kind: program}\n"
	byAstGrep, byStructls := testutil.WriteTree(t, tree), testutil.WriteTree(t, tree)
	for _, dir := range []string{byAstGrep, byStructls} {
		if err := os.MkdirAll(filepath.Join(dir, "tests"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "tests", "any.yml"), []byte(test.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command(bin, "test", "-U", "-c", filepath.Join(byAstGrep, "sgconfig.yml")).CombinedOutput(); err != nil {
		t.Fatalf("ast-grep test -U: %v\n%s", err, out)
	}
	p, err := LoadProject(filepath.Join(byStructls, "sgconfig.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.RunTests(t.Context(), TestOptions{UpdateAll: true}); err != nil {
		t.Fatal(err)
	}
	theirs, _ := os.ReadFile(filepath.Join(byAstGrep, "tests", "__snapshots__", "any-snapshot.yml"))
	ours, _ := os.ReadFile(filepath.Join(byStructls, "tests", "__snapshots__", "any-snapshot.yml"))
	if diff := cmp.Diff(string(theirs), string(ours)); diff != "" {
		t.Errorf("snapshot files differ (-ast-grep +structls):\n%s", diff)
	}
}

// foldingCases are one-line values over 80 characters: words of uneven
// lengths folded into three lines and more, runs of spaces at the breaks,
// words longer than a line, characters past ASCII, trailing spaces, and
// values that must be quoted instead (an indicator first, ` #`, `: `, a
// tab, a `#` after a no-break space).
func foldingCases() []string {
	lengths := []int{2, 2, 14, 1, 8, 1, 13, 13, 5, 4, 5, 2, 13, 10, 3, 6, 5, 2, 3, 3, 5, 9, 3, 11, 5, 11, 12, 5, 8, 12, 6, 8, 8, 2, 1, 5, 7, 6, 7, 13, 4}
	words := func(sep string, from int) string {
		var out []string
		for i := range lengths {
			out = append(out, strings.Repeat(string(rune('a'+(i+from)%26)), lengths[(i+from)%len(lengths)]))
		}
		return strings.Join(out, sep)
	}
	long := strings.Repeat("L", 90)
	return []string{
		words(" ", 0), words(" ", 7), words(" ", 19), words("  ", 3), words(" ", 5) + "   " + words(" ", 11),
		words(" ", 2) + " ", words(" ", 4) + "   ",
		long + " " + words(" ", 1), "ab " + long + " " + words(" ", 6), words(" ", 8)[:70] + " " + long + " cd",
		strings.ReplaceAll(words(" ", 9), "b", "é"), strings.ReplaceAll(words(" ", 10), "c", "日本"),
		"a#b " + words(" ", 12), "[x] " + words(" ", 13), "a #b " + words(" ", 14), "a: b " + words(" ", 15),
		"- a " + words(" ", 16), words(" ", 17) + " x:", words("\t", 18), "a\u00a0#b " + words(" ", 20), "a:b " + words(" ", 21),
	}
}

// ambiguousCases are short values that YAML might read as something other
// than a string, or that look like it and are not.
var ambiguousCases = []string{"NaN", "nan", "+inf", "+nan", ".iNf", "infinity", "yEs", "oN", "nUll", "0X1F", "0B1", "0O7", "0x", "0x_", "_1", "_", "1e3_", "1e3.5",
	"_..", "1.2.3", "....", "+..", "12:30.5", "1:2_0", "_1:20", "1:60", "2001-1-1", "2001-12-14 a", "2001-12-14T21:59:43Z", "2001-12-14x",
	"---", "--- a", "----", "...", "... a", "...a", ".", "#", "-", "a:b", "a :b", "a:\u00a0", "a\u00a0#b", "a\u3000#b"}

// FuzzSnapshotReadsBack: whatever style a value and a key are written in
// (plain, quoted, literal, folded into many lines, explicit key), the
// snapshot file reads back as the strings written.
func FuzzSnapshotReadsBack(f *testing.F) {
	for _, s := range append(foldingCases(), ambiguousCases...) {
		f.Add(s)
	}
	f.Add("a\nb\n\n")
	f.Add(strings.Repeat("x ", 600))
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || s == "" {
			return // test cases come from YAML text: valid UTF-8, never empty
		}
		if strings.HasPrefix(s, "\t") || strings.HasSuffix(s, "<<") {
			t.Skip("the YAML library cannot read these back (docs/ast-grep-differences.md)")
		}
		label := map[string]any{"source": s, "style": "primary", "start": int64(0), "end": int64(len(s))}
		written := map[string]any{s: map[string]any{"fixed": s, "labels": []any{label}}}
		text := snapshotText("r", written)
		docs, err := parseYAML("r-snapshot.yml", text)
		if err != nil || len(docs) != 1 {
			t.Fatalf("the snapshot of %q does not read: %v\n%s", s, err, text)
		}
		read := docs[0].root.get("snapshots").toAnyOrNil()
		if !cmp.Equal(normalizeYAML(read), normalizeYAML(written)) {
			t.Fatalf("the snapshot of %q reads back differently:\n%s\n%s", s, cmp.Diff(normalizeYAML(written), normalizeYAML(read)), text)
		}
	})
}
