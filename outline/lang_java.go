package outline

// Java: imports, classes, interfaces, enums, records and annotation types,
// with their fields (one per declarator), constructors, methods, nested
// types and enum constants as members. Exported means the `public`
// modifier; an interface's or annotation's members are public without it.
var _ = define(func() {
	const public = "has:modifiers/public"
	members := func(body string, exported string) []Rule {
		return []Rule{
			{Match: body + "/field_declaration|constant_declaration", Symbol: "field", Name: "@declarator/@name", EachName: true, Exported: exported},
			{Match: body + "/constructor_declaration|compact_constructor_declaration", Symbol: "constructor", Name: "@name", Exported: exported, Header: "@body"},
			{Match: body + "/method_declaration", Symbol: "method", Name: "@name", Exported: exported, Header: "@body"},
			{Match: body + "/annotation_type_element_declaration", Symbol: "method", Name: "@name", Exported: exported},
			{Match: body + "/class_declaration|record_declaration", Symbol: "class", Name: "@name", Exported: exported, Header: "@body"},
			{Match: body + "/interface_declaration|annotation_type_declaration", Symbol: "interface", Name: "@name", Exported: exported, Header: "@body"},
			{Match: body + "/enum_declaration", Symbol: "enum", Name: "@name", Exported: exported, Header: "@body"},
		}
	}
	enumMembers := append([]Rule{{Match: "@body/enum_constant", Symbol: "enumMember", Name: "@name"}}, members("@body/enum_body_declarations", public)...)
	rules := []Rule{
		{Match: "import_declaration", Symbol: "module", Name: "*", Import: true, Exported: "never"},
		{Match: "class_declaration", Symbol: "class", Name: "@name", Exported: public, Header: "@body", Members: members("@body", public)},
		{Match: "interface_declaration", Symbol: "interface", Name: "@name", Exported: public, Header: "@body", Members: members("@body", "always")},
		{Match: "enum_declaration", Symbol: "enum", Name: "@name", Exported: public, Header: "@body", Members: enumMembers},
		{Match: "record_declaration", Symbol: "struct", Name: "@name", Exported: public, Header: "@body", Members: members("@body", public)},
		{Match: "annotation_type_declaration", Symbol: "interface", Name: "@name", Exported: public, Header: "@body", Members: members("@body", "always")},
		{Match: "module_declaration", Symbol: "module", Name: "@name", Exported: "always", Header: "@body"},
	}
	register([]string{"java"}, &Spec{Rules: rules, Opaque: []string{"block", "constructor_body"}, Skip: javaBodies})
})
