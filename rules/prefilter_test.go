package rules

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
)

// TestRuleTextPrefilter: a file is checked for a rule only when it meets
// the rule's required conditions, which include the literals of a regex
// the rule requires (not only its patterns'); a regex under any or not, or
// one folding case, requires nothing.
func TestRuleTextPrefilter(t *testing.T) {
	tests := []struct {
		name, rule, content string
		want                bool
	}{
		{"regex literal absent", `{kind: comment, regex: '\b(TODO|FIXME)\b'}`, "package p // nothing\n", false},
		{"regex literal present", `{kind: comment, regex: '\b(TODO|FIXME)\b'}`, "package p // FIXME\n", true},
		{"regex in all", `{all: [{kind: comment}, {regex: 'TODO'}]}`, "package p\n", false},
		{"regex and pattern", `{pattern: 'panic($A)', regex: 'boom'}`, "package p\nfunc f() { panic(1) }\n", false},
		{"regex under any", `{any: [{kind: comment, regex: 'TODO'}, {kind: goto_statement}]}`, "package p\n", true},
		{"regex under not", `{kind: comment, not: {regex: 'TODO'}}`, "package p // x\n", true},
		{"regex folding case", `{kind: comment, regex: '(?i)todo'}`, "package p // ToDo\n", true},
		{"pattern literal absent", `{pattern: 'panic($A)'}`, "package p\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			set, err := ParseRules("t.yml", []byte("id: r\nlanguage: go\nrule: "+tt.rule+"\n"), Options{BaseDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			if got := set.Rules[0].mayMatch([]byte(tt.content)); got != tt.want {
				t.Errorf("mayMatch(%q) = %v, want %v", tt.content, got, tt.want)
			}
		})
	}
}

// TestRegexRulePrefilter: a regex rule tried node by node finds exactly
// what the regex alone finds, whether or not a node's text holds the
// regex's literals (the check that skips the regex on text lacking them).
func TestRegexRulePrefilter(t *testing.T) {
	long := "/* " + strings.Repeat("long ", 60) + "TODO */" // longer than maxPrefilteredText
	src := "package p\n\n// TODO: a\n// todo: not a match (case)\n// TODOS: not a word\n/* FIXME\n   spans lines */\n// XXX\nvar x = 1 // plain\n" + long + "\n/* " + strings.Repeat("long ", 60) + "*/\n"
	tests := []struct {
		name, regex string
		want        []string
	}{
		{"alternation with word boundaries", `\b(TODO|FIXME|XXX)\b`, []string{"// TODO: a", "/* FIXME\n   spans lines */", "// XXX", long}},
		{"folding case, no literals required", `(?i)\btodo\b`, []string{"// TODO: a", "// todo: not a match (case)", long}},
		{"anchored literal", `^// XXX$`, []string{"// XXX"}},
		{"no literal", `^/\*`, []string{"/* FIXME\n   spans lines */", long, "/* " + strings.Repeat("long ", 60) + "*/"}},
	}
	l, _ := lang.Lookup("go")
	tree, err := syntax.Parse(context.Background(), l.Grammar(), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rule := "id: r\nlanguage: go\nmessage: m\nrule: {kind: comment, regex: '" + tt.regex + "'}\n"
			set, err := ParseRules("t.yml", []byte(rule), Options{BaseDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			findings, err := set.Check(context.Background(), "p.go", l, tree)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range findings {
				got = append(got, src[f.Start:f.End])
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRuleSetMayMatch: a file is parsed when some rule of its language that
// runs on it (files/ignores) may match its text; a rule needing no text
// answers at once, but not for a file it does not run on.
func TestRuleSetMayMatch(t *testing.T) {
	const textFree = "id: ifs\nlanguage: go\nrule: {kind: if_statement}\nfiles: ['keep/**']\n---\n"
	const needsPanic = "id: panics\nlanguage: go\nrule: {pattern: 'panic($A)'}\n---\n"
	const python = "id: py\nlanguage: python\nrule: {kind: if_statement}\n"
	tests := []struct {
		name, rules, path, content string
		want                       bool
	}{
		{"text-free rule runs here", textFree + needsPanic + python, "keep/a.go", "package p\n", true},
		{"text-free rule does not run here, text lacks the literal", textFree + needsPanic + python, "other/a.go", "package p\n", false},
		{"text-free rule does not run here, text holds the literal", textFree + needsPanic + python, "other/a.go", "package p\nfunc f() { panic(1) }\n", true},
		{"only another language's rule needs no text", needsPanic + python, "a.go", "package p\n", false},
	}
	l, _ := lang.Lookup("go")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			set, err := ParseRules("t.yml", []byte(tt.rules), Options{BaseDir: base})
			if err != nil {
				t.Fatal(err)
			}
			if got := set.mayMatch(l, filepath.Join(base, tt.path), []byte(tt.content)); got != tt.want {
				t.Errorf("mayMatch(%s, %q) = %v, want %v", tt.path, tt.content, got, tt.want)
			}
		})
	}
}
