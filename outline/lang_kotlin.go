package outline

// Kotlin (the fwcd grammar ast-grep uses: no field names, names are
// type_identifier for types and simple_identifier for functions and
// properties): imports, classes (interfaces, enums, data classes: the
// keyword decides), objects, functions, top-level properties and type
// aliases, with properties, functions, constructors, companion objects,
// nested classes and enum entries as members. Everything is public unless
// marked private, internal or protected.
var _ = define(func() {
	const public = "lacks:modifiers/visibility_modifier/private|internal|protected"
	members := []Rule{
		{Match: "class_body/property_declaration", Symbol: "property", Name: "variable_declaration/simple_identifier", Exported: public},
		{Match: "class_body/function_declaration", Symbol: "method", Name: "simple_identifier", Exported: public, Header: "function_body"},
		{Match: "class_body/secondary_constructor", Symbol: "constructor", Label: "constructor", Exported: public},
		{Match: "class_body/companion_object", Symbol: "object", Name: "type_identifier", Exported: public},
		{Match: "class_body/companion_object", Symbol: "object", Label: "companion object", Exported: public},
		{Match: "class_body/class_declaration", Symbol: "class", Name: "type_identifier", Exported: public, Header: "class_body|enum_class_body"},
		{Match: "class_body/object_declaration", Symbol: "object", Name: "type_identifier", Exported: public, Header: "class_body"},
		{Match: "enum_class_body/enum_entry", Symbol: "enumMember", Name: "simple_identifier"},
		{Match: "enum_class_body/function_declaration", Symbol: "method", Name: "simple_identifier", Exported: public, Header: "function_body"},
	}
	class := func(symbol, test string) Rule {
		return Rule{Match: "class_declaration", Symbol: symbol, Name: "type_identifier", Exported: public, If: test,
			Header: "class_body|enum_class_body", Members: members}
	}
	rules := []Rule{
		{Match: "import_list/import_header", Symbol: "module", Name: "identifier", Import: true, Exported: "never"},
		class("interface", "has:interface"),
		class("enum", "has:enum"),
		class("class", ""),
		{Match: "object_declaration", Symbol: "object", Name: "type_identifier", Exported: public, Header: "class_body", Members: members},
		{Match: "function_declaration", Symbol: "function", Name: "simple_identifier", Exported: public, Header: "function_body"},
		{Match: "property_declaration", Symbol: "constant", Name: "variable_declaration/simple_identifier", Exported: public, If: "has:modifiers/property_modifier/const"},
		{Match: "property_declaration", Symbol: "variable", Name: "variable_declaration/simple_identifier", Exported: public},
		{Match: "type_alias", Symbol: "type", Name: "type_identifier", Exported: public},
	}
	register([]string{"kotlin"}, &Spec{Rules: rules})
})
