package outline

// Ruby: require/require_relative/load, modules and classes (methods,
// singleton methods, constants and nested modules and classes as members),
// top-level methods and constants. Everything is public: Ruby's private
// marks a region of a class body, which the members do not see.
var _ = define(func() {
	var members []Rule
	for range 2 { // members, and the members of nested modules and classes
		members = []Rule{
			{Match: "@body/method", Symbol: "method", Name: "@name", Header: "@body"},
			{Match: "@body/singleton_method", Symbol: "method", Name: "@name", Header: "@body"},
			{Match: "@body/class", Symbol: "class", Name: "@name", Header: "@body", Members: members},
			{Match: "@body/module", Symbol: "module", Name: "@name", Header: "@body", Members: members},
			{Match: "@body/assignment", Symbol: "constant", Name: "@left=constant"},
		}
	}
	rules := []Rule{
		{Match: "call", Symbol: "module", Name: "@arguments/string/string_content", Import: true, Exported: "never",
			If: "text:@method~^(require|require_relative|load)$"},
		{Match: "module", Symbol: "module", Name: "@name", Header: "@body", Members: members},
		{Match: "class", Symbol: "class", Name: "@name", Header: "@body", Members: members},
		{Match: "method", Symbol: "function", Name: "@name", Header: "@body"},
		{Match: "singleton_method", Symbol: "function", Name: "@name", Header: "@body"},
		{Match: "assignment", Symbol: "constant", Name: "@left=constant"},
	}
	register([]string{"ruby"}, &Spec{Rules: rules})
})
