package outline

// Zig, Scala and Dart.
var _ = define(func() {
	// Zig: imports, container declarations (structs, enums, unions:
	// `const Point = struct {…}`), functions, variables and tests.
	// Exported means `pub`.
	const pub = "has:pub"
	zigMembers := []Rule{
		{Match: "*/container_field", Symbol: "field", Name: "@name"},
		{Match: "*/function_declaration", Symbol: "method", Name: "@name", Exported: pub, Header: "@body"},
	}
	register([]string{"zig"}, &Spec{Rules: []Rule{
		{Match: "variable_declaration", Symbol: "module", Name: "identifier", Import: true, Exported: pub, If: "text:builtin_function/builtin_identifier~^@import$"},
		{Match: "variable_declaration", Symbol: "struct", Name: "identifier", Exported: pub, If: "has:struct_declaration|union_declaration|opaque_declaration", Members: zigMembers},
		{Match: "variable_declaration", Symbol: "enum", Name: "identifier", Exported: pub, If: "has:enum_declaration", Members: []Rule{
			{Match: "enum_declaration/container_field", Symbol: "enumMember", Name: "*"},
			{Match: "enum_declaration/function_declaration", Symbol: "method", Name: "@name", Exported: pub, Header: "@body"},
		}},
		{Match: "variable_declaration", Symbol: "constant", Name: "identifier", Exported: pub, If: "has:const"},
		{Match: "variable_declaration", Symbol: "variable", Name: "identifier", Exported: pub},
		{Match: "function_declaration", Symbol: "function", Name: "@name", Exported: pub, Header: "@body"},
		{Match: "test_declaration", Symbol: "function", Name: "string/string_content", Exported: "never"},
	}})
	// Scala: imports, objects, classes, traits, enums, functions and
	// values; public unless private or protected.
	const scalaPublic = "lacks:modifiers/access_modifier"
	scalaMembers := []Rule{
		{Match: "@body/function_definition|function_declaration", Symbol: "method", Name: "@name", Exported: scalaPublic, Header: "@body"},
		{Match: "@body/val_definition|var_definition|val_declaration|var_declaration", Symbol: "field", Name: "@pattern", Exported: scalaPublic},
		{Match: "@body/class_definition|object_definition|trait_definition", Symbol: "class", Name: "@name", Exported: scalaPublic},
		{Match: "@body/enum_case_definitions/simple_enum_case", Symbol: "enumMember", Name: "@name"},
		{Match: "@body/type_definition", Symbol: "type", Name: "@name", Exported: scalaPublic},
	}
	scala := func(match, symbol string) Rule {
		return Rule{Match: match, Symbol: symbol, Name: "@name", Exported: scalaPublic, Header: "@body", Members: scalaMembers}
	}
	register([]string{"scala"}, &Spec{Rules: []Rule{
		{Match: "import_declaration", Symbol: "module", Exported: "never", Import: true},
		scala("object_definition", "object"), scala("class_definition", "class"), scala("trait_definition", "interface"),
		scala("enum_definition", "enum"),
		{Match: "function_definition|function_declaration", Symbol: "function", Name: "@name", Exported: scalaPublic, Header: "@body"},
		{Match: "val_definition|var_definition", Symbol: "variable", Name: "@pattern", Exported: scalaPublic},
		{Match: "type_definition", Symbol: "type", Name: "@name", Exported: scalaPublic},
	}})
	// Dart: imports, classes, mixins, enums, extensions, functions,
	// top-level variables and typedefs; a leading underscore is private.
	dartMembers := []Rule{
		{Match: "@body/method_signature/function_signature|getter_signature|setter_signature", Symbol: "method", Name: "@name", Exported: "public-name"},
		{Match: "@body/declaration/function_signature", Symbol: "method", Name: "@name", Exported: "public-name"},
		{Match: "@body/declaration/constructor_signature", Symbol: "constructor", Name: "@name", Exported: "public-name"},
		{Match: "@body/declaration/initialized_identifier_list/initialized_identifier", Symbol: "field", Name: "identifier", Exported: "public-name"},
		{Match: "@body/enum_constant", Symbol: "enumMember", Name: "@name"},
	}
	register([]string{"dart"}, &Spec{Rules: []Rule{
		{Match: "import_or_export/library_import/import_specification", Symbol: "module", Name: "configurable_uri", Import: true, Exported: "never"},
		{Match: "class_definition", Symbol: "class", Name: "@name", Exported: "public-name", Header: "@body", Members: dartMembers},
		{Match: "mixin_declaration", Symbol: "class", Name: "identifier", Exported: "public-name", Members: dartMembers},
		{Match: "enum_declaration", Symbol: "enum", Name: "@name", Exported: "public-name", Header: "@body", Members: dartMembers},
		{Match: "extension_declaration", Symbol: "object", Name: "@name", Exported: "public-name", Header: "@body", Members: dartMembers},
		{Match: "function_signature", Symbol: "function", Name: "@name", Exported: "public-name"},
		{Match: "static_final_declaration_list/static_final_declaration", Symbol: "constant", Name: "identifier", Exported: "public-name"},
		{Match: "initialized_identifier_list/initialized_identifier", Symbol: "variable", Name: "identifier", Exported: "public-name"},
		{Match: "type_alias", Symbol: "type", Name: "type_identifier", Exported: "public-name"},
	}})
})
