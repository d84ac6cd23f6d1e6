package rules

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"

	"github.com/structls/structls/internal/suggest"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
)

// ruleKeys are the keys of a rule object, in the order ast-grep builds its
// implicit `all` from them: atomic, then composite, then relational.
var ruleKeys = []string{"pattern", "kind", "regex", "nthChild", "range", "all", "any", "not", "matches", "inside", "has", "precedes", "follows"}

// compiler compiles the rule objects of one document (and its utils,
// constraints and rewriters) for the document's language.
type compiler struct {
	file    string
	lang    *lang.Language
	grammar *sitter.Language
	local   map[string]*util // the document's utils
	global  map[string]*util // the project's utils for the language
	// vars collects the metavariables the rules define (for the checks
	// of constraints, transform, fix and labels).
	vars map[string]bool
	// warnings are things the rules probably do not mean (a Go call
	// pattern that parses as a type conversion), said at load time.
	warnings []string
	// ignored are the keys ast-grep ignores where it does not know them
	// (ignoreUnknownKeys); each is also in warnings.
	ignored []*Error
	refs    []*utilRef  // every `matches`, resolved after all utils compile
	calls   []*utilCall // the `matches` that pass arguments
	params  []string    // the arguments of the global util being compiled
}

func newCompiler(file string, l *lang.Language, global map[string]*util) *compiler {
	return &compiler{file: file, lang: l, grammar: l.Grammar(), local: map[string]*util{}, global: global, vars: map[string]bool{}}
}

// errorf makes an Error at a value.
func (c *compiler) errorf(v *yamlValue, format string, args ...any) *Error {
	return &Error{File: c.file, Line: v.line, Column: v.col, Field: v.path, Message: fmt.Sprintf(format, args...)}
}

// checkKeys rejects keys outside allowed.
func (c *compiler) checkKeys(v *yamlValue, what string, allowed []string) error {
	if v.kind != yamlMap {
		return c.errorf(v, "%s must be a map, not %s", what, v.describe())
	}
	for i, k := range v.keys {
		if !contains(allowed, k) {
			e := c.errorf(v.values[i], "unknown field `%s` in %s: expected one of %s", k, what, strings.Join(allowed, ", "))
			if i < len(v.keyAt) {
				e.Line, e.Column = v.keyAt[i][0], v.keyAt[i][1]
			}
			return e
		}
	}
	return nil
}

// ignoreUnknownKeys is checkKeys for the objects where ast-grep 0.51.1
// ignores a key it does not know rather than refusing the file (a
// relational rule's object, nthChild, range, a fix, a label, a glob, a
// rewriter, a transformation's fields, sgconfig.yml, a test config, a test
// file, a global util): the key is ignored and a warning says where, and
// which known key it may be a typo for (docs/ast-grep-differences.md).
func (c *compiler) ignoreUnknownKeys(v *yamlValue, what string, allowed []string) error {
	if v.kind != yamlMap {
		return c.errorf(v, "%s must be a map, not %s", what, v.describe())
	}
	for i, k := range v.keys {
		if contains(allowed, k) {
			continue
		}
		msg := fmt.Sprintf("unknown field `%s` in %s is ignored (as ast-grep does): ", k, what)
		if home := keyHomes[k]; home != "" {
			msg += fmt.Sprintf("`%s` belongs in `%s`", k, home)
		} else if near := nearestKey(k, allowed); near != "" {
			msg += fmt.Sprintf("did you mean `%s`?", near)
		} else {
			msg += "expected one of " + strings.Join(allowed, ", ")
		}
		e := c.errorf(v.values[i], "%s", msg)
		if i < len(v.keyAt) {
			e.Line, e.Column = v.keyAt[i][0], v.keyAt[i][1]
		}
		c.ignored = append(c.ignored, e)
		c.warnings = append(c.warnings, e.Error())
	}
	return nil
}

// keyHomes names the object a key misplaced in a rule object belongs in.
var keyHomes = map[string]string{"position": "nthChild", "ofRule": "nthChild", "reverse": "nthChild", "context": "pattern", "selector": "pattern", "strictness": "pattern"}

// knownKeys drops the keys of a map outside allowed (ignored by
// ignoreUnknownKeys) and returns the map of the rest.
func knownKeys(v *yamlValue, allowed []string) *yamlValue {
	out := &yamlValue{kind: yamlMap, line: v.line, col: v.col, path: v.path}
	for i, k := range v.keys {
		if contains(allowed, k) {
			out.keys, out.values = append(out.keys, k), append(out.values, v.values[i])
			if i < len(v.keyAt) {
				out.keyAt = append(out.keyAt, v.keyAt[i])
			}
		}
	}
	return out
}

