package outline

// Go: gopls's document symbols (one per name of a var/const spec, one per
// type spec, struct fields and interface elements as children, nested
// through anonymous struct and interface types); exported means capitalised.
var _ = define(func() {
	goFunc := func(match, symbol string) Rule {
		return Rule{Match: match, Symbol: symbol, Name: "@name", NameIsNot: "_", Exported: "upper", Header: "@body"}
	}
	method := goFunc("method_declaration", "method")
	method.Receiver = "@receiver/parameter_declaration/@type"
	rules := []Rule{
		{Match: "import_declaration/import_spec", Symbol: "module", Name: "@path", Import: true, Exported: "never"},
		{Match: "import_declaration/import_spec_list/import_spec", Symbol: "module", Name: "@path", Import: true, Exported: "never"},
		goFunc("function_declaration", "function"),
		method,
	}
	rules = append(rules, goTypeRules("type_declaration/type_spec|type_alias", 3)...)
	rules = append(rules, goValueRules("const_declaration/const_spec", "constant", 3)...)
	rules = append(rules, goValueRules("var_declaration/var_spec", "variable", 3)...)
	rules = append(rules, goValueRules("var_declaration/var_spec_list/var_spec", "variable", 3)...)
	register([]string{"go"}, &Spec{Rules: rules, Opaque: []string{"block", "expression_list"}, Skip: goBodies})
})

// goTypeRules are the rules of a type spec at match: struct, interface,
// function type, any other type (gopls's kinds), with fields and interface
// elements as members down to depth levels of anonymous types.
func goTypeRules(match string, depth int) []Rule {
	typ := func(symbol, lspKind, shape string) Rule {
		r := Rule{Match: match, Symbol: symbol, LSPKind: lspKind, Name: "@name", NameIsNot: "_", Exported: "upper"}
		if shape != "" {
			r.If = "has:@type=" + shape
			r.Members = goShapeMembers(shape, depth)
		}
		return r
	}
	return []Rule{
		typ("struct", "", "struct_type"),
		typ("interface", "", "interface_type"),
		typ("type", "function", "function_type"),
		typ("type", "class", ""),
	}
}

// goShapeMembers are the members of a struct or interface type literal
// reached from its owner through @type.
func goShapeMembers(shape string, depth int) []Rule {
	if depth == 0 {
		return nil
	}
	switch shape {
	case "struct_type":
		return goFieldRules("@type=struct_type/field_declaration_list/field_declaration", depth-1)
	case "interface_type":
		return goInterfaceRules("@type=interface_type", depth-1)
	}
	return nil
}

// goFieldRules: named fields (one member per name), then embedded ones,
// named after their type's identifier as gopls names them.
func goFieldRules(match string, depth int) []Rule {
	field := func(name, shape string) Rule {
		r := Rule{Match: match, Symbol: "field", Name: name, Exported: "upper"}
		if shape != "" {
			r.If = "has:@type=" + shape
			r.Members = goShapeMembers(shape, depth)
		}
		return r
	}
	named := "@name=field_identifier"
	out := []Rule{}
	for _, shape := range []string{"struct_type", "interface_type"} {
		r := field(named, shape)
		r.EachName = true
		out = append(out, r)
	}
	r := field(named, "")
	r.EachName = true
	embedded := func(name string) Rule {
		r := field(name, "")
		r.EndAt = "@type"
		return r
	}
	return append(out, r,
		embedded("@type=type_identifier"),
		embedded("@type=qualified_type/@name"),
		embedded("@type=generic_type/@type"),
	)
}

// goInterfaceRules: methods, then embedded types and type-set elements.
func goInterfaceRules(match string, depth int) []Rule {
	return []Rule{
		{Match: match + "/method_elem", Symbol: "method", Name: "@name", Exported: "upper"},
		{Match: match + "/type_elem", Symbol: "field", Name: "type_identifier", Exported: "upper", If: "lacks:*/*"},
		{Match: match + "/type_elem", Symbol: "field", Name: "qualified_type/@name", Exported: "upper"},
		{Match: match + "/type_elem", Symbol: "field", Name: "generic_type/@type", Exported: "upper"},
		{Match: match + "/type_elem", Symbol: "field", Exported: "never"},
	}
}

// goValueRules: one entry per name of a const or var spec; a spec of an
// anonymous struct or interface type has its fields as members.
func goValueRules(match, symbol string, depth int) []Rule {
	value := func(shape string) Rule {
		r := Rule{Match: match, Symbol: symbol, Name: "@name=identifier", EachName: true, NameIsNot: "_", Exported: "upper"}
		if shape != "" {
			r.If = "has:@type=" + shape
			r.Members = goShapeMembers(shape, depth)
		}
		return r
	}
	return []Rule{value("struct_type"), value("interface_type"), value("")}
}
