package lsp

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/structls/structls/astgrep"
	"github.com/structls/structls/grep"
	"github.com/structls/structls/outline"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
	"github.com/structls/structls/xray"
)

// The VS Code extension declares, in editors/vscode/src/wire.ts, the parts
// of the command replies it reads. TypeScript trusts those declarations, so
// a field renamed or retyped on the Go side would read as undefined there
// without a compile error anywhere; this test reads wire.ts and checks each
// declared field against the JSON of the Go type the interface mirrors.

// wireTypes maps each interface of wire.ts to the Go type whose JSON it
// declares. A new interface must be added here, or the test fails.
var wireTypes = map[string]reflect.Type{
	"WirePosition":  reflect.TypeFor[workspace.Position](),
	"WireRange":     reflect.TypeFor[workspace.Range](),
	"AstGrepMatch":  reflect.TypeFor[astgrep.Match](),
	"AstGrepResult": reflect.TypeFor[astgrep.Result](),
	"SearchMatch":   reflect.TypeFor[grep.Match](),
	"SearchResult":  reflect.TypeFor[grep.Result](),
	"Replacement":   reflect.TypeFor[rewrite.Replacement](),
	"EditPreview":   reflect.TypeFor[previewReply](),
	"ApplyResult":   reflect.TypeFor[applyReply](),
	"XRayMatch":     reflect.TypeFor[xray.Match](),
	"XRayResult":    reflect.TypeFor[xray.Result](),
	"OutlineItem":   reflect.TypeFor[outline.Item](),
	"OutlineResult": reflect.TypeFor[outline.Result](),
}

func TestWireTypesMatchGo(t *testing.T) {
	interfaces, err := parseTSInterfaces(repoFile(t, "editors/vscode/src/wire.ts"))
	if err != nil {
		t.Fatalf("editors/vscode/src/wire.ts: %v", err)
	}
	if len(interfaces) == 0 {
		t.Fatal("editors/vscode/src/wire.ts: no exported interface found")
	}
	for _, in := range interfaces {
		goType, ok := wireTypes[in.name]
		if !ok {
			t.Errorf("wire.ts declares interface %s, which wireTypes in lsp/wire_test.go does not map to a Go type: add it", in.name)
			continue
		}
		for _, problem := range checkTSObject(in.name, in.body, goType) {
			t.Errorf("wire.ts %s", problem)
		}
	}
}

// tsInterface is one `export interface NAME { BODY }`.
type tsInterface struct{ name, body string }

var (
	tsComment        = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	tsInterfaceStart = regexp.MustCompile(`export\s+interface\s+(\w+)\s*\{`)
	tsField          = regexp.MustCompile(`^(\w+)(\??)\s*:\s*(.+)$`)
	tsArray          = regexp.MustCompile(`^(.+)\[\]$`)
	tsRecord         = regexp.MustCompile(`^Record<\s*string\s*,\s*(.+)>$`)
	tsName           = regexp.MustCompile(`^\w+$`)
)

// parseTSInterfaces returns the exported interfaces of a TypeScript file.
func parseTSInterfaces(src string) ([]tsInterface, error) {
	src = tsComment.ReplaceAllString(src, "")
	var out []tsInterface
	for _, loc := range tsInterfaceStart.FindAllStringSubmatchIndex(src, -1) {
		open := loc[1] - 1
		end, err := matchingBrace(src, open)
		if err != nil {
			return nil, fmt.Errorf("interface %s: %w", src[loc[2]:loc[3]], err)
		}
		out = append(out, tsInterface{name: src[loc[2]:loc[3]], body: src[open+1 : end]})
	}
	return out, nil
}

// matchingBrace returns the index of the '}' closing the '{' at open.
func matchingBrace(s string, open int) (int, error) {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '{':
			depth++
		case '}':
			if depth--; depth == 0 {
				return i, nil
			}
		}
	}
	return 0, fmt.Errorf("unbalanced braces")
}

// splitTopLevel splits an object type's body into its members: at ';' and
// newlines outside braces, brackets, parentheses and angle brackets.
func splitTopLevel(body string) []string {
	var members []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '{', '[', '(', '<':
			depth++
		case '}', ']', ')', '>':
			depth--
		case ';', '\n':
			if depth == 0 {
				members = append(members, body[start:i])
				start = i + 1
			}
		}
	}
	members = append(members, body[start:])
	var out []string
	for _, m := range members {
		if m = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(m), ",")); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// checkTSObject checks the members of an object type (where names it, as
