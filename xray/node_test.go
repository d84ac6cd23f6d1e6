package xray

import (
	"context"
	"strings"
	"testing"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/internal/testutil"
	"github.com/structls/structls/workspace"
)

// valueOf runs code (an expression) on one file and returns its JSON value,
// or the evaluation error's message.
func valueOf(t *testing.T, name, source, expr string) string {
	t.Helper()
	dir := testutil.WriteTree(t, "-- "+name+" --\n"+source)
	q := Query{Driver: ".", Target: "filename", Evaluator: "return {\"matches\": [], \"value\": [" + expr + "]}"}
	res, err := Search(context.Background(), engine.Env{Snapshot: snapshotOf(t, dir), Encoding: workspace.UTF16}, q)
	if err != nil {
		return "error: " + err.Error()
	}
	if len(res.EvaluationErrors) > 0 {
		return res.EvaluationErrors[0].ErrorMessage
	}
	return jsonText(res.FileMetadata[0].Value)
}

const goSource = `package p

func f(a int, b string) (int, error) {
	if a > 0 {
		return g(a), nil
	}
	return 0, nil
}
`

// TestNodeMembers checks every XRayNode member of C4 over a Go file.
func TestNodeMembers(t *testing.T) {
	for _, tc := range []struct{ name, expr, want string }{
		{"type of the root", "node.type", `["source_file"]`},
		{"root is node", "root == node, node != root", `[true,false]`},
		{"text", `node.descendants_of_type("parameter_declaration")[1].text`, `["b string"]`},
		{"children are named and anonymous", `[c.type for c in node.descendants_of_type("parameter_list")[0].children]`,
			`[["(","parameter_declaration",",","parameter_declaration",")"]]`},
		{"named_children", `[c.type for c in node.descendants_of_type("parameter_list")[0].named_children]`,
			`[["parameter_declaration","parameter_declaration"]]`},
		{"child counts", `node.descendants_of_type("parameter_list")[0].child_count, node.descendants_of_type("parameter_list")[0].named_child_count`, `[5,2]`},
		{"child_by_field_name", `node.descendants_of_type("function_declaration")[0].child_by_field_name("name").text`, `["f"]`},
		{"child_by_field_name unknown", `node.descendants_of_type("function_declaration")[0].child_by_field_name("nope")`, `[null]`},
		{"children_by_field_name", `[c.text for c in node.descendants_of_type("parameter_declaration")[0].children_by_field_name("name")], node.children_by_field_name("nope")`, `[["a"],[]]`},
		{"node_at_byte_offset under a node", `node.descendants_of_type("block")[0].node_at_byte_offset(source.index("nil")).type, node.descendants_of_type("block")[0].node_at_byte_offset(0)`, `["nil",null]`},
		{"parent", `node.descendants_of_type("identifier")[0].parent.type, node.parent`, `["function_declaration",null]`},
		{"is_descendant_of is strict", `node.descendants_of_type("if_statement")[0].is_descendant_of("if_statement"), node.descendants_of_type("return_statement")[0].is_descendant_of("if_statement")`, `[false,true]`},
		{"descendants_of_type excludes self and is pre-order", `[r.start_point[0] for r in node.descendants_of_type("return_statement")], len(node.descendants_of_type("if_statement")[0].descendants_of_type("if_statement"))`, `[[4,6],0]`},
		{"count_descendants_of_type", `node.count_descendants_of_type("identifier"), node.count_descendants_of_type("source_file")`, `[6,0]`},
		{"enclosing includes self", `node.descendants_of_type("if_statement")[0].enclosing("if_statement").type, node.descendants_of_type("return_statement")[1].enclosing("if_statement")`, `["if_statement",null]`},
		{"enclosing_method_body", `node.descendants_of_type("return_statement")[0].enclosing_method_body().type, node.enclosing_method_body()`, `["block",null]`},
		{"node_at_byte_offset", `node.node_at_byte_offset(source.index("g(a)")).type, node.node_at_byte_offset(len(source)), node.node_at_byte_offset(-1)`, `["identifier",null,null]`},
		{"points and bytes", `node.descendants_of_type("if_statement")[0].start_point, node.descendants_of_type("if_statement")[0].end_point, node.descendants_of_type("if_statement")[0].start_byte, node.descendants_of_type("if_statement")[0].end_byte`,
			`[[3,1],[5,2],51,83]`},
		{"is_named", `[c.is_named for c in node.descendants_of_type("parameter_list")[0].children]`, `[[false,true,false,true,false]]`},
		{"has_error", `node.has_error`, `[false]`},
		{"iteration and len", `[c.type for c in node], len(node)`, `[["package_clause","function_declaration"],2]`},
		{"repr", `repr(node.descendants_of_type("if_statement")[0])`, `["XRayNode(type=\"if_statement\", start=(3, 1), end=(5, 2))"]`},
		{"nodes as dict keys", `len({node: 1}), {node: 1}[root]`, `[1,1]`},
		{"unknown attribute suggests", `node.descendant_of_type("x")`, `line 1, column 38: XRayNode has no attribute "descendant_of_type" (did you mean .descendants_of_type?)`},
		{"unknown attribute far from all", `node.zzz`, `line 1, column 38: XRayNode has no attribute "zzz"; XRayNode members: ` + strings.Join(nodeMembers, ", ")},
		{"hasattr", `hasattr(node, "parent"), hasattr(node, "nope")`, `[true,false]`},
		{"wrong argument", `node.enclosing(3)`, `line 1, column 48: enclosing: for parameter 1: got int, want string (XRayNode.enclosing takes one string, the node type)`},
		{"lang and file_path", `lang, file_path`, `["go","p.go"]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := valueOf(t, "p.go", goSource, tc.expr); got != tc.want {
				t.Errorf("%s\n got %s\nwant %s", tc.expr, got, tc.want)
			}
		})
	}
}

// TestNodeHasErrorAndTryResources covers has_error on a broken file, a
// field with several children, and is_in_try_resources on Java.
func TestNodeHasErrorAndTryResources(t *testing.T) {
	if got := valueOf(t, "bad.go", "package p\nfunc (\n", "node.has_error"); got != `[true]` {
		t.Errorf("has_error on a broken file = %s", got)
	}
	several := valueOf(t, "h.go", "package p\nfunc h(a, b, c int) {}\n", `[c.text for c in node.descendants_of_type("parameter_declaration")[0].children_by_field_name("name")]`)
	if several != `[["a","b","c"]]` {
		t.Errorf("children_by_field_name over several children = %s", several)
	}
	java := `class A { void m() throws Exception { try (var r = open()) { use(r); } open(); } }`
	got := valueOf(t, "A.java", java, `[c.is_in_try_resources() for c in node.descendants_of_type("method_invocation")]`)
	if got != `[[true,false,false]]` {
		t.Errorf("is_in_try_resources = %s", got)
	}
}
