package rules

import (
	"fmt"
	"regexp"
	"strings"
)

var transformOps = []string{"replace", "substring", "convert", "rewrite"}

var transformFields = map[string][]string{
	"replace":   {"source", "replace", "by"},
	"substring": {"source", "startChar", "endChar"},
	"convert":   {"source", "toCase", "separatedBy"},
	"rewrite":   {"source", "rewriters", "joinBy"},
}

var caseNames = []string{"lowerCase", "upperCase", "capitalize", "camelCase", "snakeCase", "kebabCase", "pascalCase"}

// compileTransforms reads `transform` and orders it so each entry comes
// after the entry its source names.
func (c *compiler) compileTransforms(v *yamlValue, co *core) ([]*transform, error) {
	if v.kind != yamlMap {
		return nil, c.errorf(v, "`transform` maps new variable names to transformations, not %s", v.describe())
	}
	byName := map[string]*transform{}
	at := map[string]*yamlValue{}
	for i, name := range v.keys {
		item := v.values[i]
		t, err := c.compileTransform(name, item, co)
		if err != nil {
			return nil, err
		}
		byName[name], at[name] = t, item
	}
	for _, name := range v.keys {
		t := byName[name]
		if c.vars[name] && t.source != name {
			return nil, c.errorf(at[name], "transform variable `%s` is already defined by the rule: pick another name", name)
		}
		if _, isTransform := byName[t.source]; !isTransform && !c.vars[t.source] {
			return nil, c.errorf(at[name], "undefined metavariable `%s` used in `transform`: transform a variable the rule binds", t.source)
		}
	}
	var ordered []*transform
	state := map[string]int{}
	var visit func(name string) error
	visit = func(name string) error {
		switch state[name] {
		case 1:
			return c.errorf(at[name], "`%s` has a cyclic dependency in `transform`", name)
		case 2:
			return nil
		}
		state[name] = 1
		if _, ok := byName[byName[name].source]; ok {
			if err := visit(byName[name].source); err != nil {
				return err
			}
		}
		state[name] = 2
		ordered = append(ordered, byName[name])
		return nil
	}
	for _, name := range v.keys {
		if err := visit(name); err != nil {
			return nil, err
		}
	}
	return ordered, nil
}

// compileTransform reads one transformation: {op: {fields}} or the string
// form op($SRC, key=value, …).
func (c *compiler) compileTransform(name string, v *yamlValue, co *core) (*transform, error) {
	var op string
	var fields *yamlValue
	switch v.kind {
	case yamlScalar:
		var err error
		if op, fields, err = c.parseTransformString(v); err != nil {
			return nil, err
		}
	case yamlMap:
		if len(v.keys) != 1 || !contains(transformOps, v.keys[0]) {
			return nil, c.errorf(v, "a transformation has exactly one key, one of %s", strings.Join(transformOps, ", "))
		}
		op, fields = v.keys[0], v.values[0]
	default:
		return nil, c.errorf(v, "a transformation is a map such as {replace: {source: $A, replace: x, by: y}} or a string such as replace($A, replace=x, by=y), not %s", v.describe())
	}
	if err := c.ignoreUnknownKeys(fields, "`"+op+"`", transformFields[op]); err != nil {
		return nil, err
	}
	t := &transform{name: name, op: op}
	src := fields.get("source")
	if src == nil {
		return nil, c.errorf(fields, "`%s` needs `source`: the variable to transform, e.g. $A", op)
	}
	s, err := c.stringValue(src)
	if err != nil {
		return nil, err
	}
	switch {
	case strings.HasPrefix(s, "$$$"):
		t.source, t.multi = s[3:], true
	case strings.HasPrefix(s, "$$"):
		t.source = s[2:]
	case strings.HasPrefix(s, "$"):
		t.source = s[1:]
	default:
		return nil, c.errorf(src, "source `%s` should be $-prefixed, e.g. $%s", s, s)
	}
	if t.source == "" || t.source == "_" || !metaVarPattern().MatchString("$"+t.source) {
		return nil, c.errorf(src, "source `%s` is not a metavariable name: use upper-case letters, digits and _, e.g. $ARG", s)
	}
	return t, c.compileTransformFields(t, fields, co)
}

