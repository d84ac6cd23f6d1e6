package outline

// Swift: imports, classes, structs, enums, actors and extensions (one
// declaration kind in the grammar: its keyword decides), protocols,
// functions, top-level properties and type aliases, with properties,
// initializers, methods and enum cases as members. Exported means public
// or open (Swift's default is internal to the module).
var _ = define(func() {
	const public = "has:modifiers/visibility_modifier/public|open"
	members := []Rule{
		{Match: "@body/property_declaration", Symbol: "property", Name: "@name/@bound_identifier", Exported: public},
		{Match: "@body/init_declaration", Symbol: "constructor", Label: "init", Exported: public, Header: "@body"},
		{Match: "@body/function_declaration|protocol_function_declaration", Symbol: "method", Name: "@name=simple_identifier", Exported: public, Header: "@body"},
		{Match: "@body/protocol_property_declaration", Symbol: "property", Name: "@name/@bound_identifier", Exported: public},
		{Match: "@body/class_declaration", Symbol: "class", Name: "@name", Exported: public, Header: "@body"},
		{Match: "@body/enum_entry", Symbol: "enumMember", Name: "@name", EachName: true},
	}
	kind := func(keyword, symbol string) Rule {
		return Rule{Match: "class_declaration", Symbol: symbol, Name: "@name", Exported: public, If: "has:@declaration_kind=" + keyword,
			Header: "@body", Members: members}
	}
	rules := []Rule{
		{Match: "import_declaration", Symbol: "module", Name: "identifier", Import: true, Exported: "never"},
		kind("class", "class"), kind("struct", "struct"), kind("enum", "enum"), kind("actor", "class"), kind("extension", "object"),
		{Match: "protocol_declaration", Symbol: "interface", Name: "@name", Exported: public, Header: "@body", Members: members},
		{Match: "function_declaration", Symbol: "function", Name: "@name=simple_identifier", Exported: public, Header: "@body"},
		{Match: "property_declaration", Symbol: "variable", Name: "@name/@bound_identifier", Exported: public},
		{Match: "typealias_declaration", Symbol: "type", Name: "@name", Exported: public},
	}
	register([]string{"swift"}, &Spec{Rules: rules})
})
