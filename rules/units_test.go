package rules

import (
	"strings"
	"testing"
)

// TestParseNth: nthChild formulas as ast-grep reads them.
func TestParseNth(t *testing.T) {
	for _, tt := range []struct {
		in           string
		step, offset int
		bad          bool
	}{
		{"3", 0, 3, false}, {"2n+1", 2, 1, false}, {"-n+3", -1, 3, false}, {" 2N - 1 ", 2, -1, false},
		{"n", 1, 0, false}, {"+n+2", 1, 2, false}, {"odd", 0, 0, true}, {"2n1", 0, 0, true}, {"", 0, 0, true},
	} {
		step, offset, err := parseNth(tt.in)
		if (err != nil) != tt.bad || !tt.bad && (step != tt.step || offset != tt.offset) {
			t.Errorf("parseNth(%q) = %d, %d, %v", tt.in, step, offset, err)
		}
	}
}

// TestGlobRegexp: globset semantics (`*` crosses `/`, `**/` any depth).
func TestGlobRegexp(t *testing.T) {
	for _, tt := range []struct {
		glob, path string
		fold, want bool
	}{
		{"src/**/*.ts", "src/a.ts", false, true},
		{"src/**/*.ts", "src/deep/b.ts", false, true},
		{"**/*.test.ts", "src/a.test.ts", false, true},
		{"lib/vendor/**", "lib/vendor/d.ts", false, true},
		{"*.ts", "src/a.ts", false, true},
		{"./manage.py", "manage.py", false, false},
		{"SRC/*.PY", "src/a.py", true, true},
		{"SRC/*.PY", "src/a.py", false, false},
		{"{a,b}.js", "b.js", false, true},
		{"[!x]y", "ay", false, true},
	} {
		re, err := globRegexp(tt.glob, tt.fold)
		if err != nil {
			t.Fatalf("%s: %v", tt.glob, err)
		}
		if got := re.MatchString(tt.path); got != tt.want {
			t.Errorf("glob %q on %q: %v, want %v", tt.glob, tt.path, got, tt.want)
		}
	}
}

// TestConvertCase: the reference's verified conversions.
func TestConvertCase(t *testing.T) {
	cases := []string{"camelCase", "snakeCase", "kebabCase", "pascalCase", "upperCase", "lowerCase", "capitalize"}
	for _, tt := range []struct {
		in   string
		seps []string
		want string // one per case above, joined by |
	}{
		{"user_account_name", nil, "userAccountName|user_account_name|user-account-name|UserAccountName|USER_ACCOUNT_NAME|user_account_name|User_account_name"},
		{"XMLHttpRequest", nil, "xmlHttpRequest|xml_http_request|xml-http-request|XMLHttpRequest|XMLHTTPREQUEST|xmlhttprequest|XMLHttpRequest"},
	} {
		var got []string
		for _, c := range cases {
			got = append(got, convertCase(tt.in, c, tt.seps))
		}
		if strings.Join(got, "|") != tt.want {
			t.Errorf("%s: got %s\nwant %s", tt.in, strings.Join(got, "|"), tt.want)
		}
	}
	for _, tt := range []struct{ in, toCase, sep, want string }{
		{"user_accountName", "snakeCase", "underscore", "user_accountname"},
		{"user_accountName", "kebabCase", "caseChange", "user_account-name"},
		{"user-account_name", "pascalCase", "dash underscore", "UserAccountName"},
	} {
		if got := convertCase(tt.in, tt.toCase, strings.Fields(tt.sep)); got != tt.want {
			t.Errorf("convert %q %s by %s: %q, want %q", tt.in, tt.toCase, tt.sep, got, tt.want)
		}
	}
}

// TestSubstring: character indexes, negative from the end, clamped.
func TestSubstring(t *testing.T) {
	p := func(i int) *int { return &i }
	for _, tt := range []struct {
		in         string
		start, end *int
		want       string
	}{
		{"'hello'", p(1), p(-1), "hello"}, {"'hello'", nil, p(3), "'he"}, {"'hello'", p(-3), nil, "lo'"},
		{"'hello'", p(4), p(2), ""}, {`"héllo"`, p(1), p(3), "hé"}, {"abc", p(10), nil, ""}, {"abc", p(-10), p(2), "ab"},
	} {
		if got := substring(tt.in, tt.start, tt.end); got != tt.want {
			t.Errorf("substring(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestAmbiguityWarning: a Go call pattern that parses as a type conversion
// matches nothing (as in ast-grep); loading it warns and says what to write.
func TestAmbiguityWarning(t *testing.T) {
	set, err := ParseRules("r.yml", []byte("id: p\nlanguage: go\nrule: {pattern: fmt.Println($A)}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `r.yml:3: rule.pattern: the pattern "fmt.Println($A)" parses as a type_conversion_expression in go, so it matches no call_expression: write pattern: {context: "func t() { fmt.Println($A) }", selector: call_expression}`
	if len(set.Warnings) != 1 || set.Warnings[0] != want {
		t.Errorf("warnings %q\nwant %q", set.Warnings, want)
	}
	quiet, _ := ParseRules("r.yml", []byte("id: p\nlanguage: go\nrule: {pattern: {context: 'func t() { fmt.Println($A) }', selector: call_expression}}\n"), Options{})
	if len(quiet.Warnings) != 0 {
		t.Errorf("warnings for the pattern written with a context: %q", quiet.Warnings)
	}
}

// TestWithSeverities: overrides copy the rules; any --off also turns the
// unused-suppression hints off, as ast-grep.
func TestWithSeverities(t *testing.T) {
	set, err := ParseRules("r.yml", []byte("id: a\nlanguage: go\nrule: {kind: identifier}\n---\nid: b\nlanguage: go\nrule: {kind: identifier}\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	set.ReportUnusedSuppressions = true
	out, err := set.WithSeverities(map[string]Severity{"": SeverityError, "b": SeverityOff})
	if err != nil {
		t.Fatal(err)
	}
	if out.Rules[0].Severity != SeverityError || out.Rules[1].Severity != SeverityOff || set.Rules[0].Severity != SeverityHint || out.ReportUnusedSuppressions {
		t.Errorf("got %s %s (original %s), unused hints %v", out.Rules[0].Severity, out.Rules[1].Severity, set.Rules[0].Severity, out.ReportUnusedSuppressions)
	}
	if _, err := set.WithSeverities(map[string]Severity{"a": "fatal"}); err == nil {
		t.Error("severity fatal accepted")
	}
}

// TestNullFields: `fix: null` is no fix (not a deletion), and null
// files/ignores are absent.
func TestNullFields(t *testing.T) {
	set, err := ParseRules("r.yml", []byte("id: a\nlanguage: go\nrule: {kind: identifier}\nfix: null\nfiles: null\nignores: ~\n"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := set.Rules[0]; len(r.Fixes) != 0 || r.hasFix || !r.files.keeps("x.go") {
		t.Errorf("fixes %v, files %+v", r.Fixes, r.files)
	}
}
