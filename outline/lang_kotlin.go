package outline

// Kotlin: imports, classes (interfaces, enums, data classes: the keyword
// decides), objects, functions, top-level properties and type aliases,
// with properties, functions, constructors, companion objects, nested
// classes and enum entries as members. Everything is public unless marked
// private or internal.
func init() {
	const public = "lacks:modifiers/visibility_modifier/private|internal|protected"
	members := []Rule{
		{Match: "class_body/property_declaration", Symbol: "property", Name: "variable_declaration/identifier", Exported: public},
		{Match: "class_body/function_declaration", Symbol: "method", Name: "@name", Exported: public, Header: "function_body"},
		{Match: "class_body/secondary_constructor", Symbol: "constructor", Label: "constructor", Exported: public},
		{Match: "class_body/companion_object", Symbol: "object", Name: "@name", Exported: public},
		{Match: "class_body/companion_object", Symbol: "object", Label: "companion object", Exported: public},
		{Match: "class_body/class_declaration", Symbol: "class", Name: "@name", Exported: public, Header: "class_body"},
		{Match: "class_body/object_declaration", Symbol: "object", Name: "@name", Exported: public, Header: "class_body"},
		{Match: "enum_class_body/enum_entry", Symbol: "enumMember", Name: "identifier"},
		{Match: "enum_class_body/function_declaration", Symbol: "method", Name: "@name", Exported: public, Header: "function_body"},
	}
	class := func(symbol, test string) Rule {
		return Rule{Match: "class_declaration", Symbol: symbol, Name: "@name", Exported: public, If: test, Header: "class_body|enum_class_body", Members: members}
	}
	rules := []Rule{
		{Match: "import", Symbol: "module", Name: "qualified_identifier", Import: true, Exported: "never"},
		class("interface", "has:interface"),
		class("enum", "has:modifiers/class_modifier/enum"),
		class("class", ""),
		{Match: "object_declaration", Symbol: "object", Name: "@name", Exported: public, Header: "class_body", Members: members},
		{Match: "function_declaration", Symbol: "function", Name: "@name", Exported: public, Header: "function_body"},
		{Match: "property_declaration", Symbol: "constant", Name: "variable_declaration/identifier", Exported: public, If: "has:modifiers/property_modifier/const"},
		{Match: "property_declaration", Symbol: "variable", Name: "variable_declaration/identifier", Exported: public},
		{Match: "type_alias", Symbol: "type", Name: "@type", Exported: public},
	}
	register([]string{"kotlin"}, &Spec{Rules: rules})
}
