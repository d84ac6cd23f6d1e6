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
	"github.com/structls/structls/lsp/client"
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
	ed := newEditor(t, dir, client.EditorOptions{})
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
	ed := newEditor(t, dir, client.EditorOptions{})
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
		if client.ErrorCode(err) != -32602 || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error = %v; want InvalidParams containing %q", tc.arg, err, tc.want)
		}
	}
}

// endlessAfterFirst is an evaluator that answers for f0.go and loops
// forever on every other file (each would end only at its step budget,
// about a second: forty of them outlast any cancel).
const endlessAfterFirst = `
if file_path == "f0.go":
    return {"matches": [{"line_number": 1}]}
while True:
    pass
`

// endlessXRayTree is forty files for endlessAfterFirst.
func endlessXRayTree(t *testing.T) string {
	var files strings.Builder
	for i := range 40 {
		fmt.Fprintf(&files, "-- f%d.go --\npackage a\n", i)
	}
	return testutil.WriteTree(t, files.String())
}

// endlessXRayArg is the structls.xray argument that runs endlessAfterFirst.
var endlessXRayArg = map[string]any{"driver": "package", "fileTimeoutMs": 600000, "evaluator": endlessAfterFirst}

// startEndlessXRay runs endlessAfterFirst over forty files and waits until
// its progress has begun; the reply arrives on the returned channel. The
// background parsing of the forty files may show a progress of its own
// first: only the X-Ray's counts.
func startEndlessXRay(t *testing.T) (*client.Editor, client.ProgressEvent, chan xrayOutcome) {
	ed := newEditor(t, endlessXRayTree(t), client.EditorOptions{WorkDoneProgress: true})
	out := make(chan xrayOutcome, 1)
	go func() {
		raw, err := ed.ExecuteCommand(context.Background(), CommandXRay, endlessXRayArg)
		out <- xrayOutcome{raw, err}
	}()
	for {
		for _, p := range ed.Progress() {
			if p.Kind == "begin" && p.Title == commands[CommandXRay].title {
				return ed, p, out
			}
		}
		time.Sleep(time.Millisecond)
	}
}

type xrayOutcome struct {
	raw json.RawMessage
	err error
}

// TestXRayProgressCancel: the Cancel button of the progress stops the
// endless evaluations, and the reply is what was found by then, marked
// cancelled and partial (a person who stops a long X-Ray keeps its
// findings, as code-indexer's cancelled jobs do), and the progress ends
// "cancelled".
func TestXRayProgressCancel(t *testing.T) {
	ed, begin, out := startEndlessXRay(t)
	if err := ed.Notify(context.Background(), "window/workDoneProgress/cancel", map[string]any{"token": json.RawMessage(begin.Token)}); err != nil {
		t.Fatal(err)
	}
	var o xrayOutcome
	select {
	case o = <-out:
	case <-time.After(60 * time.Second):
		t.Fatal("the evaluation did not stop within 60 s of the cancel")
	}
	if o.err != nil {
		t.Fatalf("error = %v; want the partial result", o.err)
	}
	var r struct {
		xrayReply
		Cancelled, Partial, Timeout bool
	}
	if err := json.Unmarshal(o.raw, &r); err != nil {
		t.Fatal(err)
	}
	if !r.Cancelled || !r.Partial || r.Timeout || len(r.Matches) != 1 || r.Matches[0].Path != "f0.go" || r.FilesEvaluated != 1 || r.Candidates != 40 {
		t.Errorf("result %s; want cancelled and partial, f0.go's match, 1 of 40 files evaluated", o.raw)
	}
	var last client.ProgressEvent
	for _, ev := range ed.Progress() {
		if ev.Token == begin.Token {
			last = ev
		}
	}
	if last.Kind != "end" || last.Message != "cancelled" {
		t.Errorf("last event of the X-Ray's progress = %+v; want end \"cancelled\"", last)
	}
}

// TestXRayCancelRequest: a client that withdraws its request
// ($/cancelRequest) gets RequestCancelled, as for every command, at once.
func TestXRayCancelRequest(t *testing.T) {
	c := newRawClient(t)
	c.initialize(endlessXRayTree(t))
	arg, _ := json.Marshal(endlessXRayArg)
	c.sendRaw(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"workspace/executeCommand","params":{"command":"structls.xray","arguments":[%s]}}`, arg))
	c.awaitProgress("begin")
	c.sendRaw(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}`)
	if m := c.reply("2"); m.Error == nil || m.Error.Code != int(RequestCancelled) {
		t.Fatalf("reply = %+v %s; want the RequestCancelled error", m.Error, m.Result)
	}
}
