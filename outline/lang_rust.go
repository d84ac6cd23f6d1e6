package outline

// Rust: use declarations, modules (their items as members), functions,
// structs (fields), enums (variants), unions, traits (methods), impl blocks
// (named after the type, methods as members), consts, statics, type
// aliases and macro_rules. Exported means a plain `pub` (not pub(crate)).
var _ = define(func() {
	const pub = "has:visibility_modifier&lacks:visibility_modifier/("
	fn := func(match, symbol string) Rule {
		return Rule{Match: match, Symbol: symbol, Name: "@name", Exported: pub, Header: "@body"}
	}
	fields := []Rule{{Match: "@body/field_declaration", Symbol: "field", Name: "@name", Exported: pub}}
	methods := []Rule{
		{Match: "@body/function_item|function_signature_item", Symbol: "method", Name: "@name", Exported: pub, Header: "@body"},
		{Match: "@body/const_item", Symbol: "constant", Name: "@name", Exported: pub},
		{Match: "@body/associated_type|type_item", Symbol: "type", Name: "@name", Exported: pub},
	}
	structRule := fn("struct_item", "struct")
	structRule.Members = fields
	unionRule := fn("union_item", "struct")
	unionRule.Members = fields
	enumRule := fn("enum_item", "enum")
	enumRule.Members = []Rule{{Match: "@body/enum_variant", Symbol: "enumMember", Name: "@name"}}
	traitRule := fn("trait_item", "interface")
	traitRule.Members = []Rule{ // a trait's items are as public as the trait
		{Match: "@body/function_item|function_signature_item", Symbol: "method", Name: "@name", Header: "@body"},
		{Match: "@body/const_item", Symbol: "constant", Name: "@name"},
		{Match: "@body/associated_type", Symbol: "type", Name: "@name"},
	}
	modRule := fn("mod_item", "module")
	modRule.Members = []Rule{
		fn("@body/function_item", "function"), fn("@body/struct_item", "struct"), fn("@body/enum_item", "enum"),
		fn("@body/trait_item", "interface"), fn("@body/mod_item", "module"), fn("@body/const_item", "constant"),
		fn("@body/static_item", "variable"), fn("@body/type_item", "type"),
	}
	rules := []Rule{
		{Match: "use_declaration", Symbol: "module", Name: "@argument", Import: true, Exported: pub},
		{Match: "extern_crate_declaration", Symbol: "module", Name: "@name", Import: true, Exported: pub},
		modRule,
		fn("function_item", "function"),
		structRule, unionRule, enumRule, traitRule,
		{Match: "impl_item", Symbol: "object", Name: "@type", Header: "@body", Exported: "never", Members: methods},
		fn("const_item", "constant"),
		fn("static_item", "variable"),
		fn("type_item", "type"),
		{Match: "macro_definition", Symbol: "macro", Name: "@name", Exported: "never"}, // #[macro_export] is a sibling, not seen
	}
	register([]string{"rust"}, &Spec{Rules: rules, Opaque: []string{"block", "token_tree"}, Skip: rustBodies})
})
