package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/structls/structls/internal/testutil"
)

// xrayReply is the part of a structls.xray result the tests read.
type xrayReply struct {
	Matches []struct {
		Path, Language, LineContent string
		LineNumber                  int
		Fields                      map[string]any
	}
	EvaluationErrors []struct{ Path, ErrorType, ErrorMessage string }
	Candidates       int
	FilesEvaluated   int
}

const xrayCalls = `
names = []
for c in node.descendants_of_type("call_expression"):
    names.append({"line_number": c.start_point[0] + 1, "call": c.child_by_field_name("function").text})
return {"matches": names, "value": None}
`

// TestXRayCommand runs structls.xray through the protocol: the evaluator
// sees the unsaved buffer of an open file, not the file on disk.
func TestXRayCommand(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n\nfunc f() { g() }\n-- b.go --\npackage b\n\nfunc h() { onDisk() }\n")
	ed := newEditor(t, dir, EditorOptions{})
	ctx := context.Background()
	if _, err := ed.OpenFile(ctx, filepath.Join(dir, "b.go"), "go", "package b\n\nfunc h() {\n\tinBuffer()\n}\n"); err != nil {
		t.Fatal(err)
	}
	raw, err := ed.ExecuteCommand(ctx, CommandXRay, map[string]any{"driver": "func", "evaluator": xrayCalls})
	if err != nil {
		t.Fatal(err)
	}
	var r xrayReply
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range r.Matches {
		got = append(got, m.Path+":"+m.LineContent+":"+m.Fields["call"].(string))
	}
	want := []string{"a.go:func f() { g() }:g", "b.go:\tinBuffer():inBuffer"}
	if !slices.Equal(got, want) || r.Candidates != 2 || r.FilesEvaluated != 2 {
		t.Errorf("got %q (%d candidates, %d evaluated); want %q", got, r.Candidates, r.FilesEvaluated, want)
	}
	if !slices.Contains(Commands, CommandXRay) {
		t.Errorf("Commands %v lacks %s", Commands, CommandXRay)
	}
}

// TestXRayInvalidParams: bad evaluator code and unknown fields are
// InvalidParams with a message that says what to fix.
func TestXRayInvalidParams(t *testing.T) {
	dir := testutil.WriteTree(t, "-- a.go --\npackage a\n")
	ed := newEditor(t, dir, EditorOptions{})
	for _, tc := range []struct {
		arg  map[string]any
		want string
	}{
		{map[string]any{"driver": "a", "evaluator": "x = 1\nreturn y"}, "line 2, column 8: undefined: y"},
		{map[string]any{"driver": "a", "evaluater": "return 1"}, `unknown field "evaluater" (did you mean evaluator?)`},
		{map[string]any{"driver": "a(?=b)"}, "invalid regex"},
		{map[string]any{"driver": "a", "target": "files"}, `target "files" is not supported`},
	} {
		_, err := ed.ExecuteCommand(context.Background(), CommandXRay, tc.arg)
		if ErrorCode(err) != -32602 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v; want InvalidParams containing %q", tc.arg, err, tc.want)
		}
	}
}

// TestXRayProgressCancel: cancelling the progress stops endless
// evaluations; the reply is RequestCancelled. (Each file would end at the
// step budget in about a second: forty of them outlast the cancel.)
func TestXRayProgressCancel(t *testing.T) {
	var files strings.Builder
	for i := range 40 {
		fmt.Fprintf(&files, "-- f%d.go --\npackage a\n", i)
	}
	dir := testutil.WriteTree(t, files.String())
	ed := newEditor(t, dir, EditorOptions{WorkDoneProgress: true})
	errc := make(chan error, 1)
	go func() {
		_, err := ed.ExecuteCommand(context.Background(), CommandXRay,
			map[string]any{"driver": "package", "fileTimeoutMs": 600000, "evaluator": "while True:\n    pass"})
		errc <- err
	}()
	var begin ProgressEvent
	for begin.Token == "" {
		time.Sleep(time.Millisecond)
		for _, p := range ed.Progress() {
			if p.Kind == "begin" {
				begin = p
			}
		}
	}
	if err := ed.Notify(context.Background(), "window/workDoneProgress/cancel", map[string]any{"token": json.RawMessage(begin.Token)}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errc:
		if ErrorCode(err) != int(RequestCancelled) {
			t.Fatalf("error = %v; want RequestCancelled", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the evaluation did not stop within 60 s of the cancel")
	}
}
