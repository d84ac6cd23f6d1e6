package lsp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/lsp/client"
)

// TestUnrenderableFixIsNotOffered: a fix whose expansion passes the cap on
// replacement text is no quick fix and no part of fix all (its template
// must never reach the buffer); the diagnostic says why, and the other
// match's fix is offered and applied.
func TestUnrenderableFixIsNotOffered(t *testing.T) {
	fix := "h(" + strings.TrimSuffix(strings.Repeat("$$$A, ", 1000), ", ") + ")"
	dir := testutil.WriteTree(t, "-- sgconfig.yml --\nruleDirs: [rules]\n-- rules/big.yml --\nid: big-fix\nlanguage: go\nseverity: warning\nmessage: call of g\nrule: {pattern: 'g($$$A)'}\nfix: '"+fix+"'\n")
	ed := newEditor(t, dir, client.EditorOptions{})
	ctx := context.Background()
	args := strings.TrimSuffix(strings.Repeat("aaaaaaa, ", 80_000/9), ", ")
	text := "package a\n\nfunc f() {\n\tg(" + args + ")\n\tg(1)\n}\n"
	uri, err := ed.OpenFile(ctx, filepath.Join(dir, "a.go"), "go", text)
	if err != nil {
		t.Fatal(err)
	}
	diags := awaitDiagnostics(t, ed, uri, 1, hasCodes("big-fix", "big-fix"))
	for _, d := range diags {
		big := d.Range.Start.Line == 3
		if says := strings.Contains(d.Message, "structls offers no fix here: the fix cannot be rendered: the rewrite makes more than 64 MiB"); says != big {
			t.Errorf("diagnostic on line %d: message %.200q; want the fix's error only on the big call", d.Range.Start.Line, d.Message)
		}
	}
	for _, line := range []int{3, 4} {
		var quick []codeActionReply
		for _, a := range codeActions(t, ed, uri, at(line, 2)) {
			if a.Kind == "quickfix" {
				quick = append(quick, a)
			}
		}
		if want := map[int]int{3: 0, 4: 1}[line]; len(quick) != want {
			t.Errorf("line %d: %d quick fixes; want %d", line, len(quick), want)
		}
	}
	all := codeActions(t, ed, uri, at(0, 0), "source.fixAll")
	if len(all) != 1 {
		t.Fatalf("fix all actions: %+v; want one", all)
	}
	if reason := applyAction(t, ed, all[0]); reason != "" {
		t.Fatalf("fix all was refused: %s", reason)
	}
	want := strings.Replace(text, "g(1)", "h("+strings.TrimSuffix(strings.Repeat("1, ", 1000), ", ")+")", 1)
	if got, _ := ed.BufferText(uri); got != want {
		t.Errorf("buffer after fix all: %d bytes, starting %.200q; want the big call kept and the small one fixed", len(got), got)
	}
}
