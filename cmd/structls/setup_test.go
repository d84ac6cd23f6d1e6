package main

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repoRoot is the repository checkout the tests run in.
const repoRoot = "../.."

// TestInstallAdviceWorksFromACheckout checks that no editor file tells users
// to `go install …@latest`: the module is not published, so that command
// fails; `go install ./cmd/structls` in a checkout is what works (README.md,
// Install).
func TestInstallAdviceWorksFromACheckout(t *testing.T) {
	dir := filepath.Join(repoRoot, "editors")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", ".cache", "dist", "test-results", "screenshots":
				return filepath.SkipDir
			}
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(data), "\n") {
			if strings.Contains(line, "cmd/structls@") {
				t.Errorf("%s:%d advises an install that fails (the module is not published): %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGoModIndirectMarkers checks that no module this module's packages
// import is marked `// indirect` in go.mod (go mod tidy would drop the mark).
func TestGoModIndirectMarkers(t *testing.T) {
	f, err := os.Open(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var indirect []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if fields := strings.Fields(sc.Text()); len(fields) >= 4 && fields[2] == "//" && fields[3] == "indirect" {
			indirect = append(indirect, fields[0])
		}
	}
	if len(indirect) == 0 {
		t.Fatal("found no indirect requirement in go.mod: has its format changed?")
	}
	err = filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) && path != repoRoot {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, mod := range indirect {
			if strings.Contains(string(data), `"`+mod+`/`) || strings.Contains(string(data), `"`+mod+`"`) {
				t.Errorf("go.mod marks %s indirect, but %s imports it", mod, path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestVSCodePackageBundlesOnPrepublish checks that the extension's
// package.json bundles on vscode:prepublish, which `vsce package` runs, so a
// plain `vsce package` cannot make a .vsix without dist/extension.js.
func TestVSCodePackageBundlesOnPrepublish(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "editors/vscode/package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Main    string            `json:"main"`
		Scripts map[string]string `json:"scripts"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	pre := pkg.Scripts["vscode:prepublish"]
	if !strings.Contains(pre, "bundle") || !strings.Contains(pkg.Scripts["bundle"], strings.TrimPrefix(pkg.Main, "./")) {
		t.Errorf("vscode:prepublish is %q and bundle %q: vsce package would not build %s", pre, pkg.Scripts["bundle"], pkg.Main)
	}
}

// TestEditorScriptsAnnounceTheirArguments runs the code-server installer's
// --help and checks that the editor scripts point only inside the repository.
func TestEditorScriptsAnnounceTheirArguments(t *testing.T) {
	out, err := exec.Command("bash", filepath.Join(repoRoot, "scripts/editors-install-code-server.sh"), "--help").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[DEST]") || !strings.Contains(string(out), "default:") {
		t.Errorf("editors-install-code-server.sh --help: %v\n%s", err, out)
	}
	scripts, _ := filepath.Glob(filepath.Join(repoRoot, "scripts/editors-*"))
	for _, path := range scripts {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "../shared") {
			t.Errorf("%s points to a document outside the repository (../shared)", path)
		}
	}
}
