package xray

import (
	"strings"
	"unicode/utf8"

	flat "github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Explore mode limits (includeAst).
const (
	DefaultDebugNodes = 50
	MaxDebugNodes     = 500
	textPreviewRunes  = 80
)

// AstNode is one node of a match's kind tree in explore mode: what a person
// needs to write an evaluator. Truncated marks a node whose children were
// left out at the maxDebugNodes cap.
type AstNode struct {
	Type        string          `json:"type"`
	Named       bool            `json:"named"`
	Field       string          `json:"field,omitempty"` // the grammar field it fills in its parent
	Range       workspace.Range `json:"range"`
	TextPreview string          `json:"textPreview"`
	Children    []*AstNode      `json:"children"`
	Truncated   bool            `json:"truncated,omitempty"`
}

// lineSubject returns the node a match on line (1-based) is about: the
// largest node that starts at the line's first non-blank byte (for
// `s.run(x);` the statement, not the identifier s); the root for a line
// outside the file.
func lineSubject(t *flat.Tree, mapper *workspace.Mapper, line int) int32 {
	if line < 1 || line > mapper.LineCount() {
		return 0
	}
	start := mapper.LineStart(line - 1)
	for start < len(t.Source) && (t.Source[start] == ' ' || t.Source[start] == '\t') {
		start++
	}
	n := nodeAtByteOffset(t, 0, start)
	if n < 0 {
		return 0
	}
	for p := t.Nodes[n].Parent; p >= 0 && t.Nodes[p].Start == t.Nodes[n].Start; p = t.Nodes[p].Parent {
		n = p
	}
	return n
}

// kindTree builds the tree under node from, breadth-first, at most limit nodes.
func kindTree(t *flat.Tree, mapper *workspace.Mapper, enc workspace.Encoding, from int32, limit int) *AstNode {
	newNode := func(i int32) *AstNode {
		n := &t.Nodes[i]
		rng, _ := mapper.OffsetRange(int(n.Start), int(n.End), enc)
		a := &AstNode{Type: t.Kind(i), Named: n.IsNamed(), Range: rng, TextPreview: preview(t.Text(i)), Children: []*AstNode{}}
		if n.Field != 0 {
			a.Field = t.Lang.FieldNameForId(n.Field)
		}
		return a
	}
	root := newNode(from)
	type item struct {
		index int32
		node  *AstNode
	}
	queue := []item{{from, root}}
	count := 1
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for c := t.Nodes[cur.index].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if count == limit {
				cur.node.Truncated = true
				break
			}
			child := newNode(c)
			cur.node.Children = append(cur.node.Children, child)
			queue = append(queue, item{c, child})
			count++
		}
	}
	return root
}

// preview is a node's text on one line (runs of white space made one
// space), cut at 80 characters with "…".
func preview(text []byte) string {
	const look = 4096 // enough text to fill a preview, whatever the indentation
	s := strings.Join(strings.Fields(strings.ToValidUTF8(string(text[:min(len(text), look)]), "\uFFFD")), " ")
	if utf8.RuneCountInString(s) <= textPreviewRunes && len(text) <= look {
		return s
	}
	r := []rune(s)
	return string(r[:min(len(r), textPreviewRunes-1)]) + "…"
}
