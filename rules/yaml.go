package rules

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// yamlKind is the shape of a YAML value.
type yamlKind int

const (
	yamlNull yamlKind = iota
	yamlScalar
	yamlMap
	yamlSeq
)

// yamlValue is a YAML value with where it was written, so that an error
// can name the line and the field. Rules are decoded from these by hand
// (not by struct tags) to say exactly what each field accepts.
type yamlValue struct {
	kind      yamlKind
	line, col int    // 1-based
	path      string // the field path from the document root, e.g. rule.inside.kind
	text      string // a scalar's text, unquoted
	quoted    bool   // a quoted scalar: always a string
	keys      []string
	keyAt     [][2]int     // each key's line and column
	values    []*yamlValue // a map's values, in the order of keys
	items     []*yamlValue // a sequence's items
	// size counts the values below and including this one, and height
	// the levels, with every alias expanded (an alias shares its anchor's
	// value): compiling walks the expansion.
	size, height int
}

// yamlDocument is one document of a YAML text and the line it starts on.
type yamlDocument struct {
	root *yamlValue
	line int
}

// parseYAML splits a YAML text into its documents.
func parseYAML(file string, src []byte) ([]yamlDocument, error) {
	if err := checkYAMLText(file, src); err != nil {
		return nil, err
	}
	src = normalizeYAMLText(src)
	// Duplicate keys are refused by addPair, which knows an explicit key
	// (`? |` block keys, as ast-grep writes long snapshot keys) by its
	// text: the library takes every `?` for the same key.
	f, err := parser.ParseBytes(src, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return nil, yamlSyntaxError(file, err)
	}
	clipped, stripped := clipStripHeaders(src, f)
	if clipped != nil {
		if f, err = parser.ParseBytes(clipped, 0, parser.AllowDuplicateMapKey()); err != nil {
			return nil, yamlSyntaxError(file, err)
		}
	}
	var docs []yamlDocument
	for _, d := range f.Docs {
		if d.Body == nil {
			continue
		}
		c := converter{file: file, anchors: map[string]*yamlValue{}, stripped: stripped}
		root, err := c.convert(d.Body, "", 0)
		if err != nil {
			return nil, err
		}
		if root.kind == yamlNull {
			continue
		}
		docs = append(docs, yamlDocument{root: root, line: root.line})
	}
	return docs, nil
}

// normalizeYAMLText gives the YAML library the text as a YAML 1.2 reader
// (ast-grep's) sees it: without a byte order mark, with every line break
// (CRLF, CR) a line feed, and ending with one, so that a block scalar at
// the end of a file without a final newline keeps its line break (`|`,
// `>`, `|+`), as in ast-grep. Line numbers do not change.
func normalizeYAMLText(src []byte) []byte {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	if bytes.IndexByte(src, '\r') >= 0 {
		src = bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n"))
		src = bytes.ReplaceAll(src, []byte("\r"), []byte("\n"))
	}
	if len(src) > 0 && src[len(src)-1] != '\n' {
		src = append(src[:len(src):len(src)], '\n')
	}
	return src
}