// nearestKey returns the allowed key a typo most likely meant: the same
// but for case, or within two edits; "" when none is that near.
func nearestKey(k string, allowed []string) string {
	best, bestDist := "", 3
	for _, a := range allowed {
		if strings.EqualFold(a, k) {
			return a
		}
		if d := suggest.Distance(strings.ToLower(k), strings.ToLower(a)); d < bestDist {
			best, bestDist = a, d
		}
	}
	return best
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// stringValue reads a scalar as a string.
func (c *compiler) stringValue(v *yamlValue) (string, error) {
	if v.kind != yamlScalar {
		return "", c.errorf(v, "expected a string, not %s", v.describe())
	}
	return v.text, nil
}

// intValue reads a scalar as an integer.
func (c *compiler) intValue(v *yamlValue) (int, error) {
	if v.kind == yamlScalar && !v.quoted {
		if n, err := strconv.Atoi(v.text); err == nil {
			return n, nil
		}
	}
	return 0, c.errorf(v, "expected a whole number, not %s", v.describe())
}

// boolValue reads a scalar as a boolean.
func (c *compiler) boolValue(v *yamlValue) (bool, error) {
	if v.kind == yamlScalar && !v.quoted && (v.text == "true" || v.text == "false") {
		return v.text == "true", nil
	}
	return false, c.errorf(v, "expected true or false, not %s", v.describe())
}

// compileRule compiles a rule object: every key present must hold.
func (c *compiler) compileRule(v *yamlValue) (matchRule, error) {
	if err := c.checkKeys(v, "a rule object", ruleKeys); err != nil {
		return nil, err
	}
	if len(v.keys) == 0 {
		return nil, c.errorf(v, "a rule object needs at least one of %s", strings.Join(ruleKeys, ", "))
	}
	var members []matchRule
	for _, key := range ruleKeys {
		field := v.get(key)
		if field == nil {
			continue
		}
		r, err := c.compileKey(key, field)
		if err != nil {
			return nil, err
		}
		members = append(members, r)
	}
	if len(members) == 1 {
		return members[0], nil
	}
	return allRule{members: members}, nil
}

func (c *compiler) compileKey(key string, v *yamlValue) (matchRule, error) {
	switch key {
	case "pattern":
		return c.compilePattern(v)
	case "kind":
		return c.compileKind(v)
	case "regex":
		s, err := c.stringValue(v)
		if err != nil {
			return nil, err
		}
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, c.errorf(v, "the regex does not compile: %v (the syntax is RE2's, as Rust's regex crate)", err)
		}
		return newRegexRule(re), nil
	case "nthChild":
		return c.compileNthChild(v)
	case "range":
		return c.compileRange(v)
	case "all", "any":
		if v.kind != yamlSeq {
			return nil, c.errorf(v, "`%s` takes a list of rule objects, not %s", key, v.describe())
		}
		var members []matchRule
		for _, item := range v.items {
			r, err := c.compileRule(item)
			if err != nil {
				return nil, err
			}
			members = append(members, r)
		}
		if key == "all" {
			return allRule{members: members}, nil
		}
		return anyRule{members: members}, nil
	case "not":
		inner, err := c.compileRule(v)
		if err != nil {
			return nil, err
		}
		return notRule{inner: inner}, nil
	case "matches":
		return c.compileMatches(v)
	}
	return c.compileRelation(key, v)
}

