package outline

// Elixir, Haskell and OCaml.
var _ = define(func() {
	// Elixir: modules (defmodule) with their functions, macros and
	// structs; defp is private. The grammar sees every form as a call.
	defs := []Rule{
		{Match: "do_block/call", Symbol: "function", Name: "arguments/call/@target", If: "text:@target~^(def|defp|defdelegate|defguard|defguardp)$", Exported: "text:@target~^(def|defdelegate|defguard)$"},
		{Match: "do_block/call", Symbol: "function", Name: "arguments/binary_operator/@left/@target", If: "text:@target~^(def|defp)$", Exported: "text:@target~^def$"},
		{Match: "do_block/call", Symbol: "function", Name: "arguments/identifier", If: "text:@target~^(def|defp)$", Exported: "text:@target~^def$"},
		{Match: "do_block/call", Symbol: "macro", Name: "arguments/call/@target", If: "text:@target~^(defmacro|defmacrop)$", Exported: "text:@target~^defmacro$"},
		{Match: "do_block/call", Symbol: "struct", Label: "%__MODULE__{}", If: "text:@target~^defstruct$"},
		{Match: "do_block/call", Symbol: "module", Name: "arguments/alias", Import: true, If: "text:@target~^(alias|import|use|require)$", Exported: "never"},
	}
	register([]string{"elixir"}, &Spec{Rules: []Rule{
		{Match: "call", Symbol: "module", Name: "arguments/alias", If: "text:@target~^(defmodule|defprotocol|defimpl)$", Members: defs},
		{Match: "call", Symbol: "module", Name: "arguments/alias", Import: true, If: "text:@target~^(alias|import|use|require)$", Exported: "never"},
	}})
	// Haskell: imports, data types, newtypes, synonyms, classes, and
	// functions (their type signatures and equations are one symbol, at
	// the first). Exported: named in the module's export list, or every
	// top-level name when there is none.
	const listed = "listed:header/@exports/export/*"
	register([]string{"haskell"}, &Spec{Rules: []Rule{
		{Match: "imports/import", Symbol: "module", Name: "@module", Import: true, Exported: "never"},
		{Match: "declarations/data_type", Symbol: "struct", Name: "@name", Exported: listed, Members: []Rule{
			{Match: "@constructors/@constructor/*", Symbol: "enumMember", Name: "@name"},
		}},
		{Match: "declarations/newtype", Symbol: "struct", Name: "@name", Exported: listed},
		{Match: "declarations/type_synomym|type_family", Symbol: "type", Name: "@name", Exported: listed},
		{Match: "declarations/class", Symbol: "interface", Name: "@name", Exported: listed, Members: []Rule{
			{Match: "@declarations/@declaration=signature", Symbol: "method", Name: "@name"},
		}},
		{Match: "declarations/instance", Symbol: "object", Name: "@name"},
		{Match: "declarations/signature", Symbol: "function", Name: "@name", Once: true, Exported: listed},
		{Match: "declarations/function|bind", Symbol: "function", Name: "@name", Once: true, Exported: listed},
	}})
	// OCaml: opens, types, lets, modules, module types, exceptions.
	register([]string{"ocaml"}, &Spec{Rules: []Rule{
		{Match: "open_module", Symbol: "module", Name: "@module", Import: true, Exported: "never"},
		{Match: "type_definition/type_binding", Symbol: "type", Name: "@name", Members: []Rule{
			{Match: "@body/constructor_declaration", Symbol: "enumMember", Name: "constructor_name"},
			{Match: "@body/field_declaration", Symbol: "field", Name: "field_name"},
		}},
		{Match: "value_definition/let_binding", Symbol: "function", Name: "@pattern", If: "has:parameter"},
		{Match: "value_definition/let_binding", Symbol: "variable", Name: "@pattern"},
		{Match: "module_definition/module_binding", Symbol: "module", Name: "module_name"},
		{Match: "module_type_definition", Symbol: "interface", Name: "module_type_name"},
		{Match: "exception_definition/constructor_declaration", Symbol: "class", Name: "constructor_name"},
		{Match: "external", Symbol: "function", Name: "value_name"},
	}})
})
