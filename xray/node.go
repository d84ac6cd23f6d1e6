package xray

import (
	"fmt"
	"slices"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/structls/structls/internal/suggest"
	flat "github.com/structls/structls/syntax"
)

// Node is the XRayNode an evaluator sees: one node of a file's flat tree.
// Every member reads the flat arrays in Go; nothing crosses into C. Two
// Nodes are equal when they are the same node of the same tree.
type Node struct {
	tree   *flat.Tree
	index  int32
	budget *budget // the evaluation's; the node lists members return are charged to it
}

var (
	_ starlark.HasAttrs   = (*Node)(nil)
	_ starlark.Iterable   = (*Node)(nil)
	_ starlark.Sequence   = (*Node)(nil)
	_ starlark.Comparable = (*Node)(nil)
	_ starlark.Value      = (*Node)(nil)
)

// at wraps node i of n's tree, in n's evaluation.
func (n *Node) at(i int32) *Node { return &Node{tree: n.tree, index: i, budget: n.budget} }

// orNone wraps node i of n's tree, or is None for -1.
func (n *Node) orNone(i int32) starlark.Value {
	if i < 0 {
		return starlark.None
	}
	return n.at(i)
}

// nodeList is a list of nodes, charged to the evaluation's budget: a loop
// keeping node.descendants_of_type(...) of a large file costs few steps
// and much memory.
func (n *Node) nodeList(indexes []int32) (*starlark.List, error) {
	if n.budget != nil {
		if err := n.budget.charge("XRayNode lists", listCost+nodeCost*len(indexes)); err != nil {
			return nil, err
		}
	}
	nodes := make([]Node, len(indexes)) // one allocation for the list's nodes, not one each
	out := make([]starlark.Value, len(indexes))
	for i, index := range indexes {
		nodes[i] = Node{tree: n.tree, index: index, budget: n.budget}
		out[i] = &nodes[i]
	}
	return starlark.NewList(out), nil
}

// listCost and nodeCost are the memory of a list and of a node in it (the
// Node and the interface holding it).
const (
	listCost = 32
	nodeCost = 48
)

func (n *Node) raw() *flat.Node { return &n.tree.Nodes[n.index] }

// String is the repr: XRayNode(type='call_expression', start=(3, 1), end=(3, 9)).
func (n *Node) String() string {
	start, end := n.tree.StartPoint(n.index), n.tree.EndPoint(n.index)
	return fmt.Sprintf("XRayNode(type=%s, start=(%d, %d), end=(%d, %d))",
		starlark.String(n.tree.Kind(n.index)).String(), start.Row, start.Column, end.Row, end.Column)
}

// Type is the Starlark type name.
func (n *Node) Type() string { return "XRayNode" }

// Freeze does nothing: a Node is immutable.
func (n *Node) Freeze() {}

// Truth is always true, as a Python object's.
func (n *Node) Truth() starlark.Bool { return starlark.True }

// Hash lets nodes be dict keys and set members.
func (n *Node) Hash() (uint32, error) {
	return uint32(n.index)*2654435761 ^ uint32(len(n.tree.Nodes)), nil
}

// CompareSameType supports == and != (the same node of the same tree).
func (n *Node) CompareSameType(op syntax.Token, y starlark.Value, depth int) (bool, error) {
	other := y.(*Node)
	same := n.tree == other.tree && n.index == other.index
	switch op {
	case syntax.EQL:
		return same, nil
	case syntax.NEQ:
		return !same, nil
	}
	return false, fmt.Errorf("XRayNode supports only == and !=, not %s (compare start_byte values to order nodes)", op)
}

// Len is the number of children (named and anonymous), as len(node).
func (n *Node) Len() int { return n.tree.ChildCount(n.index) }

// Iterate iterates all children.
func (n *Node) Iterate() starlark.Iterator {
	return &childIterator{parent: n, next: n.raw().FirstChild}
}

type childIterator struct {
	parent *Node
	next   int32
}

