package outline

// JavaScript, TypeScript and TSX: imports and re-exports, functions,
// classes (with constructors, methods and fields), top-level const/let/var
// (a const holding an arrow function is a function), and in TypeScript
// interfaces, type aliases, enums, namespaces and ambient modules.
// Exported means written under `export`; a member is public unless it is
// #private or marked private/protected.
var _ = define(func() {
	register([]string{"javascript"}, &Spec{Rules: jsRules(false), Opaque: []string{"statement_block"}, Skip: javascriptBodies})
	register([]string{"typescript"}, &Spec{Rules: jsRules(true), Opaque: []string{"statement_block"}, Skip: typescriptBodies})
	register([]string{"tsx"}, &Spec{Rules: jsRules(true), Opaque: []string{"statement_block"}, Skip: javascriptBodies})
})

func jsRules(typescript bool) []Rule {
	rules := []Rule{
		{Match: "import_statement", Symbol: "module", Name: "@source", Import: true, Exported: "never"},
		{Match: "export_statement", Symbol: "module", Name: "@source", Exported: "always"},
		{Match: "export_statement", Symbol: "module", Label: "exports", Exported: "always", If: "has:export_clause"},
		{Match: "expression_statement/internal_module", Symbol: "namespace", Name: "@name", Exported: "never", Header: "@body"},
	}
	for _, under := range []struct{ prefix, exported string }{{"export_statement/@declaration=", "always"}, {"", "never"}} {
		p, exp := under.prefix, under.exported
		rules = append(rules,
			Rule{Match: p + "function_declaration|generator_function_declaration", Symbol: "function", Name: "@name", Exported: exp, Header: "@body"},
			Rule{Match: p + "class_declaration|abstract_class_declaration", Symbol: "class", Name: "@name", Exported: exp, Header: "@body",
				Members: jsClassMembers(typescript)},
			Rule{Match: p + "lexical_declaration|variable_declaration/variable_declarator", Symbol: "function", Name: "@name=identifier", Exported: exp,
				If: "has:@value=arrow_function|function_expression|function"},
			Rule{Match: p + "lexical_declaration/variable_declarator", Symbol: "constant", Name: "@name=identifier", Exported: exp, If: "has:^/@kind=const"},
			Rule{Match: p + "lexical_declaration|variable_declaration/variable_declarator", Symbol: "variable", Name: "@name=identifier", Exported: exp},
		)
		if typescript {
			rules = append(rules,
				Rule{Match: p + "interface_declaration", Symbol: "interface", Name: "@name", Exported: exp, Header: "@body", Members: []Rule{
					{Match: "@body/method_signature", Symbol: "method", Name: "@name"},
					{Match: "@body/property_signature", Symbol: "property", Name: "@name"},
				}},
				Rule{Match: p + "type_alias_declaration", Symbol: "type", Name: "@name", Exported: exp},
				Rule{Match: p + "enum_declaration", Symbol: "enum", Name: "@name", Exported: exp, Header: "@body", Members: []Rule{
					{Match: "@body/@name", Symbol: "enumMember"},
					{Match: "@body/enum_assignment", Symbol: "enumMember", Name: "@name"},
				}},
				Rule{Match: p + "internal_module", Symbol: "namespace", Name: "@name", Exported: exp, Header: "@body"},
				Rule{Match: p + "ambient_declaration/module", Symbol: "module", Name: "@name", Exported: exp, Header: "@body"},
				Rule{Match: p + "function_signature", Symbol: "function", Name: "@name", Exported: exp},
			)
		}
	}
	return rules
}

func jsClassMembers(typescript bool) []Rule {
	public := "lacks:@name=private_property_identifier"
	if typescript {
		public += "&lacks:accessibility_modifier/private|protected"
	}
	return []Rule{
		{Match: "@body/method_definition", Symbol: "constructor", Name: "@name", NameIs: "^constructor$", Exported: public, Header: "@body"},
		{Match: "@body/method_definition", Symbol: "method", Name: "@name", Exported: public, Header: "@body"},
		{Match: "@body/abstract_method_signature|method_signature", Symbol: "method", Name: "@name", Exported: public},
		{Match: "@body/public_field_definition", Symbol: "field", Name: "@name", Exported: public},
		{Match: "@body/field_definition", Symbol: "field", Name: "@property", Exported: public},
	}
}