// compilePattern compiles `pattern`: a string, or {context, selector?, strictness?}.
func (c *compiler) compilePattern(v *yamlValue) (matchRule, error) {
	var source string
	opts := matcher.Options{Strictness: matcher.Smart}
	switch v.kind {
	case yamlScalar:
		source = v.text
	case yamlMap:
		if err := c.checkKeys(v, "a pattern object", []string{"context", "selector", "strictness"}); err != nil {
			return nil, err
		}
		ctxVal := v.get("context")
		if ctxVal == nil {
			return nil, c.errorf(v, "a pattern object needs `context`: the code around the pattern (with `selector` naming the pattern's kind)")
		}
		var err error
		if source, err = c.stringValue(ctxVal); err != nil {
			return nil, err
		}
		if sel := v.get("selector"); sel != nil {
			if opts.Selector, err = c.stringValue(sel); err != nil {
				return nil, err
			}
			if _, err := c.kindSymbols(sel, opts.Selector); err != nil {
				return nil, err
			}
		}
		if st := v.get("strictness"); st != nil {
			name, err := c.stringValue(st)
			if err != nil {
				return nil, err
			}
			if opts.Strictness, err = matcher.ParseStrictness(name); err != nil {
				return nil, c.errorf(st, "%v", err)
			}
		}
	default:
		return nil, c.errorf(v, "`pattern` is a string of code, or a map {context, selector, strictness}; not %s", v.describe())
	}
	p, err := matcher.Compile(context.Background(), c.lang, source, opts)
	if err != nil {
		return nil, c.errorf(v, "the pattern does not compile as %s: %v", c.lang.Name, err)
	}
	for _, name := range metaVarNames(source) {
		c.vars[name] = true
	}
	if hint := p.AmbiguityHint(); hint != "" && opts.Selector == "" {
		c.warnings = append(c.warnings, fmt.Sprintf("%s:%d: %s: %s", c.file, v.line, v.path, hint))
	}
	return patternRule{p: p}, nil
}

