package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// docs/cli.md is the manual of the command line. What it says twice with
// the code — the usage lines, each command's flags — is checked here, so
// the manual cannot drift from the binary.

// readCLIDocs returns docs/cli.md.
func readCLIDocs(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestUsageMatchesDocs: the usage lines of help.go are docs/cli.md's
// "Usage" block, line for line, in order.
func TestUsageMatchesDocs(t *testing.T) {
	_, section, ok := strings.Cut(readCLIDocs(t), "\n## Usage\n\n```\n")
	block, _, ok2 := strings.Cut(section, "\n```\n")
	if !ok || !ok2 {
		t.Fatal("docs/cli.md has no ``` block right after \"## Usage\"")
	}
	var ours []string
	for _, c := range commands {
		ours = append(ours, c.synopsis...)
	}
	got := strings.Split(block, "\n")
	for i := range max(len(ours), len(got)) {
		want, have := "(no line)", "(no line)"
		if i < len(ours) {
			want = ours[i]
		}
		if i < len(got) {
			have = got[i]
		}
		if want != have {
			t.Errorf("usage line %d differs:\nhelp.go:      %s\ndocs/cli.md:  %s", i+1, want, have)
		}
	}
}

// helpFlag is a flag line of `structls COMMAND --help`: "  -name type".
var helpFlag = regexp.MustCompile(`(?m)^  -([A-Za-z][A-Za-z0-9-]*)`)

// docFlag is a flag written in a table's first cell: `-p PATTERN`,
// `--error[=ID]`, `--debug-query=VIEW`.
var docFlag = regexp.MustCompile("`--?([A-Za-z][A-Za-z0-9-]*)")

// commandFlags returns the flags COMMAND --help lists.
func commandFlags(t *testing.T, name string) []string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run([]string{name, "--help"}, strings.NewReader(""), &stdout, &stderr)
	if code != exitFound {
		t.Fatalf("structls %s --help: exit %d\n%s", name, code, stderr.String())
	}
	_, flags, ok := strings.Cut(stdout.String(), "\nflags:\n")
	if !ok {
		return nil
	}
	flags, _, _ = strings.Cut(flags, "\nexample:\n")
	var names []string
	for _, m := range helpFlag.FindAllStringSubmatch(flags, -1) {
		names = append(names, m[1])
	}
	return names
}

// docSection returns the section of docs/cli.md headed "### `structls
// NAME`", up to the next heading of its level or above.
func docSection(doc, name string) (string, bool) {
	_, rest, ok := strings.Cut(doc, "\n### `structls "+name+"`\n")
	if !ok {
		return "", false
	}
	for _, end := range []string{"\n### ", "\n## "} {
		if i := strings.Index(rest, end); i >= 0 {
			rest = rest[:i]
		}
	}
	return rest, true
}

// documentedFlags returns the flags in the first cells of the section's
// table rows.
func documentedFlags(section string) []string {
	var names []string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `-") {
			continue
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, m := range docFlag.FindAllStringSubmatch(cell, -1) {
			names = append(names, m[1])
		}
	}
	return names
}

// TestCLIDocsListEveryFlag: every command has its section in docs/cli.md,
// every flag a command accepts is in its section's table, and every flag
// in the table is one the command accepts.
func TestCLIDocsListEveryFlag(t *testing.T) {
	doc := readCLIDocs(t)
	for _, c := range commands {
		section, ok := docSection(doc, c.name)
		if !ok {
			t.Errorf("docs/cli.md has no section \"### `structls %s`\"", c.name)
			continue
		}
		flags, documented := commandFlags(t, c.name), documentedFlags(section)
		for _, f := range flags {
			if !slices.Contains(documented, f) {
				t.Errorf("structls %s accepts -%s, which its table in docs/cli.md does not list", c.name, f)
			}
		}
		for _, f := range documented {
			if !slices.Contains(flags, f) {
				t.Errorf("docs/cli.md lists -%s for structls %s, which the command does not accept", f, c.name)
			}
		}
	}
}