func (c *compiler) compileTransformFields(t *transform, fields *yamlValue, co *core) error {
	str := func(key string, required bool) (string, bool, error) {
		v := fields.get(key)
		if v == nil {
			if required {
				return "", false, c.errorf(fields, "`%s` needs `%s`", t.op, key)
			}
			return "", false, nil
		}
		s, err := c.stringValue(v)
		return s, true, err
	}
	switch t.op {
	case "replace":
		pattern, _, err := str("replace", true)
		if err != nil {
			return err
		}
		if t.re, err = regexp.Compile(pattern); err != nil {
			return c.errorf(fields.get("replace"), "the regex does not compile: %v", err)
		}
		t.by, _, err = str("by", true)
		return err
	case "substring":
		for key, dst := range map[string]**int{"startChar": &t.startChar, "endChar": &t.endChar} {
			if v := fields.get(key); v != nil {
				n, err := c.intValue(v)
				if err != nil {
					return err
				}
				*dst = &n
			}
		}
	case "convert":
		toCase, _, err := str("toCase", true)
		if err != nil {
			return err
		}
		if !contains(caseNames, toCase) {
			return c.errorf(fields.get("toCase"), "unknown toCase `%s`: expected one of %s", toCase, strings.Join(caseNames, ", "))
		}
		t.toCase = toCase
		if seps := fields.get("separatedBy"); seps != nil {
			if seps.kind != yamlSeq {
				return c.errorf(seps, "separatedBy is a list of %s", strings.Join(caseSeparators, ", "))
			}
			t.separators = []string{}
			for _, s := range seps.items {
				if !contains(caseSeparators, s.text) {
					return c.errorf(s, "unknown separator %s: expected one of %s", s.describe(), strings.Join(caseSeparators, ", "))
				}
				t.separators = append(t.separators, s.text)
			}
		}
	case "rewrite":
		rv := fields.get("rewriters")
		if rv == nil || rv.kind != yamlSeq {
			return c.errorf(fields, "`rewrite` needs `rewriters`: a list of rewriter ids")
		}
		for _, item := range rv.items {
			rw, ok := co.rewriters[item.text]
			if !ok {
				return c.errorf(item, "undefined rewriter `%s` used in transform: define it under `rewriters`", item.text)
			}
			t.rewriters = append(t.rewriters, rw)
		}
		if jb, ok, err := str("joinBy", false); err != nil {
			return err
		} else if ok {
			t.joinBy = &jb
		}
	}
	return nil
}

// parseTransformString reads the string form op($SRC, key=value, …) into
// the fields of the object form (values parsed as YAML scalars or lists).
func (c *compiler) parseTransformString(v *yamlValue) (string, *yamlValue, error) {
	text := v.text
	open := strings.IndexByte(text, '(')
	if open < 0 {
		return "", nil, c.errorf(v, "`%s` has syntax error: write op($SOURCE, key=value, …), e.g. substring($A, startChar=1)", text)
	}
	op := strings.TrimSpace(text[:open])
	if !contains(transformOps, op) {
		return "", nil, c.errorf(v, "`%s` is not a valid transformation: use one of %s", op, strings.Join(transformOps, ", "))
	}
	body := strings.TrimRight(text[open+1:], ") \t")
	comma := strings.IndexByte(body, ',')
	if comma < 0 {
		return "", nil, c.errorf(v, "`%s` has syntax error: a comma must follow the source, e.g. %s($A,)", text, op)
	}
	fields := &yamlValue{kind: yamlMap, line: v.line, col: v.col, path: v.path}
	add := func(key string, val *yamlValue) {
		val.path, val.line, val.col = joinPath(v.path, key), v.line, v.col
		fields.keys, fields.values = append(fields.keys, key), append(fields.values, val)
	}
	add("source", &yamlValue{kind: yamlScalar, text: strings.TrimSpace(body[:comma]), quoted: true})
	rest := body[comma+1:]
	for strings.TrimSpace(rest) != "" {
		rest = strings.TrimLeft(rest, " \t,")
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			return "", nil, c.errorf(v, "`%s` has syntax error: arguments are key=value", text)
		}
		key := strings.TrimSpace(rest[:eq])
		rest = strings.TrimLeft(rest[eq+1:], " \t")
		var raw string
		if rest != "" && strings.ContainsRune(`'"[`, rune(rest[0])) {
			closer := map[byte]byte{'\'': '\'', '"': '"', '[': ']'}[rest[0]]
			end := strings.IndexByte(rest[1:], closer)
			if end < 0 {
				return "", nil, c.errorf(v, "`%s` has syntax error: %c is not closed", text, rest[0])
			}
			raw, rest = rest[:end+2], rest[end+2:]
		} else {
			end := strings.IndexByte(rest, ',')
			if end < 0 {
				end = len(rest)
			}
			raw, rest = strings.TrimSpace(rest[:end]), rest[end:]
		}
		if !contains(transformFields[op], key) || key == "source" {
			return "", nil, c.errorf(v, "`%s` is not a valid argument of %s", key, op)
		}
		val, err := scalarYAML(raw)
		if err != nil {
			return "", nil, c.errorf(v, "argument %s=%s: %v", key, raw, err)
		}
		add(key, val)
	}
	return op, fields, nil
}

// scalarYAML parses a string-form argument as a YAML scalar or flow list.
func scalarYAML(raw string) (*yamlValue, error) {
	docs, err := parseYAML("argument", []byte("v: "+raw))
	if err != nil {
		return nil, fmt.Errorf("not a valid value")
	}
	if len(docs) == 0 {
		return &yamlValue{kind: yamlScalar}, nil
	}
	return docs[0].root.get("v"), nil
}