// Interface or Interface.field) against the JSON fields of the Go struct t.
func checkTSObject(where, body string, t reflect.Type) []string {
	t = derefType(t)
	if t.Kind() != reflect.Struct {
		return []string{fmt.Sprintf("%s is an object, but its Go type %s is not a struct", where, t)}
	}
	var problems []string
	for _, member := range splitTopLevel(body) {
		m := tsField.FindStringSubmatch(member)
		if m == nil {
			problems = append(problems, fmt.Sprintf("%s: cannot read the member %q (write `name?: type;`)", where, member))
			continue
		}
		name, optional, tsType := m[1], m[2] == "?", strings.TrimSpace(m[3])
		at := where + "." + name
		field, ok := jsonField(t, name)
		if !ok {
			problems = append(problems, fmt.Sprintf("%s: %s has no JSON field %q (its fields: %s)", at, t, name, strings.Join(jsonNames(t), ", ")))
			continue
		}
		if !optional && mayBeAbsent(field) {
			problems = append(problems, fmt.Sprintf("%s is declared always present, but %s.%s (json %q) may be left out or null: declare it %s?", at, t, field.Name, field.Tag.Get("json"), name))
		}
		problems = append(problems, checkTSType(at, tsType, field.Type)...)
	}
	return problems
}

// checkTSType checks a TypeScript type against the Go type of a field.
func checkTSType(at, tsType string, goType reflect.Type) []string {
	g := derefType(goType)
	mismatch := func(what string) []string {
		return []string{fmt.Sprintf("%s is %s in wire.ts, but %s in Go", at, tsType, what)}
	}
	switch {
	case tsType == "unknown" || tsType == "any":
		return nil
	case tsType == "string":
		if g.Kind() != reflect.String {
			return mismatch(g.String())
		}
	case tsType == "number":
		switch g.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		default:
			return mismatch(g.String())
		}
	case tsType == "boolean":
		if g.Kind() != reflect.Bool {
			return mismatch(g.String())
		}
	case tsArray.MatchString(tsType):
		if g.Kind() != reflect.Slice && g.Kind() != reflect.Array {
			return mismatch(g.String())
		}
		return checkTSType(at+"[]", strings.TrimSpace(tsArray.FindStringSubmatch(tsType)[1]), g.Elem())
	case tsRecord.MatchString(tsType):
		if g.Kind() != reflect.Map {
			return mismatch(g.String())
		}
		return checkTSType(at+"{}", strings.TrimSpace(tsRecord.FindStringSubmatch(tsType)[1]), g.Elem())
	case strings.HasPrefix(tsType, "{") && strings.HasSuffix(tsType, "}"):
		return checkTSObject(at, tsType[1:len(tsType)-1], g)
	case tsName.MatchString(tsType):
		want, ok := wireTypes[tsType]
		switch {
		case !ok:
			return []string{fmt.Sprintf("%s has the type %s, which is not an interface of wire.ts mapped in wireTypes", at, tsType)}
		case derefType(want) != g:
			return mismatch(g.String() + ", not " + want.String())
		}
	default:
		return []string{fmt.Sprintf("%s: the test cannot read the type %q; extend checkTSType", at, tsType)}
	}
	return nil
}

func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// jsonField finds the field of struct t encoded under name, looking into
// embedded structs as encoding/json does.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if f.Anonymous && tag == "" {
			if inner, ok := jsonField(derefType(f.Type), name); ok {
				return inner, true
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if tag == name || tag == "" && f.Name == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonNames lists the JSON field names of struct t, embedded ones included.
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-":
		case f.Anonymous && tag == "":
			names = append(names, jsonNames(derefType(f.Type))...)
		case !f.IsExported():
		case tag == "":
			names = append(names, f.Name)
		default:
			names = append(names, tag)
		}
	}
	slices.Sort(names)
	return names
}

// mayBeAbsent reports whether a field's JSON may be missing (omitempty,
// omitzero) or null (a pointer).
func mayBeAbsent(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	for _, o := range strings.Split(opts, ",") {
		if o == "omitempty" || o == "omitzero" {
			return true
		}
	}
	return f.Type.Kind() == reflect.Pointer
}