func (it *childIterator) Next(p *starlark.Value) bool {
	if it.next < 0 {
		return false
	}
	*p = it.parent.at(it.next)
	it.next = it.parent.tree.Nodes[it.next].NextSibling
	return true
}

func (it *childIterator) Done() {}

// nodeMembers are the public members of XRayNode (docs/xray.md, XRayNode).
var nodeMembers = []string{
	"child_by_field_name", "child_count", "children", "children_by_field_name", "count_descendants_of_type",
	"descendants_of_type", "enclosing", "enclosing_method_body", "end_byte", "end_point", "has_error",
	"is_descendant_of", "is_in_try_resources", "is_named", "named_child_count", "named_children",
	"node_at_byte_offset", "parent", "start_byte", "start_point", "text", "type",
}

// AttrNames lists the members, for dir().
func (n *Node) AttrNames() []string { return nodeMembers }

// Attr returns a property's value or a bound method. An unknown name is an
// error that names the members it may have meant.
func (n *Node) Attr(name string) (starlark.Value, error) {
	r := n.raw()
	switch name {
	case "type":
		return starlark.String(n.tree.Kind(n.index)), nil
	case "text":
		text := n.tree.Text(n.index)
		if n.budget != nil {
			if err := n.budget.charge("XRayNode.text", len(text)); err != nil { // a copy each time
				return nil, err
			}
		}
		return starlark.String(validText(text)), nil
	case "children":
		return n.nodeList(n.children(false))
	case "named_children":
		return n.nodeList(n.children(true))
	case "child_count":
		return starlark.MakeInt(n.tree.ChildCount(n.index)), nil
	case "named_child_count":
		return starlark.MakeInt(len(n.children(true))), nil
	case "parent":
		return n.orNone(r.Parent), nil
	case "start_point":
		return point(n.tree.StartPoint(n.index)), nil
	case "end_point":
		return point(n.tree.EndPoint(n.index)), nil
	case "start_byte":
		return starlark.MakeInt(int(r.Start)), nil
	case "end_byte":
		return starlark.MakeInt(int(r.End)), nil
	case "is_named":
		return starlark.Bool(r.IsNamed()), nil
	case "has_error":
		return starlark.Bool(n.hasError()), nil
	}
	if m, ok := nodeMethods[name]; ok {
		return starlark.NewBuiltin(name, func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			return m(n, b, args, kwargs)
		}), nil
	}
	// Starlark adds " (did you mean .NAME?)" for a near miss, from AttrNames.
	return nil, starlark.NoSuchAttrError(fmt.Sprintf("XRayNode has no attribute %q%s", name, listMembersUnlessNear(name)))
}

// listMembersUnlessNear lists the members when none is near name (when one
// is, Starlark names it).
func listMembersUnlessNear(name string) string {
	for _, m := range nodeMembers {
		if suggest.Distance(strings.ToLower(name), m) <= 2 {
			return ""
		}
	}
	return "; XRayNode members: " + strings.Join(nodeMembers, ", ")
}

func point(p flat.Point) starlark.Tuple {
	return starlark.Tuple{starlark.MakeInt(int(p.Row)), starlark.MakeInt(int(p.Column))}
}

// children returns the indexes of the node's children, or of its named ones.
func (n *Node) children(namedOnly bool) []int32 {
	var out []int32
	for c := n.raw().FirstChild; c >= 0; c = n.tree.Nodes[c].NextSibling {
		if !namedOnly || n.tree.Nodes[c].IsNamed() {
			out = append(out, c)
		}
	}
	return out
}

// subtreeEnd returns the index just past node i's subtree: the nodes are in
// pre-order, so the subtree is the run [i, end).
func subtreeEnd(t *flat.Tree, i int32) int32 {
	for ; i >= 0; i = t.Nodes[i].Parent {
		if next := t.Nodes[i].NextSibling; next >= 0 {
			return next
		}
	}
	return int32(len(t.Nodes))
}

func (n *Node) hasError() bool {
	for i, end := n.index, subtreeEnd(n.tree, n.index); i < end; i++ {
		if r := &n.tree.Nodes[i]; r.IsError() || r.IsMissing() {
			return true
		}
	}
	return false
}