// metaVarPattern finds the metavariables a pattern or template names. This
// package's regular expressions are compiled on first use: compiled at
// start-up they cost every process (a search, an outline) a millisecond of
// its 20 and the fresh memory they were built in.
var metaVarPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\${1,3}([A-Z_][A-Z0-9_]*)`) })

func metaVarNames(s string) []string {
	var out []string
	for _, m := range metaVarPattern().FindAllStringSubmatch(s, -1) {
		if m[1] != "_" && !strings.HasPrefix(m[1], "_") {
			out = append(out, m[1])
		}
	}
	return out
}

// compileKind compiles `kind`: a kind name of the grammar.
func (c *compiler) compileKind(v *yamlValue) (matchRule, error) {
	name, err := c.stringValue(v)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(name, " >+~,:().") {
		return compileSelector(c, v, name)
	}
	symbols, err := c.kindSymbols(v, name)
	if err != nil {
		return nil, err
	}
	return kindRule{symbols: slices.Sorted(maps.Keys(symbols))}, nil
}

// kindSymbols returns the ids a named kind has in the grammar.
func (c *compiler) kindSymbols(v *yamlValue, name string) (map[uint16]bool, error) {
	symbols := map[uint16]bool{}
	for id := range uint16(c.grammar.NodeKindCount()) {
		if c.grammar.NodeKindIsNamed(id) && c.grammar.NodeKindForId(id) == name {
			symbols[id] = true
		}
	}
	if name == "ERROR" {
		symbols[errorSymbol] = true
	}
	if len(symbols) == 0 {
		return nil, c.errorf(v, "kind `%s` is not a node kind of %s: list the kinds of a file with `structls xray --dump-ast FILE`", name, c.lang.Name)
	}
	return symbols, nil
}

// errorSymbol is the kind id tree-sitter gives ERROR nodes.
const errorSymbol = 0xFFFF

// compileNthChild compiles `nthChild`: N, "An+B", or {position, ofRule, reverse}.
func (c *compiler) compileNthChild(v *yamlValue) (matchRule, error) {
	r := nthChildRule{}
	pos := v
	if v.kind == yamlMap {
		if err := c.ignoreUnknownKeys(v, "nthChild", []string{"position", "ofRule", "reverse"}); err != nil {
			return nil, err
		}
		if pos = v.get("position"); pos == nil {
			return nil, c.errorf(v, "nthChild needs `position`: a number or An+B")
		}
		if rev := v.get("reverse"); rev != nil {
			var err error
			if r.reverse, err = c.boolValue(rev); err != nil {
				return nil, err
			}
		}
		if of := v.get("ofRule"); of != nil {
			var err error
			if r.of, err = c.compileRule(of); err != nil {
				return nil, err
			}
		}
	}
	if pos.kind != yamlScalar {
		return nil, c.errorf(pos, "nthChild's position is a number or a formula An+B (e.g. 2n+1), not %s", pos.describe())
	}
	var err error
	if r.step, r.offset, err = parseNth(pos.text); err != nil {
		return nil, c.errorf(pos, "%v", err)
	}
	return r, nil
}

// parseNth reads "N" or "An+B" (spaces ignored, n or N, signs).
func parseNth(s string) (step, offset int, err error) {
	s = strings.ReplaceAll(s, " ", "")
	bad := fmt.Errorf("nthChild position %q is not a number or An+B formula: write e.g. 3, 2n+1 or -n+3", s)
	i := strings.IndexAny(s, "nN")
	if i < 0 {
		offset, err = strconv.Atoi(s)
		if err != nil {
			return 0, 0, bad
		}
		return 0, offset, nil
	}
	switch a := s[:i]; a {
	case "", "+":
		step = 1
	case "-":
		step = -1
	default:
		if step, err = strconv.Atoi(a); err != nil {
			return 0, 0, bad
		}
	}
	if b := s[i+1:]; b != "" {
		if b[0] != '+' && b[0] != '-' {
			return 0, 0, bad
		}
		if offset, err = strconv.Atoi(b); err != nil {
			return 0, 0, bad
		}
	}
	return step, offset, nil
}

// compileRange compiles `range`.
func (c *compiler) compileRange(v *yamlValue) (matchRule, error) {
	if err := c.ignoreUnknownKeys(v, "range", []string{"start", "end"}); err != nil {
		return nil, err
	}
	point := func(name string) (int, int, error) {
		p := v.get(name)
		if p == nil {
			return 0, 0, c.errorf(v, "range needs `%s: {line, column}` (0-based)", name)
		}
		if err := c.ignoreUnknownKeys(p, "a range position", []string{"line", "column"}); err != nil {
			return 0, 0, err
		}
		lineVal := p.get("line")
		if lineVal == nil {
			return 0, 0, c.errorf(p, "a range position needs `line` (0-based)")
		}
		line, err := c.intValue(lineVal)
		if err != nil {
			return 0, 0, err
		}
		col := -1
		if cv := p.get("column"); cv != nil {
			if col, err = c.intValue(cv); err != nil {
				return 0, 0, err
			}
		}
		return line, col, nil
	}
	r := rangeRule{}
	var err error
	if r.startLine, r.startCol, err = point("start"); err != nil {
		return nil, err
	}
	if r.endLine, r.endCol, err = point("end"); err != nil {
		return nil, err
	}
	if r.startLine > r.endLine || r.startLine == r.endLine && r.startCol > r.endCol {
		return nil, c.errorf(v, "the start position must be before the end position")
	}
	return r, nil
}

// compileMatches compiles `matches: ID`.
func (c *compiler) compileMatches(v *yamlValue) (matchRule, error) {
	if v.kind == yamlMap {
		return c.compileUtilCall(v)
	}
	id, err := c.stringValue(v)
	if err != nil {
		return nil, err
	}
	if slices.Contains(c.params, id) {
		return argRef{name: id}, nil
	}
	ref := &utilRef{id: id, at: v}
	c.refs = append(c.refs, ref)
	return ref, nil
}

// compileRelation compiles inside/has/precedes/follows.
func (c *compiler) compileRelation(key string, v *yamlValue) (matchRule, error) {
	kind := relKind(indexOf(relNames[:], key))
	allowed := append(append([]string{}, ruleKeys...), "stopBy", "field")
	if err := c.ignoreUnknownKeys(v, "`"+key+"`", allowed); err != nil {
		return nil, err
	}
	r := &relation{kind: kind}
	sub := knownKeys(v, ruleKeys)
	var err error
	if r.sub, err = c.compileRule(sub); err != nil {
		return nil, err
	}
	if f := v.get("field"); f != nil {
		if kind != relInside && kind != relHas {
			return nil, c.errorf(f, "`field` is only supported in has and inside")
		}
		name, err := c.stringValue(f)
		if err != nil {
			return nil, err
		}
		if r.field = c.grammar.FieldIdForName(name); r.field == 0 {
			return nil, c.errorf(f, "`%s` is not a field name of %s: use a field of the parent node's kind", name, c.lang.Name)
		}
	}
	if stop := v.get("stopBy"); stop != nil {
		if r.stop, r.stopRule, err = c.compileStopBy(stop); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// compileStopBy reads neighbor, end or a rule object.
func (c *compiler) compileStopBy(v *yamlValue) (stopMode, matchRule, error) {
	if v.kind == yamlScalar {
		switch v.text {
		case "neighbor":
			return stopNeighbor, nil, nil
		case "end":
			return stopEnd, nil, nil
		}
		return 0, nil, c.errorf(v, "unknown stopBy `%s`: expected `neighbor`, `end` or a rule object", v.text)
	}
	r, err := c.compileRule(v)
	return stopAtRule, r, err
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}
