package outline

// Python (and Starlark, its dialect): imports, classes, functions and
// module-level assignments (UPPER_CASE ones are constants), also inside
// the module's if, for, with and try blocks (`if TYPE_CHECKING:`, `try:
// import …`), which bind module names too; a class's
// fields, methods and nested classes are members. Exported: listed in
// __all__ when the module has one, otherwise no leading underscore.
var _ = define(func() {
	var rules []Rule
	for _, under := range pythonBlocks {
		rules = append(rules,
			Rule{Match: under + "import_statement", Symbol: "module", Name: "@name=dotted_name", Import: true, Exported: "never"},
			Rule{Match: under + "import_statement", Symbol: "module", Name: "@name=aliased_import/@name", Import: true, Exported: "never"},
			Rule{Match: under + "import_from_statement", Symbol: "module", Name: "@module_name", Import: true, Exported: "never"},
			Rule{Match: under + "future_import_statement", Symbol: "module", Label: "__future__", Import: true, Exported: "never"},
			pythonClass(under+"class_definition"),
			pythonClass(under+"decorated_definition/@definition=class_definition"),
			Rule{Match: under + "function_definition", Symbol: "function", Name: "@name", Exported: "python", Header: "@body"},
			Rule{Match: under + "decorated_definition/@definition=function_definition", Symbol: "function", Name: "@name", Exported: "python", Header: "@body"},
			Rule{Match: under + "expression_statement/assignment", Symbol: "constant", Name: "@left=identifier", NameIs: `^[A-Z_][A-Z0-9_]*$`, Exported: "python"},
			Rule{Match: under + "expression_statement/assignment", Symbol: "variable", Name: "@left=identifier", Exported: "python"},
		)
	}
	register([]string{"python", "starlark"}, &Spec{Rules: rules})
})

// pythonBlocks are where module-level declarations sit: the module itself,
// or the blocks of its compound statements (if, for, while, with, try and
// match), however nested, but not function or class bodies.
var pythonBlocks = []string{
	"~if_statement|elif_clause|else_clause|for_statement|while_statement|with_statement|try_statement|except_clause|" +
		"except_group_clause|finally_clause|match_statement|case_clause|block/",
}

func pythonClass(match string) Rule {
	return Rule{Match: match, Symbol: "class", Name: "@name", Exported: "python", Header: "@body", Members: []Rule{
		{Match: "@body/expression_statement/assignment", Symbol: "field", Name: "@left=identifier", Exported: "public-name"},
		{Match: "@body/function_definition", Symbol: "method", Name: "@name", Exported: "public-name", Header: "@body"},
		{Match: "@body/decorated_definition/@definition=function_definition", Symbol: "method", Name: "@name", Exported: "public-name", Header: "@body"},
		{Match: "@body/class_definition", Symbol: "class", Name: "@name", Exported: "public-name", Header: "@body"},
		{Match: "@body/decorated_definition/@definition=class_definition", Symbol: "class", Name: "@name", Exported: "public-name", Header: "@body"},
	}}
}
