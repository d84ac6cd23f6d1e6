package outline

// Solidity, Julia, R, Perl, Groovy, Erlang, Odin, PowerShell, Verilog,
// Clojure, Nix and TLA+.
var _ = define(func() {
	solMembers := []Rule{
		{Match: "@body/function_definition", Symbol: "method", Name: "@name", Header: "@body", Exported: "lacks:visibility/private|internal"},
		{Match: "@body/constructor_definition", Symbol: "constructor", Label: "constructor", Header: "@body"},
		{Match: "@body/state_variable_declaration", Symbol: "field", Name: "@name", Exported: "has:visibility/public"},
		{Match: "@body/event_definition", Symbol: "event", Name: "@name"},
		{Match: "@body/modifier_definition", Symbol: "function", Name: "@name"},
		{Match: "@body/struct_declaration", Symbol: "struct", Name: "@name"},
		{Match: "@body/enum_declaration", Symbol: "enum", Name: "@name"},
	}
	register([]string{"solidity"}, &Spec{Rules: []Rule{
		{Match: "import_directive", Symbol: "module", Name: "@source", Import: true, Exported: "never"},
		{Match: "contract_declaration", Symbol: "class", Name: "@name", Header: "@body", Members: solMembers},
		{Match: "interface_declaration", Symbol: "interface", Name: "@name", Header: "@body", Members: solMembers},
		{Match: "library_declaration", Symbol: "module", Name: "@name", Header: "@body", Members: solMembers},
		{Match: "struct_declaration", Symbol: "struct", Name: "@name", Members: []Rule{{Match: "@body/struct_member", Symbol: "field", Name: "@name"}}},
		{Match: "enum_declaration", Symbol: "enum", Name: "@name"},
		{Match: "function_definition", Symbol: "function", Name: "@name", Header: "@body"},
	}})
	// Julia: modules (their definitions as members), structs, abstract
	// types, functions (both forms), constants; exported: named by export.
	var juliaDefs []Rule
	for range 2 {
		juliaDefs = []Rule{
			{Match: "module_definition", Symbol: "module", Name: "@name", Members: juliaDefs},
			{Match: "using_statement|import_statement", Symbol: "module", Name: "*", Import: true, Exported: "never"},
			{Match: "struct_definition", Symbol: "struct", Name: "type_head/**/identifier", Members: []Rule{{Match: "typed_expression", Symbol: "field", Name: "identifier"}}},
			{Match: "abstract_definition", Symbol: "interface", Name: "type_head/**/identifier"},
			{Match: "function_definition", Symbol: "function", Name: "signature/call_expression/identifier|field_expression"},
			{Match: "assignment", Symbol: "function", Name: "call_expression/identifier", If: "has:call_expression"},
			{Match: "const_statement/assignment", Symbol: "constant", Name: "identifier"},
			{Match: "macro_definition", Symbol: "macro", Name: "signature/call_expression/identifier"},
		}
	}
	register([]string{"julia"}, &Spec{Rules: juliaDefs})
	register([]string{"r"}, &Spec{Rules: []Rule{
		{Match: "call", Symbol: "module", Name: "@arguments/argument", Import: true, Exported: "never", If: "text:@function~^(library|require|source)$"},
		{Match: "binary_operator", Symbol: "function", Name: "@lhs=identifier", If: "has:@rhs=function_definition", Exported: "text:@lhs~^[^.]"},
		{Match: "binary_operator", Symbol: "variable", Name: "@lhs=identifier", If: "text:@operator~^(<-|<<-|=)$", Exported: "text:@lhs~^[^.]"},
	}})
	register([]string{"perl"}, &Spec{Rules: []Rule{
		{Match: "package_statement", Symbol: "package", Name: "@name"},
		{Match: "use_statement", Symbol: "module", Name: "@module", Import: true, Exported: "never"},
		{Match: "subroutine_declaration_statement", Symbol: "function", Name: "@name", Header: "@body", Exported: "public-name"},
		{Match: "expression_statement/assignment_expression", Symbol: "variable", Name: "@left/**/varname", If: "has:@left=variable_declaration"},
	}})
	register([]string{"groovy"}, &Spec{Rules: []Rule{
		{Match: "groovy_import", Symbol: "module", Name: "@import", Import: true, Exported: "never"},
		{Match: "class_definition", Symbol: "class", Name: "@name", Header: "@body", Members: []Rule{
			{Match: "@body/function_definition", Symbol: "method", Name: "@function", Exported: "lacks:access_modifier/private|protected"},
			{Match: "@body/function_declaration", Symbol: "method", Name: "@function"},
			{Match: "@body/declaration", Symbol: "field", Name: "@name"},
		}},
		{Match: "function_definition", Symbol: "function", Name: "@function", Header: "@body"},
	}})
	// Erlang: the module, includes, records, macros and functions (one
	// symbol for all clauses); exported: listed in an -export attribute.
	const erlExported = "listed:export_attribute/@funs/@fun"
	register([]string{"erlang"}, &Spec{Rules: []Rule{
		{Match: "module_attribute", Symbol: "module", Name: "@name"},
		{Match: "pp_include|pp_include_lib", Symbol: "module", Name: "@file", Import: true, Exported: "never"},
		{Match: "record_decl", Symbol: "struct", Name: "@name", Members: []Rule{{Match: "@fields", Symbol: "field", Name: "@name"}}},
		{Match: "type_alias|opaque", Symbol: "type", Name: "**/@name"},
		{Match: "pp_define", Symbol: "macro", Name: "@lhs/@name"},
		{Match: "fun_decl", Symbol: "function", Name: "@clause/@name", Once: true, Exported: erlExported},
	}})
	register([]string{"odin"}, &Spec{Rules: []Rule{
		{Match: "import_declaration", Symbol: "module", Name: "string", Import: true, Exported: "never"},
		{Match: "struct_declaration", Symbol: "struct", Name: "identifier", Members: []Rule{{Match: "field", Symbol: "field", Name: "identifier", EachName: true}}},
		{Match: "enum_declaration", Symbol: "enum", Name: "identifier"},
		{Match: "union_declaration", Symbol: "struct", Name: "identifier"},
		{Match: "procedure_declaration", Symbol: "function", Name: "identifier"},
		{Match: "const_declaration", Symbol: "constant", Name: "identifier"},
		{Match: "var_declaration", Symbol: "variable", Name: "identifier"},
	}})
	register([]string{"powershell"}, &Spec{Rules: []Rule{
		{Match: "statement_list/function_statement", Symbol: "function", Name: "function_name", Header: "script_block"},
		{Match: "statement_list/class_statement", Symbol: "class", Name: "simple_name", Members: []Rule{
			{Match: "class_property_definition", Symbol: "property", Name: "variable"},
			{Match: "class_method_definition", Symbol: "method", Name: "simple_name"},
		}},
		{Match: "statement_list/enum_statement", Symbol: "enum", Name: "simple_name"},
	}})
	register([]string{"verilog"}, &Spec{Rules: []Rule{
		{Match: "module_declaration", Symbol: "module", Name: "module_header/simple_identifier", Members: []Rule{
			{Match: "module_ansi_header/list_of_port_declarations/ansi_port_declaration", Symbol: "field", Name: "port_identifier"},
		}},
		{Match: "interface_declaration", Symbol: "interface", Name: "**/interface_identifier"},
		{Match: "package_declaration", Symbol: "package", Name: "**/package_identifier"},
	}})
	// Clojure: the namespace and its def forms (defn- is private).
	clj := func(form, symbol, exported string) Rule {
		return Rule{Match: "list_lit", Symbol: symbol, Name: "@value=sym_lit#2/@name", If: "text:@value/@name~^" + form + "$", Exported: exported}
	}
	register([]string{"clojure"}, &Spec{Rules: []Rule{
		clj("ns", "namespace", "always"),
		clj("(defn-|defmacro-)", "function", "never"),
		clj("(defn|defmacro|defmulti)", "function", "always"),
		clj("(defprotocol)", "interface", "always"),
		clj("(defrecord|deftype)", "struct", "always"),
		clj("(def|defonce)", "variable", "always"),
	}})
	register([]string{"tlaplus"}, &Spec{Rules: []Rule{
		{Match: "module", Symbol: "module", Name: "@name", Members: []Rule{
			{Match: "constant_declaration/identifier", Symbol: "constant"},
			{Match: "variable_declaration/identifier", Symbol: "variable"},
			{Match: "operator_definition|function_definition", Symbol: "function", Name: "@name"},
		}},
	}})
	// Nix: the bindings of a top-level let or attribute set.
	var nix []Rule
	for _, at := range []string{"@expression", "@expression/@body"} {
		nix = append(nix, Rule{Match: at + "=let_expression|attrset_expression|rec_attrset_expression/binding_set/binding|inherit", Symbol: "variable", Name: "@attrpath"})
	}
	register([]string{"nix"}, &Spec{Rules: nix})
})
