package outline

// C and C++: includes, macros, functions (definitions and prototypes),
// structs, unions and enums (fields and enumerators as members), typedefs
// and global variables; in C++ also classes (members public after
// `public:`, by default in a struct), namespaces (their declarations as
// members), templates, concepts and using aliases. Exported means not
// `static` (external linkage). Declarations inside preprocessor
// conditionals (`#ifndef` include guards, `#ifdef` blocks, however nested)
// count as declarations of the level the conditional is at.
var _ = define(func() {
	register([]string{"c"}, &Spec{Rules: cRules(false), Opaque: []string{"compound_statement"}, Skip: cBodies})
	register([]string{"objc"}, &Spec{Rules: cRules(false)}) // no Objective-C sample holds it to opaque kinds
	register([]string{"cpp"}, &Spec{Rules: cRules(true), Opaque: []string{"compound_statement"}, Skip: cBodies})
})

const (
	cNotStatic = "lacks:storage_class_specifier/static"
	// cDeclarators reaches the declarators however deep they nest, and
	// nothing else: not a parameter's, nor one in an initializer (a
	// lambda's body declares locals, not the file's variables).
	cDeclarators = "~init_declarator|pointer_declarator|array_declarator|function_declarator|parenthesized_declarator|" +
		"reference_declarator|attributed_declarator"
	// cName finds the declared name.
	cName = cDeclarators + "/@declarator=identifier|qualified_identifier|field_identifier|destructor_name|operator_name|type_identifier"
	// cLevel reaches the declarations of a level (the file, a namespace
	// body): its own children and those of the preprocessor conditionals
	// in it, however nested.
	cLevel = "~translation_unit|declaration_list|preproc_if|preproc_ifdef|preproc_else|preproc_elif|preproc_elifdef/"
)

func cRules(cpp bool) []Rule {
	rules := []Rule{
		{Match: cLevel + "preproc_include", Symbol: "module", Name: "@path", Import: true, Exported: "never"},
		{Match: cLevel + "preproc_def|preproc_function_def", Symbol: "macro", Name: "@name", Exported: "always"},
	}
	rules = append(rules, cDeclarations(cLevel, cpp)...)
	if cpp {
		rules = append(rules,
			Rule{Match: cLevel + "namespace_definition", Symbol: "namespace", Name: "@name", Exported: "always", Header: "@body",
				Members: cDeclarations("@body/"+cLevel, cpp)},
			Rule{Match: cLevel + "concept_definition|template_declaration/concept_definition", Symbol: "interface", Name: "@name", Exported: "always"},
			Rule{Match: cLevel + "alias_declaration", Symbol: "type", Name: "@name", Exported: "always"},
		)
		rules = append(rules, cDeclarations(cLevel+"template_declaration/", cpp)...)
	}
	return rules
}

// cDeclarations are the declarations found at prefix (the top level, a
// namespace body, a template).
func cDeclarations(prefix string, cpp bool) []Rule {
	record := func(kind, symbol, def string) []Rule {
		members := cFields(cpp, def)
		return []Rule{
			{Match: prefix + kind, Symbol: symbol, Name: "@name", Exported: "always", Header: "@body", If: "has:@body", Members: members},
			{Match: prefix + "declaration/@type=" + kind, Symbol: symbol, Name: "@name", Exported: "always", Header: "@body", If: "has:@body", Members: members},
		}
	}
	rules := []Rule{
		{Match: prefix + "function_definition", Symbol: "function", Name: cName, Exported: cNotStatic, Header: "@body"},
		{Match: prefix + "declaration", Symbol: "function", Name: cName, Exported: cNotStatic, If: "has:" + cDeclarators + "/@declarator=function_declarator&lacks:@declarator=init_declarator"},
		{Match: prefix + "declaration", Symbol: "variable", Name: cName, EachName: true, Exported: cNotStatic,
			If: "lacks:" + cDeclarators + "/@declarator=function_declarator"},
		{Match: prefix + "declaration", Symbol: "variable", Name: "@declarator=identifier", EachName: true, Exported: cNotStatic},
		{Match: prefix + "type_definition", Symbol: "struct", Name: cName, Exported: "always", If: "has:@type=struct_specifier|union_specifier/@body",
			Members: cFields(cpp, "public")},
		{Match: prefix + "type_definition", Symbol: "type", Name: cName, Exported: "always"},
		{Match: prefix + "enum_specifier", Symbol: "enum", Name: "@name", Exported: "always", Header: "@body", If: "has:@body",
			Members: []Rule{{Match: "@body/enumerator", Symbol: "enumMember", Name: "@name"}}},
	}
	rules = append(rules, record("struct_specifier", "struct", "public")...)
	rules = append(rules, record("union_specifier", "struct", "public")...)
	if cpp {
		rules = append(rules, record("class_specifier", "class", "private")...)
	}
	return rules
}

// cFields are a struct's, union's or class's members.
func cFields(cpp bool, def string) []Rule {
	public := "always"
	if cpp {
		public = "access:" + def
	}
	rules := []Rule{
		{Match: "@body/field_declaration", Symbol: "method", Name: cName, Exported: public, If: "has:@declarator=function_declarator"},
		{Match: "@body/field_declaration", Symbol: "field", Name: cName, EachName: true, Exported: public, If: "lacks:@declarator=function_declarator&has:@declarator"},
		{Match: "@body/field_declaration", Symbol: "field", Name: "@declarator=field_identifier", EachName: true, Exported: public},
	}
	if cpp {
		rules = append(rules,
			Rule{Match: "@body/function_definition", Symbol: "method", Name: cName, Exported: public, Header: "@body"},
			Rule{Match: "@body/declaration", Symbol: "constructor", Name: cName, Exported: public},
			Rule{Match: "@body/field_declaration/@type=class_specifier|struct_specifier", Symbol: "struct", Name: "@name", Exported: public},
			Rule{Match: "@body/template_declaration/function_definition", Symbol: "method", Name: cName, Exported: public, Header: "@body"},
		)
	}
	return rules
}
