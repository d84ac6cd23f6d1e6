package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/grep"
	"github.com/structls/structls/outline"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
	"github.com/structls/structls/xray"
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

// commandContracts are the Go types of each command's argument and reply,
// whose JSON fields docs/protocol.md lists in the command's section, in the
// tables after "**Argument**" and "**Reply**" (nil: the section has no
// such table).
var commandContracts = map[string]struct{ argument, reply reflect.Type }{
	CommandAstGrep:     {reflect.TypeFor[astgrep.Query](), reflect.TypeFor[astgrep.Result]()},
	CommandNodeAt:      {reflect.TypeFor[astgrep.NodeAtQuery](), reflect.TypeFor[astgrep.NodeAtResult]()},
	CommandSearch:      {reflect.TypeFor[grep.Query](), reflect.TypeFor[grep.Result]()},
	CommandAstEdit:     {reflect.TypeFor[rewrite.Query](), reflect.TypeFor[previewReply]()},
	CommandApplyEdit:   {reflect.TypeFor[editIDArg](), reflect.TypeFor[applyReply]()},
	CommandDiscardEdit: {},
	CommandXRay:        {reflect.TypeFor[xray.Query](), reflect.TypeFor[xray.Result]()},
	CommandScan:        {reflect.TypeFor[rules.Query](), reflect.TypeFor[rules.Result]()},
	CommandOutline:     {reflect.TypeFor[outline.Query](), reflect.TypeFor[outline.Result]()},
}

// TestCommandContractsDocumented: every command has its section in
// docs/protocol.md, and the section's argument and reply tables list
// exactly the JSON fields of the Go types the server decodes and encodes.
func TestCommandContractsDocumented(t *testing.T) {
	doc := repoFile(t, "docs/protocol.md")
	for _, name := range Commands {
		contract, ok := commandContracts[name]
		if !ok {
			t.Errorf("%s is not in commandContracts (lsp/docs_test.go): add its argument and reply types", name)
			continue
		}
		section, ok := markdownSection(doc, "### `"+name+"`")
		if !ok {
			t.Errorf("docs/protocol.md has no section \"### `%s`\"", name)
			continue
		}
		checkFieldTable(t, name+" argument", section, "**Argument**", contract.argument)
		checkFieldTable(t, name+" reply", section, "**Reply**", contract.reply)
	}
	section, _ := markdownSection(doc, "### `"+CommandAstGrep+"`")
	checkFieldTable(t, CommandAstGrep+" reply with debugQuery", section, "**Reply with debugQuery**", reflect.TypeFor[astgrep.DebugResult]())
}

// markdownSection returns the text under heading, up to the next heading
// of its level or above.
func markdownSection(doc, heading string) (string, bool) {
	_, rest, ok := strings.Cut(doc, "\n"+heading+"\n")
	if !ok {
		return "", false
	}
	level := heading[:strings.IndexByte(heading, ' ')+1]
	for h := "#"; len(h) < len(level); h += "#" {
		if i := strings.Index(rest, "\n"+h+" "); i >= 0 {
			rest = rest[:i]
		}
	}
	return rest, true
}

// checkFieldTable checks that the table after label in section lists (in
// its first column, as `name` or `a`, `b`) exactly the JSON fields of t.
func checkFieldTable(t *testing.T, what, section, label string, goType reflect.Type) {
	t.Helper()
	if goType == nil {
		return
	}
	if !strings.Contains(section, "\n"+label+"\n") {
		t.Errorf("docs/protocol.md: the %s has no table after %q", what, label)
		return
	}
	var documented []string
	for _, row := range tableAfter(t, section, label) {
		for _, name := range strings.Split(row[0], ",") {
			documented = append(documented, strings.Trim(strings.TrimSpace(name), "`"))
		}
	}
	fields := jsonNames(derefType(goType))
	for _, f := range fields {
		if !slices.Contains(documented, f) {
			t.Errorf("docs/protocol.md: the %s table does not list the field %q of %s", what, f, goType)
		}
	}
	for _, f := range documented {
		if !slices.Contains(fields, f) {
			t.Errorf("docs/protocol.md: the %s table lists %q, which %s does not have (its fields: %s)", what, f, goType, strings.Join(fields, ", "))
		}
	}
}

// TestPagingIsOneShape: every command that pages takes the same skip (an
// int, omitted when 0) and answers the same nextSkip (an *int, absent when
// no page follows), and docs/protocol.md's paging section says what the
// command's skip counts.
func TestPagingIsOneShape(t *testing.T) {
	paging := repoFile(t, "docs/protocol.md")
	start := strings.Index(paging, "#### Paging")
	if start < 0 {
		t.Fatal("docs/protocol.md has no Paging section")
	}
	paging = paging[start:]
	paging = paging[:strings.Index(paging[1:], "\n#")+1]
	for name, c := range commandContracts {
		if c.reply == nil {
			continue
		}
		next, paged := fieldByJSONName(c.reply, "nextSkip")
		if !paged {
			continue
		}
		if next.Type != reflect.TypeFor[*int]() || next.Tag.Get("json") != "nextSkip,omitempty" {
			t.Errorf("%s: the reply's nextSkip is %s `%s`; every paged reply's is *int `json:\"nextSkip,omitempty\"`", name, next.Type, next.Tag)
		}
		skip, ok := fieldByJSONName(c.argument, "skip")
		if !ok || skip.Type != reflect.TypeFor[int]() || skip.Tag.Get("json") != "skip,omitempty" {
			t.Errorf("%s: the argument's skip is missing or not int `json:\"skip,omitempty\"`", name)
		}
		if !strings.Contains(paging, "\n| `"+name+"` | ") {
			t.Errorf("docs/protocol.md's Paging section does not say what %s's skip counts", name)
		}
	}
}

// fieldByJSONName finds the field of struct type typ (or of a struct it
// embeds) that encoding/json names name.
func fieldByJSONName(typ reflect.Type, name string) (reflect.StructField, bool) {
	for _, f := range reflect.VisibleFields(typ) {
		if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name && f.IsExported() {
			return f, true
		}
	}
	return reflect.StructField{}, false
}
