package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const printlnGo = "package a\n\nimport \"fmt\"\n\nfunc A() {\n\tfmt.Println(1)\n\tfmt.Println(2)\n}\n"

// preview runs ast_edit and returns its id.
func (h *harness) preview(args map[string]any) (string, reply) {
	h.t.Helper()
	r := h.ok("ast_edit", args)
	id, _ := r.summary["id"].(string)
	if id == "" {
		h.t.Fatalf("ast_edit gave no id: %q", r.text)
	}
	return id, r
}

var printOps = map[string]any{"ops": []map[string]string{{"pat": "fmt.Println($A)", "out": "fmt.Print($A)"}}}

// TestPreviewThenApply previews an edit (nothing written), then applies
// exactly it.
func TestPreviewThenApply(t *testing.T) {
	h := start(t, map[string]string{"a.go": printlnGo}, harnessOptions{})
	id, r := h.preview(printOps)
	for _, want := range []string{"-6:2 fmt.Println(1)", "+6:2 fmt.Print(1)", "-7:2 fmt.Println(2)", id} {
		if !strings.Contains(r.text, want) {
			t.Errorf("preview lacks %q: %q", want, r.text)
		}
	}
	if strings.Contains(r.text, "--- a/a.go") {
		t.Errorf("the preview holds a diff it was not asked for: %q", r.text)
	}
	if h.read("a.go") != printlnGo {
		t.Fatal("the preview wrote the file")
	}
	r = h.ok("resolve", map[string]any{"id": id, "action": "apply"})
	if !strings.Contains(r.text, "Applied 2 replacement(s) in 1 file(s)") || r.summary["applied"] != true {
		t.Errorf("apply: %q %v", r.text, r.summary)
	}
	if got, want := h.read("a.go"), strings.ReplaceAll(printlnGo, "Println", "Print"); got != want {
		t.Errorf("after apply:\n%s\nwant:\n%s", got, want)
	}
	// An id is applied once.
	if r := h.call("resolve", map[string]any{"id": id, "action": "apply"}); !r.isError {
		t.Errorf("a second apply of %s: %q", id, r.text)
	}
}

// TestPreviewDiffAndPaging asks for the diff and pages a long preview by
// its id without previewing again.
func TestPreviewDiffAndPaging(t *testing.T) {
	var b strings.Builder
	b.WriteString("package a\n\nimport \"fmt\"\n\nfunc A() {\n")
	for range 1500 {
		b.WriteString("\tfmt.Println(\"a fairly long line so that the preview and its diff pass 50 KB\")\n")
	}
	b.WriteString("}\n")
	h := start(t, map[string]string{"a.go": b.String()}, harnessOptions{})
	args := map[string]any{"ops": printOps["ops"], "diff": true}
	id, r := h.preview(args)
	if len(r.text) > MaxReplyBytes || r.nextSkip() < 0 {
		t.Fatalf("%d bytes, nextSkip %d", len(r.text), r.nextSkip())
	}
	all := r.text
	for skip := r.nextSkip(); skip >= 0; skip = r.nextSkip() {
		r = h.ok("ast_edit", map[string]any{"id": id, "skip": skip})
		if len(r.text) > MaxReplyBytes {
			t.Fatalf("page at %d: %d bytes", skip, len(r.text))
		}
		all += r.text
	}
	if n := lines(all, "+6:2 fmt.Print("); n != 1 {
		t.Errorf("%d preview lines of the first replacement, want 1", n)
	}
	if n := lines(all, "-\tfmt.Println("); n != 1500 {
		t.Errorf("%d diff lines removed, want 1500", n)
	}
	h.ok("resolve", map[string]any{"id": id, "action": "apply"})
	if got := h.read("a.go"); strings.Contains(got, "Println") {
		t.Error("the paged preview did not apply")
	}
}

// TestStalePreviewIsRefused changes a file after its preview: apply is
// refused and nothing is written — not even to the files that did not
// change.
func TestStalePreviewIsRefused(t *testing.T) {
	h := start(t, map[string]string{"a.go": printlnGo, "b.go": strings.ReplaceAll(printlnGo, "package a", "package a // b")}, harnessOptions{})
	id, _ := h.preview(printOps)
	changed := strings.Replace(printlnGo, "fmt.Println(2)", "fmt.Println(2)\n\tfmt.Println(3)", 1)
	if err := os.WriteFile(filepath.Join(h.dir, "a.go"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	r := h.call("resolve", map[string]any{"id": id, "action": "apply"})
	if !r.isError || !strings.Contains(r.text, "stale") || !strings.Contains(r.text, "a.go") {
		t.Errorf("apply of a stale preview: isError=%v %q", r.isError, r.text)
	}
	if h.read("a.go") != changed || strings.Contains(h.read("b.go"), "fmt.Print(") {
		t.Error("a stale apply wrote a file")
	}
}

// TestDiscard forgets a preview: it can no longer be applied.
func TestDiscard(t *testing.T) {
	h := start(t, map[string]string{"a.go": printlnGo}, harnessOptions{})
	id, _ := h.preview(printOps)
	r := h.ok("resolve", map[string]any{"id": id, "action": "discard", "reason": "not now"})
	if !strings.Contains(r.text, "Discarded: 2 replacement(s) in 1 file(s). Reason: not now") {
		t.Errorf("discard: %q", r.text)
	}
	if r := h.call("resolve", map[string]any{"id": id, "action": "apply"}); !r.isError {
		t.Errorf("apply after discard: %q", r.text)
	}
	if h.read("a.go") != printlnGo {
		t.Error("a discarded preview was written")
	}
}

// TestApplyAsksThePerson checks resolve asks through elicitation when the
// client supports it and confirmEdits says so: a decline writes nothing
// and keeps the preview, an accept applies it.
func TestApplyAsksThePerson(t *testing.T) {
	answer := "decline"
	asked := 0
	h := start(t, map[string]string{"a.go": printlnGo}, harnessOptions{confirmEdits: "always",
		elicit: func(req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			asked++
			if !strings.Contains(req.Params.Message, "2 replacement(s) in 1 file(s)") || !strings.Contains(req.Params.Message, "+6:2 fmt.Print(1)") {
				t.Errorf("the question does not show the edit: %q", req.Params.Message)
			}
			return &sdk.ElicitResult{Action: answer}, nil
		}})
	id, _ := h.preview(printOps)
	r := h.ok("resolve", map[string]any{"id": id, "action": "apply"})
	if asked != 1 || !strings.Contains(r.text, "Not applied") || h.read("a.go") != printlnGo {
		t.Fatalf("declined: asked %d, %q", asked, r.text)
	}
	answer = "accept"
	r = h.ok("resolve", map[string]any{"id": id, "action": "apply"})
	if asked != 2 || !strings.Contains(r.text, "Applied 2") || strings.Contains(h.read("a.go"), "Println") {
		t.Errorf("accepted: asked %d, %q", asked, r.text)
	}
}

// TestSingleFileEditIsNotAsked checks multiFile (the default) asks only
// for edits of several files.
func TestSingleFileEditIsNotAsked(t *testing.T) {
	h := start(t, map[string]string{"a.go": printlnGo}, harnessOptions{
		elicit: func(req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			t.Errorf("asked about a one-file edit: %q", req.Params.Message)
			return &sdk.ElicitResult{Action: "decline"}, nil
		}})
	id, _ := h.preview(printOps)
	h.ok("resolve", map[string]any{"id": id, "action": "apply"})
	if strings.Contains(h.read("a.go"), "Println") {
		t.Error("not applied")
	}
}
