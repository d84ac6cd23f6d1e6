package main

import (
	"encoding/json"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
)

// langSelectTree has Go code the pattern is meant for, and files of three
// languages it does not parse in: Dockerfile reads it as a lone `=`.
const langSelectTree = `-- main.go --
package main

func f(err error) error {
	if err != nil { return err }
	return nil
}
-- Dockerfile --
FROM debian
ARG ubuntu=ubuntu
ENV LANG=C
-- tool.py --
if err != nil:
    pass
-- run.sh --
if [ $err != nil ]; then return; fi
`

// TestAstGrepWithoutLangSkipsWhereThePatternDoesNotParse: without -l, the
// languages the pattern does not parse in are skipped (no `=` matches in the
// Dockerfile) and named in one note, on one stream; with -l the pattern is
// searched as parsed, as ast-grep does.
func TestAstGrepWithoutLangSkipsWhereThePatternDoesNotParse(t *testing.T) {
	dir := testutil.WriteTree(t, langSelectTree)
	const pattern = "if err != nil { return $$$ }"
	code, stdout, stderr := runBinary(t, dir, nil, "astgrep", "-p", pattern, ".")
	if code != 0 || strings.Contains(stdout, "Dockerfile") || !strings.Contains(stdout, "*4|\tif err != nil { return err }") {
		t.Errorf("without -l: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	note := "searched in go; the pattern does not parse in 3 other languages present: bash, dockerfile, python"
	if strings.Count(stdout+stderr, note) != 1 || strings.Count(stdout+stderr, "does not parse") != 1 || stderr != "" {
		t.Errorf("without -l the note must be said once, in one line, on one stream:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
	}

	// -l dockerfile: searched as parsed (ast-grep has no Dockerfile grammar,
	// its rule is to search what the pattern parses to): the two `=`.
	code, stdout, _ = runBinary(t, dir, nil, "astgrep", "-l", "dockerfile", "--json", "-p", pattern, ".")
	if got := matchTexts(t, stdout); code != 0 || !slices.Equal(got, []string{"Dockerfile:1:=", "Dockerfile:2:="}) {
		t.Errorf("-l dockerfile: exit %d, matches %q", code, got)
	}
	// -l python and -l bash: exactly what the ast-grep CLI finds.
	for _, l := range []string{"python", "bash", "go"} {
		_, ours, _ := runBinary(t, dir, nil, "astgrep", "-l", l, "--json", "-p", pattern, ".")
		cmd := exec.Command(testutil.AstGrep(t), "run", "-l", l, "-p", pattern, "--json=compact", ".")
		cmd.Dir = dir
		theirs, _ := cmd.Output()
		if got, want := matchTexts(t, ours), matchTexts(t, `{"matches":`+string(theirs)+`}`); !slices.Equal(got, want) {
			t.Errorf("-l %s: structls %q, ast-grep %q", l, got, want)
		}
	}
}

// matchTexts lists "path:line:text" of a JSON result's matches.
func matchTexts(t *testing.T, out string) []string {
	t.Helper()
	var res struct {
		Matches []struct {
			Path  string `json:"path"`
			File  string `json:"file"` // ast-grep's name for the path
			Text  string `json:"text"`
			Range struct {
				Start struct{ Line int } `json:"start"`
			} `json:"range"`
		} `json:"matches"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not a JSON result: %v\n%s", err, out)
	}
	got := []string{}
	for _, m := range res.Matches {
		got = append(got, m.Path+m.File+":"+strconv.Itoa(m.Range.Start.Line)+":"+m.Text)
	}
	return got
}
