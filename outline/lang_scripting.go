package outline

// Lua and shells: functions and top-level assignments.
var _ = define(func() {
	// Lua: functions (M.f and M:m are named in full), local functions,
	// global assignments; `local` ones are not exported.
	register([]string{"lua"}, &Spec{Rules: []Rule{
		{Match: "@local_declaration=function_declaration", Symbol: "function", Name: "@name", Header: "@body", Exported: "never"},
		{Match: "function_declaration", Symbol: "function", Name: "@name", Header: "@body"},
		{Match: "@local_declaration=variable_declaration/assignment_statement", Symbol: "variable", Name: "variable_list/@name", EachName: true, Exported: "never"},
		{Match: "assignment_statement", Symbol: "variable", Name: "variable_list/@name=identifier", EachName: true},
	}})
	// Bash: functions, sourced files, variables (exported: `export`).
	register([]string{"bash"}, &Spec{Rules: []Rule{
		{Match: "command", Symbol: "module", Name: "@argument", Import: true, Exported: "never", If: "text:@name~^(source|\\.)$"},
		{Match: "function_definition", Symbol: "function", Name: "@name", Header: "@body"},
		{Match: "variable_assignment", Symbol: "variable", Name: "@name", Exported: "never"},
		{Match: "declaration_command/variable_assignment", Symbol: "variable", Name: "@name", Exported: "text:^~^export"},
	}})
})
