package outline

// PHP: namespaces, use declarations, interfaces, traits, classes and enums
// (constants, properties, methods and cases as members), functions and
// constants. Members are public unless marked private or protected.
var _ = define(func() {
	const public = "lacks:visibility_modifier/private|protected"
	members := []Rule{
		{Match: "@body/const_declaration/const_element", Symbol: "constant", Name: "name", Exported: "lacks:^/visibility_modifier/private|protected"},
		{Match: "@body/property_declaration/property_element", Symbol: "property", Name: "@name", Exported: "lacks:^/visibility_modifier/private|protected"},
		{Match: "@body/method_declaration", Symbol: "method", Name: "@name", Exported: public, Header: "@body"},
		{Match: "@body/enum_case", Symbol: "enumMember", Name: "@name"},
		{Match: "@body/use_declaration", Symbol: "module", Name: "*"},
	}
	rules := []Rule{
		{Match: "namespace_definition", Symbol: "namespace", Name: "@name", Exported: "always"},
		{Match: "namespace_use_declaration/namespace_use_clause", Symbol: "module", Name: "qualified_name|name", Import: true, Exported: "never"},
		{Match: "interface_declaration", Symbol: "interface", Name: "@name", Header: "@body", Members: members},
		{Match: "trait_declaration", Symbol: "trait", Name: "@name", Header: "@body", Members: members},
		{Match: "class_declaration", Symbol: "class", Name: "@name", Header: "@body", Members: members},
		{Match: "enum_declaration", Symbol: "enum", Name: "@name", Header: "@body", Members: members},
		{Match: "function_definition", Symbol: "function", Name: "@name", Header: "@body"},
		{Match: "const_declaration/const_element", Symbol: "constant", Name: "name"},
	}
	register([]string{"php"}, &Spec{Rules: rules, Opaque: []string{"compound_statement"}})
})
