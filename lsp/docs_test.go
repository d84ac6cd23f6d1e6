package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/structls/structls/workspace"
)

// The manual in docs/ says some things the code says too; the tests here
// keep the two equal.

// repoFile returns a file of the repository, by its path from the root.
func repoFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(path)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// tableAfter returns the rows of the first Markdown table after the line
// heading, each row's cells trimmed (the header and its rule left out).
func tableAfter(t *testing.T, doc, heading string) [][]string {
	t.Helper()
	_, rest, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		t.Fatalf("no heading %q", heading)
	}
	var rows [][]string
	inTable := false
	for _, line := range strings.Split(rest, "\n") {
		if !strings.HasPrefix(line, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(line, "|"), " | ")
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	if len(rows) < 2 {
		t.Fatalf("no table after %q", heading)
	}
	return rows[2:]
}

// TestSettingsDocumented: the settings table of docs/configuration.md
// lists exactly the fields of workspace.Settings (by their JSON names), in
// which the server decodes the keys of knownSettings; and its defaults of
// the settings with a default in the code are the code's.
func TestSettingsDocumented(t *testing.T) {
	rows := tableAfter(t, repoFile(t, "docs/configuration.md"), "## Settings")
	documented := map[string]string{} // setting → its default, as written
	for _, row := range rows {
		if len(row) < 3 {
			t.Errorf("docs/configuration.md: the settings row %q has no default column", row)
			continue
		}
		documented[strings.Trim(row[0], "`")] = strings.Trim(row[2], "`")
	}

	var fields []string
	st := reflect.TypeFor[workspace.Settings]()
	for i := range st.NumField() {
		name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		fields = append(fields, name)
		if _, ok := documented[name]; !ok {
			t.Errorf("workspace.Settings has %s (json %q), which the settings table of docs/configuration.md does not list", st.Field(i).Name, name)
		}
	}
	decoded := settingNames()
	for name := range documented {
		if !slices.Contains(fields, name) {
			t.Errorf("docs/configuration.md documents the setting %q, which workspace.Settings does not have", name)
		}
	}
	for _, name := range fields {
		if !slices.Contains(decoded, name) {
			t.Errorf("workspace.Settings has %q, which the server never decodes (knownSettings in config.go)", name)
		}
	}
	for _, name := range decoded {
		if !slices.Contains(fields, name) {
			t.Errorf("the server decodes the setting %q (knownSettings), which workspace.Settings does not have", name)
		}
	}

	var zero workspace.Settings
	defaults := map[string]string{
		"maxFileSize":     strconv.FormatInt(zero.EffectiveMaxFileSize(), 10),
		"parseCacheMB":    strconv.FormatInt(zero.EffectiveParseCacheBytes()>>20, 10),
		"backgroundParse": strconv.FormatBool(zero.BackgroundParseEnabled()),
	}
	for name, want := range defaults {
		if got, ok := documented[name]; ok && got != want {
			t.Errorf("docs/configuration.md gives %s the default %q; the code's is %q", name, got, want)
		}
	}
}