// descendants calls visit for each strict descendant of kind, in pre-order.
func (n *Node) descendants(kind string, visit func(int32)) {
	for i, end := n.index+1, subtreeEnd(n.tree, n.index); i < end; i++ {
		if n.tree.Kind(i) == kind {
			visit(i)
		}
	}
}

// enclosing returns the first node of one of the kinds walking up from i,
// i included; -1 when there is none.
func enclosing(t *flat.Tree, i int32, kinds ...string) int32 {
	for ; i >= 0; i = t.Nodes[i].Parent {
		if slices.Contains(kinds, t.Kind(i)) {
			return i
		}
	}
	return -1
}

// fieldID returns the grammar's id of a field name; 0 when the grammar has none.
func (n *Node) fieldID(name string) uint16 { return n.tree.Lang.FieldIdForName(name) }

// method is an XRayNode method's implementation.
type method func(n *Node, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error)

// stringArg unpacks a method's one string argument.
func stringArg(b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple, name string) (string, error) {
	var s string
	err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &s)
	if err != nil {
		return "", fmt.Errorf("%w (XRayNode.%s takes one string, the %s)", err, b.Name(), name)
	}
	return s, nil
}

// methodEnclosingBodyKinds are the declarations enclosing_method_body looks for (C4).
var methodEnclosingBodyKinds = []string{
	"method_declaration", "function_declaration", "function_definition", "fun_declaration", "method_definition", "function_item",
}

var nodeMethods = map[string]method{
	"child_by_field_name": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		name, err := stringArg(b, args, kw, "field name")
		if err != nil {
			return nil, err
		}
		return n.orNone(n.childByField(n.fieldID(name))), nil
	},
	"children_by_field_name": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		name, err := stringArg(b, args, kw, "field name")
		if err != nil {
			return nil, err
		}
		var out []int32
		if id := n.fieldID(name); id != 0 {
			for c := n.raw().FirstChild; c >= 0; c = n.tree.Nodes[c].NextSibling {
				if n.tree.Nodes[c].Field == id {
					out = append(out, c)
				}
			}
		}
		return n.nodeList(out)
	},
	"is_descendant_of": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		kind, err := stringArg(b, args, kw, "node type")
		if err != nil {
			return nil, err
		}
		return starlark.Bool(enclosing(n.tree, n.raw().Parent, kind) >= 0), nil
	},
	"descendants_of_type": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		kind, err := stringArg(b, args, kw, "node type")
		if err != nil {
			return nil, err
		}
		var out []int32
		n.descendants(kind, func(i int32) { out = append(out, i) })
		return n.nodeList(out)
	},
	"count_descendants_of_type": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		kind, err := stringArg(b, args, kw, "node type")
		if err != nil {
			return nil, err
		}
		count := 0
		n.descendants(kind, func(int32) { count++ })
		return starlark.MakeInt(count), nil
	},
	"enclosing": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		kind, err := stringArg(b, args, kw, "node type")
		if err != nil {
			return nil, err
		}
		return n.orNone(enclosing(n.tree, n.index, kind)), nil
	},
	"is_in_try_resources": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
			return nil, err
		}
		return starlark.Bool(n.inTryResources()), nil
	},
	"enclosing_method_body": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 0); err != nil {
			return nil, err
		}
		decl := enclosing(n.tree, n.raw().Parent, methodEnclosingBodyKinds...)
		if decl < 0 {
			return starlark.None, nil
		}
		d := n.at(decl)
		body := d.childByField(d.fieldID("body"))
		if body < 0 {
			body = d.childByField(d.fieldID("block"))
		}
		return n.orNone(body), nil
	},
	"node_at_byte_offset": func(n *Node, b *starlark.Builtin, args starlark.Tuple, kw []starlark.Tuple) (starlark.Value, error) {
		var off int
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kw, 1, &off); err != nil {
			return nil, fmt.Errorf("%w (node_at_byte_offset takes one int, a byte offset in the file)", err)
		}
		return n.orNone(nodeAtByteOffset(n.tree, n.index, off)), nil
	},
}

