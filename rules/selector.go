package rules

// selectorRule is `kind` written as an ESQuery/CSS-like selector
// (call_expression > arguments > number).
type selectorRule struct {
	kinds kindSet
	test  func(s *state, n int32, e *env) bool
}

func (r selectorRule) match(s *state, n int32, e *env) bool { return r.test(s, n, e) }

// compileSelector compiles a kind selector.
func compileSelector(c *compiler, v *yamlValue, text string) (matchRule, error) {
	return nil, c.errorf(v, "kind selectors (%q) are not supported yet: write the relation with inside/has/precedes/follows", text)
}