// syntaxPosition reads the "[line:column] " prefix of the YAML library's
// syntax errors.
var syntaxPosition = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[(\d+):(\d+)\] (.*)`) })

// yamlSyntaxError turns the library's error into an Error at its position.
func yamlSyntaxError(file string, err error) *Error {
	msg := oneLine(err.Error())
	e := &Error{File: file, Message: "not valid YAML: " + msg}
	if m := syntaxPosition().FindStringSubmatch(msg); m != nil {
		e.Line, _ = strconv.Atoi(m[1])
		e.Column, _ = strconv.Atoi(m[2])
		e.Message = "not valid YAML: " + m[3]
	}
	return e
}

// oneLine keeps the first line of a multi-line library message.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// converter turns goccy's AST into yamlValues, resolving anchors.
type converter struct {
	file     string
	anchors  map[string]*yamlValue
	stripped map[[2]int]bool // the block scalars read as clip that strip (yaml_chomp.go)
}

// maxYAMLDepth bounds nesting: a hostile rule file must not exhaust the stack.
const maxYAMLDepth = 200

func (c *converter) convert(n ast.Node, path string, depth int) (*yamlValue, error) {
	if depth > maxYAMLDepth {
		return nil, &Error{File: c.file, Field: path, Message: fmt.Sprintf("nested more than %d levels deep: simplify the rule", maxYAMLDepth)}
	}
	v := &yamlValue{path: path}
	if tok := n.GetToken(); tok != nil && tok.Position != nil {
		v.line, v.col = tok.Position.Line, tok.Position.Column
	}
	switch n := n.(type) {
	case *ast.NullNode:
		v.kind = yamlNull
	case *ast.StringNode:
		v.kind, v.text = yamlScalar, n.Value
		v.quoted = n.Token != nil && (n.Token.Type == token.DoubleQuoteType || n.Token.Type == token.SingleQuoteType)
	case *ast.LiteralNode:
		v.kind, v.text, v.quoted = yamlScalar, c.literalText(n), true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
		v.kind, v.text = yamlScalar, n.GetToken().Value
	case *ast.MappingNode:
		v.kind = yamlMap
		for _, mv := range n.Values {
			if err := c.addPair(v, mv, depth); err != nil {
				return nil, err
			}
		}
	case *ast.MappingValueNode:
		v.kind = yamlMap
		if err := c.addPair(v, n, depth); err != nil {
			return nil, err
		}
	case *ast.SequenceNode:
		v.kind = yamlSeq
		for i, item := range n.Values {
			iv, err := c.convert(item, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			v.items = append(v.items, iv)
		}
	case *ast.AnchorNode:
		inner, err := c.convert(n.Value, path, depth+1)
		if err != nil {
			return nil, err
		}
		c.anchors[n.Name.String()] = inner
		return inner, nil
	case *ast.AliasNode:
		target, ok := c.anchors[n.Value.String()]
		if !ok {
			return nil, &Error{File: c.file, Line: v.line, Column: v.col, Field: path, Message: fmt.Sprintf("alias *%s names no anchor defined before it: define &%s first", n.Value, n.Value)}
		}
		return target, nil
	case *ast.TagNode:
		return c.convert(n.Value, path, depth+1)
	case *ast.MappingKeyNode:
		return c.convert(n.Value, path, depth+1)
	default:
		return nil, &Error{File: c.file, Line: v.line, Column: v.col, Field: path, Message: fmt.Sprintf("unsupported YAML (%s): write plain maps, lists and scalars", n.Type())}
	}
	return v, c.measure(v)
}

// measure sets a map's or a list's expanded size and height from its
// children's, refusing a value past maxYAMLNodes or maxYAMLDepth: an
// alias costs what its anchor's value does, so an alias bomb stops here,
// after the text's size in work, not after its expansion's.
func (c *converter) measure(v *yamlValue) error {
	v.size, v.height = 1, 1
	for _, child := range append(v.values[:len(v.values):len(v.values)], v.items...) {
		v.size += child.size
		v.height = max(v.height, child.height+1)
	}
	if v.size > maxYAMLNodes {
		return &Error{File: c.file, Line: v.line, Column: v.col, Field: v.path, Message: fmt.Sprintf("more than %d values once its aliases are expanded: write the rule without nesting aliases in aliases", maxYAMLNodes)}
	}
	if v.height > maxYAMLDepth {
		return &Error{File: c.file, Line: v.line, Column: v.col, Field: v.path, Message: fmt.Sprintf("nested more than %d levels deep once its aliases are expanded: simplify the rule", maxYAMLDepth)}
	}
	return nil
}

func (c *converter) addPair(m *yamlValue, mv *ast.MappingValueNode, depth int) error {
	keyNode := ast.Node(mv.Key)
	if explicit, ok := keyNode.(*ast.MappingKeyNode); ok && explicit.Value != nil {
		keyNode = explicit.Value
	}
	key, quoted := keyNode.GetToken().Value, false
	switch k := keyNode.(type) {
	case *ast.StringNode:
		key = k.Value
		quoted = k.Token != nil && (k.Token.Type == token.DoubleQuoteType || k.Token.Type == token.SingleQuoteType)
	case *ast.LiteralNode:
		key, quoted = c.literalText(k), true
	}
	pos := keyNode.GetToken().Position
	if key == "<<" && !quoted {
		return &Error{File: c.file, Line: pos.Line, Column: pos.Column, Field: m.path,
			Message: "merge keys (<<) are not supported: write the fields out"}
	}
	if i := slices.Index(m.keys, key); i >= 0 {
		return &Error{File: c.file, Line: pos.Line, Column: pos.Column, Field: joinPath(m.path, key),
			Message: fmt.Sprintf("this key is given twice (first on line %d), which ast-grep refuses too: keep one", m.keyAt[i][0])}
	}
	val, err := c.convert(mv.Value, joinPath(m.path, key), depth+1)
	if err != nil {
		return err
	}
	if m.line == 0 || len(m.keys) == 0 {
		m.line, m.col = pos.Line, pos.Column
	}
	m.keys = append(m.keys, key)
	m.keyAt = append(m.keyAt, [2]int{pos.Line, pos.Column})
	m.values = append(m.values, val)
	return nil
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// get returns the value of a map's key, or nil.
func (v *yamlValue) get(key string) *yamlValue {
	if v == nil || v.kind != yamlMap {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.values[i]
		}
	}
	return nil
}

// describe names a value's shape for error messages.
func (v *yamlValue) describe() string {
	switch v.kind {
	case yamlMap:
		return "a map"
	case yamlSeq:
		return "a list"
	case yamlNull:
		return "null"
	}
	return fmt.Sprintf("%q", v.text)
}

// yamlFloat matches a YAML 1.2 decimal number.
var yamlFloat = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`)
})

// toAny converts a value to plain Go values (map[string]any, []any,
// string, int64, float64, bool, nil), for metadata and test files.
func (v *yamlValue) toAny() any {
	switch v.kind {
	case yamlMap:
		m := make(map[string]any, len(v.keys))
		for i, k := range v.keys {
			m[k] = v.values[i].toAny()
		}
		return m
	case yamlSeq:
		out := make([]any, len(v.items))
		for i, it := range v.items {
			out[i] = it.toAny()
		}
		return out
	case yamlNull:
		return nil
	}
	if v.quoted {
		return v.text
	}
	if n, err := strconv.ParseInt(v.text, 10, 64); err == nil {
		return n
	}
	if yamlFloat().MatchString(v.text) { // not Go's other spellings: `infinity`, `NaN`, `0x1p4` are strings
		if f, err := strconv.ParseFloat(v.text, 64); err == nil {
			return f
		}
	}
	if b, err := strconv.ParseBool(v.text); err == nil && (v.text == "true" || v.text == "false") {
		return b
	}
	return v.text
}