func (n *Node) childByField(id uint16) int32 {
	if id == 0 {
		return -1
	}
	for c := n.raw().FirstChild; c >= 0; c = n.tree.Nodes[c].NextSibling {
		if n.tree.Nodes[c].Field == id {
			return c
		}
	}
	return -1
}

// inTryResources reports whether a strict ancestor is a Java
// resource_specification inside a try_with_resources_statement, or a
// resource inside a resource_specification.
func (n *Node) inTryResources() bool {
	t := n.tree
	for a := n.raw().Parent; a >= 0; a = t.Nodes[a].Parent {
		p := t.Nodes[a].Parent
		if p < 0 {
			return false
		}
		switch kind, parent := t.Kind(a), t.Kind(p); {
		case kind == "resource_specification" && parent == "try_with_resources_statement",
			kind == "resource" && parent == "resource_specification":
			return true
		}
	}
	return false
}

// nodeAtByteOffset returns the smallest named node under from (from
// included) whose range [start, end) holds off, descending into the first
// child that holds it; -1 when from does not hold off.
func nodeAtByteOffset(t *flat.Tree, from int32, off int) int32 {
	holds := func(i int32) bool { r := &t.Nodes[i]; return int(r.Start) <= off && off < int(r.End) }
	if off < 0 || !holds(from) {
		return -1
	}
	best := from
	for cur := from; ; {
		next := int32(-1)
		for c := t.Nodes[cur].FirstChild; c >= 0; c = t.Nodes[c].NextSibling {
			if holds(c) {
				next = c
				break
			}
		}
		if next < 0 {
			break
		}
		cur = next
		if t.Nodes[cur].IsNamed() {
			best = cur
		}
	}
	if !t.Nodes[best].IsNamed() {
		return -1
	}
	return best
}

// nodeFinder answers nodeAtByteOffset for many offsets under one node in
// one pass when they come in increasing order, as a file's driver hits
// do: it keeps the path of nodes down to the last answer and, for each
// node of it, the child where its scan of children stopped. For the next
// offset it climbs only as far as needed and goes on through the children
// from where it stopped, never again from a first child: a child that ends
// before an offset ends before every later one. An offset lower than the
// last starts from the top again (still correct, only slower).
type nodeFinder struct {
	t    *flat.Tree
	from int32
	path []finderLevel // from, then a child of it holding the last offset, and so on down
	last int
}

// finderLevel is a node of a nodeFinder's path and where its scan of
// children goes on.
type finderLevel struct {
	node    int32
	next    int32 // the first child not yet passed (-1: none left)
	started bool  // next is set
}

func newNodeFinder(t *flat.Tree, from int32) *nodeFinder {
	return &nodeFinder{t: t, from: from, path: []finderLevel{{node: from}}}
}

// find is nodeAtByteOffset(t, from, off).
func (f *nodeFinder) find(off int) int32 {
	t := f.t
	holds := func(i int32) bool { r := &t.Nodes[i]; return int(r.Start) <= off && off < int(r.End) }
	if off < 0 || !holds(f.from) {
		return -1
	}
	if off < f.last {
		f.path = append(f.path[:0], finderLevel{node: f.from})
	}
	f.last = off
	for len(f.path) > 1 && !holds(f.path[len(f.path)-1].node) {
		f.path = f.path[:len(f.path)-1]
	}
	for {
		top := &f.path[len(f.path)-1]
		c := t.Nodes[top.node].FirstChild
		if top.started {
			c = top.next
		}
		for c >= 0 && !holds(c) && int(t.Nodes[c].Start) <= off {
			c = t.Nodes[c].NextSibling // it ends before off
		}
		top.next, top.started = c, true
		if c < 0 || !holds(c) {
			break
		}
		f.path = append(f.path, finderLevel{node: c})
	}
	for i := len(f.path) - 1; i > 0; i-- {
		if n := f.path[i].node; t.Nodes[n].IsNamed() {
			return n
		}
	}
	if !t.Nodes[f.from].IsNamed() {
		return -1
	}
	return f.from
}
