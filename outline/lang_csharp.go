package outline

// C#: using directives, namespaces (block or file-scoped; their types as
// members) and types: classes, interfaces, structs, records, enums and
// delegates, with fields, properties, events, constructors and methods as
// members. Exported means the `public` modifier; interface members are
// public without it.
var _ = define(func() {
	const public = "has:modifier/public"
	members := func(exported string) []Rule {
		return []Rule{
			{Match: "@body/field_declaration|event_field_declaration", Symbol: "field", Name: "variable_declaration/variable_declarator/@name", EachName: true, Exported: exported},
			{Match: "@body/property_declaration", Symbol: "property", Name: "@name", Exported: exported},
			{Match: "@body/event_declaration", Symbol: "event", Name: "@name", Exported: exported},
			{Match: "@body/constructor_declaration", Symbol: "constructor", Name: "@name", Exported: exported, Header: "@body"},
			{Match: "@body/method_declaration", Symbol: "method", Name: "@name", Exported: exported, Header: "@body"},
			{Match: "@body/class_declaration|record_declaration", Symbol: "class", Name: "@name", Exported: exported, Header: "@body"},
			{Match: "@body/struct_declaration", Symbol: "struct", Name: "@name", Exported: exported, Header: "@body"},
			{Match: "@body/interface_declaration", Symbol: "interface", Name: "@name", Exported: exported, Header: "@body"},
			{Match: "@body/enum_declaration", Symbol: "enum", Name: "@name", Exported: exported, Header: "@body"},
		}
	}
	types := func(prefix string) []Rule {
		return []Rule{
			{Match: prefix + "class_declaration", Symbol: "class", Name: "@name", Exported: public, Header: "@body", Members: members(public)},
			{Match: prefix + "interface_declaration", Symbol: "interface", Name: "@name", Exported: public, Header: "@body", Members: members("always")},
			{Match: prefix + "struct_declaration", Symbol: "struct", Name: "@name", Exported: public, Header: "@body", Members: members(public)},
			{Match: prefix + "record_declaration", Symbol: "struct", Name: "@name", Exported: public, Header: "@body", Members: members(public)},
			{Match: prefix + "enum_declaration", Symbol: "enum", Name: "@name", Exported: public, Header: "@body",
				Members: []Rule{{Match: "@body/enum_member_declaration", Symbol: "enumMember", Name: "@name"}}},
			{Match: prefix + "delegate_declaration", Symbol: "function", Name: "@name", Exported: public},
		}
	}
	rules := []Rule{
		{Match: "using_directive", Symbol: "module", Name: "*", Import: true, Exported: "never"},
		{Match: "namespace_declaration", Symbol: "namespace", Name: "@name", Exported: "always", Header: "@body", Members: types("@body/")},
		{Match: "file_scoped_namespace_declaration", Symbol: "namespace", Name: "@name", Exported: "always"},
	}
	rules = append(rules, types("")...)
	rules = append(rules, types("file_scoped_namespace_declaration/")...)
	register([]string{"csharp"}, &Spec{Rules: rules, Opaque: []string{"block"}, Skip: csharpBodies})
})
