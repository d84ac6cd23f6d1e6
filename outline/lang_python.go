package outline

// Python (and Starlark, its dialect): imports, classes, functions and
// module-level assignments (UPPER_CASE ones are constants), also inside a
// top-level if/try block (`if TYPE_CHECKING:`, `try: import …`); a class's
// fields, methods and nested classes are members. Exported: listed in
// __all__ when the module has one, otherwise no leading underscore.
func init() {
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
			Rule{Match: under + "expression_statement/assignment", Symbol: "constant", Name: "@left=identifier", NameIs: `^[A-Z][A-Z0-9_]*$`, Exported: "python"},
			Rule{Match: under + "expression_statement/assignment", Symbol: "variable", Name: "@left=identifier", Exported: "python"},
		)
	}
	register([]string{"python", "starlark"}, &Spec{Rules: rules})
}

// pythonBlocks are where top-level declarations sit: the module itself, or
// the blocks of a top-level if or try statement.
var pythonBlocks = []string{
	"",
	"if_statement/@consequence=block/",
	"if_statement/@alternative=else_clause/@body=block/",
	"if_statement/@alternative=elif_clause/@consequence=block/",
	"try_statement/@body=block/",
	"try_statement/except_clause/block/",
	"try_statement/else_clause/@body=block/",
	"try_statement/finally_clause/block/",
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
