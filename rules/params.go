package rules

import (
	"maps"
	"slices"
	"strings"
)

// Utils with arguments (ast-grep 0.43+): a global util declares
// `arguments: [ARG…]` and uses `matches: ARG` for the caller's rule; a
// caller passes them with `matches: {util-id: {ARG: rule}}`. As in ast-grep
// (rule/parameterized_util.rs): the util runs in a fresh environment; each
// call has an export environment, where argument rules record their
// bindings (each matched against a copy of it); once the util has matched,
// the variables its argument rules define are copied to the caller. An
// argument rule that only refers to another argument defines none, so
// bindings do not travel through two levels of calls.

// argFrame is one call of a util with arguments under way.
type argFrame struct {
	args   map[string]argRule
	export *env
}

// argRule is a rule passed as an argument, with the variables it defines.
type argRule struct {
	rule matchRule
	vars []string
}

// utilCall is `matches: {util-id: {ARG: rule}}`.
type utilCall struct {
	ref      *utilRef
	args     map[string]argRule
	exported []string // the variables the arguments define
	at       *yamlValue
}

func (r *utilCall) match(s *state, n int32, e *env) bool {
	if s.depth >= maxUtilDepth {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	frame := argFrame{args: r.args, export: newEnv()}
	savedExport := s.export
	s.frames, s.export = append(s.frames, frame), frame.export
	ok := r.ref.target.rule.match(s, n, newEnv())
	s.frames, s.export = s.frames[:len(s.frames)-1], savedExport
	return ok && exportVars(s, frame.export, e, r.exported)
}

// exportVars copies the named bindings of from into to; a name bound in
// both to different code fails the match.
// The maps of to are replaced, not written (see env).
func exportVars(s *state, from, to *env, names []string) bool {
	single, multi := maps.Clone(to.vars.Single), maps.Clone(to.vars.Multi)
	if single == nil {
		single = map[string]int32{}
	}
	if multi == nil {
		multi = map[string][]int32{}
	}
	for _, name := range names {
		if n, ok := from.vars.Single[name]; ok {
			if old, bound := single[name]; bound && !sameText(s, old, n) {
				return false
			}
			single[name] = n
		}
		if nodes, ok := from.vars.Multi[name]; ok {
			multi[name] = nodes
		}
	}
	to.vars.Single, to.vars.Multi = single, multi
	return true
}

// sameText compares two nodes' text (a variable bound twice).
func sameText(s *state, a, b int32) bool { return string(s.t.Text(a)) == string(s.t.Text(b)) }

// argRef is `matches: ARG` inside a util with arguments: the rule the
// nearest call passed for ARG, run where that call was made (the frames
// outside it), against a copy of the export environment of the call under
// way (state.export, which a bound rule's evaluation does not change).
type argRef struct{ name string }

func (r argRef) match(s *state, n int32, _ *env) bool {
	export := s.export
	for i := len(s.frames) - 1; i >= 0; i-- {
		arg, ok := s.frames[i].args[r.name]
		if !ok {
			continue
		}
		saved := s.frames
		s.frames = s.frames[:i]
		local := export.clone()
		ok = arg.rule.match(s, n, local)
		s.frames = saved
		return ok && exportVars(s, local, export, arg.vars)
	}
	return false
}

// compileUtilCall compiles the map form of `matches`.
func (c *compiler) compileUtilCall(v *yamlValue) (matchRule, error) {
	if len(v.keys) != 1 {
		return nil, c.errorf(v, "`matches` with arguments names one util: {util-id: {ARG: rule, …}}")
	}
	args := v.values[0]
	if args.kind != yamlMap {
		return nil, c.errorf(args, "the arguments of util `%s` are a map ARG: rule, not %s", v.keys[0], args.describe())
	}
	call := &utilCall{ref: &utilRef{id: v.keys[0], at: v}, args: map[string]argRule{}, at: v}
	outer := c.vars
	defer func() { c.vars = outer }()
	for i, name := range args.keys {
		c.vars = map[string]bool{}
		rule, err := c.compileRule(args.values[i])
		if err != nil {
			return nil, err
		}
		arg := argRule{rule: rule}
		for v := range c.vars {
			arg.vars = append(arg.vars, v)
			outer[v] = true
		}
		slices.Sort(arg.vars)
		call.args[name] = arg
		call.exported = append(call.exported, arg.vars...)
	}
	c.refs = append(c.refs, call.ref)
	c.calls = append(c.calls, call)
	return call, nil
}

// checkCalls checks, once utils are resolved, that each call passes exactly
// the arguments its util declares, and that a util with arguments is
// never used without them.
func (c *compiler) checkCalls() error {
	for _, call := range c.calls {
		declared := call.ref.target.params
		var passed []string
		for name := range call.args {
			passed = append(passed, name)
		}
		slices.Sort(passed)
		if !slices.Equal(passed, declared) {
			return c.errorf(call.at, "util `%s` takes the arguments [%s], given [%s]: pass each declared argument once", call.ref.id,
				strings.Join(declared, ", "), strings.Join(passed, ", "))
		}
	}
	for _, ref := range c.refs {
		if len(ref.target.params) > 0 && !slices.ContainsFunc(c.calls, func(call *utilCall) bool { return call.ref == ref }) {
			return c.errorf(ref.at, "util `%s` takes arguments [%s]: call it as matches: {%s: {%s: RULE}}", ref.id,
				strings.Join(ref.target.params, ", "), ref.id, ref.target.params[0])
		}
	}
	return nil
}

// compileParams reads a global util's `arguments`.
func (c *compiler) compileParams(v *yamlValue) ([]string, error) {
	if v.kind != yamlSeq {
		return nil, c.errorf(v, "`arguments` is a list of argument names, not %s", v.describe())
	}
	var out []string
	for _, item := range v.items {
		name, err := c.stringValue(item)
		if err != nil {
			return nil, err
		}
		out = append(out, name)
	}
	slices.Sort(out)
	if len(slices.Compact(slices.Clone(out))) != len(out) {
		return nil, c.errorf(v, "an argument is declared twice: give each a distinct name")
	}
	return out, nil
}
