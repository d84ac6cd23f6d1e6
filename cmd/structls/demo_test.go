package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// TestDemoBufferStaysGo types the demo's lines into the embedded main.go,
// as the demo does, and checks that the buffer parses as Go at every step
// (the lines once landed above `func main() {`, outside any function).
func TestDemoBufferStaysGo(t *testing.T) {
	var text string
	for _, f := range txtar.Parse(demoWorkspace).Files {
		if f.Name == "main.go" {
			text = string(f.Data)
		}
	}
	steps := append([]demoInsert{}, demoTyped...)
	steps = append(steps, demoInsert{0, "// edited after the preview\n"}) // step 8's stale edit
	for i, ins := range steps {
		lines := strings.SplitAfter(text, "\n")
		if ins.line > len(lines) {
			t.Fatalf("step %d inserts at line %d of a %d-line buffer", i, ins.line, len(lines))
		}
		text = strings.Join(lines[:ins.line], "") + ins.text + strings.Join(lines[ins.line:], "")
		if _, err := parser.ParseFile(token.NewFileSet(), "main.go", text, parser.AllErrors); err != nil {
			t.Errorf("after typing %q the buffer is not Go: %v\n%s", ins.text, err, text)
		}
		if call, decl := strings.Index(text, `fmt.Println("unsaved", name)`), strings.Index(text, "name, err :="); i >= 1 && (call < 0 || call < decl) {
			t.Errorf("the typed call is missing or uses name before it is declared:\n%s", text)
		}
	}
}

// TestDemoSaysWhatHappened: the demo prints no note about its own pattern
// (Go reads `fmt.Println($$$ARGS)` alone as a type conversion) and step 10
// says what progress the server reported.
func TestDemoSaysWhatHappened(t *testing.T) {
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(binary, "demo")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("structls demo: %v\n%s", err, stderr.String())
	}
	out := stdout.String()
	if strings.Contains(out, "type_conversion") || strings.Contains(out, "note:") || strings.Contains(out, "Note:") {
		t.Errorf("the demo prints a note about its own pattern:\n%s", out)
	}
	_, step10, _ := strings.Cut(out, "== 10.")
	step10, _, _ = strings.Cut(step10, "== 11.")
	if lines := strings.Split(strings.TrimSpace(step10), "\n"); len(lines) < 2 {
		t.Errorf("step 10 prints nothing after its title:\n%s", step10)
	}
}
