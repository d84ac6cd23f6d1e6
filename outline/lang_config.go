package outline

// Schema, build and configuration languages whose files declare named
// things: Protocol Buffers, GraphQL, HCL (Terraform), SQL, CSS, TOML and
// INI sections, Dockerfile stages, Make, just and CMake.
var _ = define(func() {
	register([]string{"protobuf"}, &Spec{Rules: []Rule{
		{Match: "package", Symbol: "package", Name: "full_ident"},
		{Match: "import", Symbol: "module", Name: "@path", Import: true, Exported: "never"},
		{Match: "message", Symbol: "struct", Name: "message_name", Header: "message_body", Members: []Rule{
			{Match: "message_body/field|map_field", Symbol: "field", Name: "identifier"},
			{Match: "message_body/oneof", Symbol: "field", Name: "identifier"},
			{Match: "message_body/message", Symbol: "struct", Name: "message_name"},
			{Match: "message_body/enum", Symbol: "enum", Name: "enum_name"},
		}},
		{Match: "enum", Symbol: "enum", Name: "enum_name", Header: "enum_body", Members: []Rule{
			{Match: "enum_body/enum_field", Symbol: "enumMember", Name: "identifier"},
		}},
		{Match: "service", Symbol: "interface", Name: "service_name", Members: []Rule{
			{Match: "rpc", Symbol: "method", Name: "rpc_name"},
		}},
	}})
	gqlType := func(kind, symbol, fields, field string) Rule {
		return Rule{Match: "document/definition/type_system_definition/type_definition/" + kind, Symbol: symbol, Name: "name",
			Header: fields, Members: []Rule{{Match: fields + "/" + field, Symbol: "field", Name: "name"}}}
	}
	register([]string{"graphql"}, &Spec{Rules: []Rule{
		gqlType("object_type_definition", "class", "fields_definition", "field_definition"),
		gqlType("interface_type_definition", "interface", "fields_definition", "field_definition"),
		gqlType("input_object_type_definition", "struct", "input_fields_definition", "input_value_definition"),
		{Match: "document/definition/type_system_definition/type_definition/enum_type_definition", Symbol: "enum", Name: "name",
			Members: []Rule{{Match: "enum_values_definition/enum_value_definition", Symbol: "enumMember", Name: "enum_value"}}},
		{Match: "document/definition/type_system_definition/type_definition/scalar_type_definition|union_type_definition", Symbol: "type", Name: "name"},
		{Match: "document/definition/type_system_definition/directive_definition", Symbol: "function", Name: "name"},
		{Match: "document/definition/executable_definition/operation_definition", Symbol: "function", Name: "name"},
		{Match: "document/definition/executable_definition/fragment_definition", Symbol: "function", Name: "fragment_name/name"},
	}})
	// HCL: each block, named after its last label (`resource
	// "aws_instance" "web"` is web; its signature shows the type), or its
	// type when it has none (`locals`); top-level attributes.
	hclMembers := []Rule{
		{Match: "body/attribute", Symbol: "field", Name: "identifier"},
		{Match: "body/block", Symbol: "object", Name: "identifier"},
	}
	register([]string{"hcl"}, &Spec{Rules: []Rule{
		{Match: "body/block", Symbol: "module", Name: "string_lit/template_literal", If: "text:identifier~^module$", Members: hclMembers},
		{Match: "body/block", Symbol: "variable", Name: "string_lit/template_literal", If: "text:identifier~^(variable|output)$", Members: hclMembers},
		{Match: "body/block", Symbol: "object", Name: "string_lit#2/template_literal", Members: hclMembers},
		{Match: "body/block", Symbol: "object", Name: "string_lit/template_literal", Members: hclMembers},
		{Match: "body/block", Symbol: "object", Name: "identifier", Members: []Rule{
			{Match: "body/attribute", Symbol: "field", Name: "identifier"},
		}},
		{Match: "body/attribute", Symbol: "variable", Name: "identifier"},
	}})
	sqlCreate := func(kind, symbol string) Rule {
		return Rule{Match: "statement/" + kind, Symbol: symbol, Name: "object_reference", Members: []Rule{
			{Match: "column_definitions/column_definition", Symbol: "field", Name: "@name"},
		}}
	}
	register([]string{"sql"}, &Spec{Rules: []Rule{
		sqlCreate("create_table", "struct"), sqlCreate("create_view", "struct"), sqlCreate("create_materialized_view", "struct"),
		sqlCreate("create_function", "function"), sqlCreate("create_type", "type"), sqlCreate("create_schema", "namespace"),
		{Match: "statement/create_index", Symbol: "key", Name: "@column"},
		{Match: "statement/create_trigger", Symbol: "event", Name: "object_reference"},
	}})
	// CSS: rule sets named by their selectors, at-rules by their query.
	register([]string{"css"}, &Spec{Rules: []Rule{
		{Match: "import_statement", Symbol: "module", Name: "string_value", Import: true, Exported: "never"},
		{Match: "rule_set", Symbol: "class", Name: "selectors"},
		{Match: "media_statement", Symbol: "namespace", Label: "@media", Header: "block", Members: []Rule{{Match: "block/rule_set", Symbol: "class", Name: "selectors"}}},
		{Match: "keyframes_statement", Symbol: "function", Name: "keyframes_name"},
	}})
	// TOML and INI: tables and sections, their keys as members.
	register([]string{"toml"}, &Spec{Rules: []Rule{
		{Match: "table|table_array_element", Symbol: "module", Name: "bare_key|dotted_key|quoted_key", Members: []Rule{
			{Match: "pair", Symbol: "key", Name: "bare_key|dotted_key|quoted_key"},
		}},
		{Match: "pair", Symbol: "key", Name: "bare_key|dotted_key|quoted_key"},
	}})
	register([]string{"ini"}, &Spec{Rules: []Rule{
		{Match: "section", Symbol: "module", Name: "section_name/text", Members: []Rule{
			{Match: "setting", Symbol: "key", Name: "setting_name"},
		}},
	}})
	// Dockerfile: build stages (FROM … AS name, or the image), ARGs and ENVs.
	register([]string{"dockerfile"}, &Spec{Rules: []Rule{
		{Match: "from_instruction", Symbol: "module", Name: "@as"},
		{Match: "from_instruction", Symbol: "module", Name: "image_spec"},
		{Match: "arg_instruction", Symbol: "variable", Name: "@name"},
		{Match: "env_instruction/env_pair", Symbol: "variable", Name: "@name"},
	}})
	// Make and just: rules and recipes (targets), variables, includes.
	register([]string{"make"}, &Spec{Rules: []Rule{
		{Match: "include_directive", Symbol: "module", Name: "@filenames", Import: true, Exported: "never"},
		{Match: "rule", Symbol: "function", Name: "targets/word", EachName: true, Header: "recipe"},
		{Match: "variable_assignment", Symbol: "variable", Name: "@name"},
	}})
	register([]string{"just"}, &Spec{Rules: []Rule{
		{Match: "recipe", Symbol: "function", Name: "recipe_header/@name", Header: "recipe_body"},
		{Match: "assignment", Symbol: "variable", Name: "@left"},
		{Match: "alias", Symbol: "function", Name: "@left"},
	}})
	// CMake: functions and macros it defines.
	register([]string{"cmake"}, &Spec{Rules: []Rule{
		{Match: "function_def", Symbol: "function", Name: "function_command/argument_list/argument"},
		{Match: "macro_def", Symbol: "macro", Name: "macro_command/argument_list/argument"},
	}})
})
