package rules

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/structls/structls/lang"
)

// documentKeys are the keys of a rule document.
var documentKeys = []string{"id", "language", "rule", "constraints", "utils", "transform", "fix", "rewriters", "message", "note", "severity", "labels", "files", "ignores", "url", "metadata"}

// core is what matching a rule needs: the rule, the constraints checked
// after it, the transforms computed then, and the rewriters transforms use.
type core struct {
	rule        matchRule
	kinds       kindSet
	constraints []constraint
	transforms  []*transform // in dependency order
	rewriters   map[string]*rewriter
}

// constraint is one `constraints` entry: a single metavariable's node must
// match the rule.
type constraint struct {
	name string
	rule matchRule
}

// rewriter is one entry of `rewriters`.
type rewriter struct {
	id   string
	core *core
	fix  *Fix
}

// labelDef is one entry of `labels`.
type labelDef struct {
	name, style, message string
}

// compileDocument compiles one rule document. defaultID is the id a
// document without one takes.
func (ld *loader) compileDocument(doc yamlDocument, defaultID string) (*Rule, error) {
	v := doc.root
	c0 := &compiler{file: ld.file}
	if err := c0.checkKeys(v, "a rule document", documentKeys); err != nil {
		return nil, err
	}
	r := &Rule{ID: defaultID, Severity: SeverityHint, File: ld.file, Line: doc.line}
	if id := v.get("id"); id != nil {
		var err error
		if r.ID, err = c0.stringValue(id); err != nil {
			return nil, err
		}
	}
	langVal := v.get("language")
	if langVal == nil {
		return nil, c0.errorf(v, "missing field `language`: name the language the rule is for, e.g. language: go")
	}
	name, err := c0.stringValue(langVal)
	if err != nil {
		return nil, err
	}
	if r.Language, err = lang.Lookup(name); err != nil {
		return nil, c0.errorf(langVal, "%v", err)
	}
	if r.Language.Grammar() == nil {
		return nil, c0.errorf(langVal, "the %s grammar is not built into this binary", r.Language.Name)
	}
	c := newCompiler(ld.file, r.Language, ld.globals.forLanguage(r.Language))
	if err := ld.compileCore(c, v, r); err != nil {
		return nil, err
	}
	if err := ld.compileOutput(c, v, r); err != nil {
		return nil, err
	}
	ld.warnings = append(ld.warnings, c.warnings...)
	ld.ignored = append(ld.ignored, c.ignored...)
	return r, nil
}

// compileCore compiles utils, rule, constraints, transform and rewriters,
// and checks the variables they use.
func (ld *loader) compileCore(c *compiler, v *yamlValue, r *Rule) error {
	if utils := v.get("utils"); utils != nil {
		if err := c.compileUtils(utils); err != nil {
			return err
		}
	}
	ruleVal := v.get("rule")
	if ruleVal == nil {
		return c.errorf(v, "missing field `rule`: give the rule object, e.g. rule: {pattern: 'foo($A)'}")
	}
	co, err := c.compileCoreParts(ruleVal, v.get("constraints"), v.get("transform"), v.get("rewriters"))
	if err != nil {
		return err
	}
	if co.kinds.any {
		return c.errorf(ruleVal, "the rule must specify a set of node kinds to match: add a `kind`, or a `pattern` whose root is not a lone metavariable")
	}
	r.core = co
	r.required = requiredFilters(co.rule)
	return nil
}

// compileUtils compiles a document's (or rewriter's) local utils.
func (c *compiler) compileUtils(v *yamlValue) error {
	if v.kind != yamlMap {
		return c.errorf(v, "`utils` maps util ids to rule objects, not %s", v.describe())
	}
	for _, id := range v.keys {
		if id == "" || strings.ContainsAny(id, "(),=") {
			return c.errorf(v.get(id), "util id %q is not allowed: use a non-empty name without ( ) , =", id)
		}
		c.local[id] = &util{id: id}
	}
	for i, id := range v.keys {
		rule, err := c.compileRule(v.values[i])
		if err != nil {
			return err
		}
		c.local[id].rule = rule
	}
	return nil
}

// compileCoreParts compiles a rule with its constraints, transforms and
// rewriters, resolves `matches` and checks kinds and variables.
func (c *compiler) compileCoreParts(ruleVal, constraints, transforms, rewriters *yamlValue) (*core, error) {
	co := &core{rewriters: map[string]*rewriter{}}
	var err error
	if co.rule, err = c.compileRule(ruleVal); err != nil {
		return nil, err
	}
	if constraints != nil {
		if constraints.kind != yamlMap {
			return nil, c.errorf(constraints, "`constraints` maps metavariable names (without $) to rule objects, not %s", constraints.describe())
		}
		for i, name := range constraints.keys {
			rule, err := c.compileRule(constraints.values[i])
			if err != nil {
				return nil, err
			}
			co.constraints = append(co.constraints, constraint{name: name, rule: rule})
		}
	}
	if err := c.resolveUtils(); err != nil {
		return nil, err
	}
	if co.kinds, err = kindsOf(co.rule); err != nil {
		return nil, c.errorf(ruleVal, "%v", err)
	}
	if constraints != nil {
		for i, name := range constraints.keys {
			if !c.vars[name] {
				return nil, c.errorf(constraints.values[i], "undefined metavariable `%s` used in `constraints`: constrain a variable the rule binds", name)
			}
		}
	}
	if rewriters != nil {
		if err := c.compileRewriters(rewriters, co); err != nil {
			return nil, err
		}
	}
	if transforms != nil {
		if co.transforms, err = c.compileTransforms(transforms, co); err != nil {
			return nil, err
		}
	}
	return co, nil
}

// resolveUtils points every `matches` at its util (local first, then the
// project's) and rejects cycles.
func (c *compiler) resolveUtils() error {
	for _, ref := range c.refs {
		if ref.target != nil {
			continue
		}
		if u, ok := c.local[ref.id]; ok {
			ref.target = u
		} else if u, ok := c.global[ref.id]; ok {
			ref.target = u
		} else {
			return c.errorf(ref.at, "util `%s` is not defined: define it under `utils` or in a file of the project's utilDirs", ref.id)
		}
	}
	if err := c.checkCalls(); err != nil {
		return err
	}
	ids := make([]string, 0, len(c.local))
	for id := range c.local {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if _, err := c.local[id].kindSet(); err != nil {
			return &Error{File: c.file, Field: "utils." + id, Message: err.Error()}
		}
	}
	return nil
}

// compileRewriters compiles `rewriters`.
func (c *compiler) compileRewriters(v *yamlValue, co *core) error {
	if v.kind != yamlSeq {
		return c.errorf(v, "`rewriters` is a list of {id, rule, fix, …}, not %s", v.describe())
	}
	for _, item := range v.items {
		if err := c.ignoreUnknownKeys(item, "a rewriter", []string{"id", "rule", "fix", "constraints", "utils", "transform"}); err != nil {
			return err
		}
		idVal := item.get("id")
		if idVal == nil {
			return c.errorf(item, "a rewriter needs an `id`")
		}
		id, err := c.stringValue(idVal)
		if err != nil {
			return err
		}
		co.rewriters[id] = &rewriter{id: id}
	}
	for _, item := range v.items {
		id := item.get("id").text
		rc := &compiler{file: c.file, lang: c.lang, grammar: c.grammar, local: maps.Clone(c.local), global: c.global, vars: c.vars}
		if u := item.get("utils"); u != nil {
			if err := rc.compileUtils(u); err != nil {
				return err
			}
		}
		ruleVal := item.get("rule")
		if ruleVal == nil {
			return c.errorf(item, "rewriter `%s` needs a `rule`", id)
		}
		sub, err := rc.compileCoreParts(ruleVal, item.get("constraints"), nil, nil)
		if err != nil {
			return err
		}
		sub.rewriters = co.rewriters // rewriters may rewrite with each other, and themselves
		if t := item.get("transform"); t != nil {
			if sub.transforms, err = rc.compileTransforms(t, sub); err != nil {
				return err
			}
		}
		fixVal := item.get("fix")
		if fixVal == nil {
			return c.errorf(item, "rewriter `%s` needs a `fix`", id)
		}
		fixes, err := rc.compileFixes(fixVal, sub)
		if err != nil {
			return err
		}
		if len(fixes) == 0 {
			return c.errorf(fixVal, "rewriter `%s` must have a fix", id)
		}
		c.warnings, c.ignored = append(c.warnings, rc.warnings...), append(c.ignored, rc.ignored...)
		co.rewriters[id].core, co.rewriters[id].fix = sub, fixes[0]
	}
	return nil
}

// compileOutput reads what a rule reports: message, note, severity, url,
// metadata, labels, fix, files and ignores.
func (ld *loader) compileOutput(c *compiler, v *yamlValue, r *Rule) error {
	var err error
	for _, f := range []struct {
		key string
		dst *string
	}{{"message", &r.Message}, {"note", &r.Note}, {"url", &r.URL}} {
		if val := v.get(f.key); val != nil && val.kind != yamlNull {
			if *f.dst, err = c.stringValue(val); err != nil {
				return err
			}
		}
	}
	if sev := v.get("severity"); sev != nil {
		name, err := c.stringValue(sev)
		if err != nil {
			return err
		}
		if !slices.Contains(severities, Severity(name)) {
			return c.errorf(sev, "unknown severity `%s`: expected one of off, hint, info, warning, error", name)
		}
		r.Severity = Severity(name)
	}
	if md := v.get("metadata"); md != nil && md.kind != yamlNull {
		if md.kind != yamlMap {
			return c.errorf(md, "`metadata` is a map, not %s", md.describe())
		}
		r.Metadata = md.toAny().(map[string]any)
	}
	if labels := v.get("labels"); labels != nil {
		if r.labels, err = c.compileLabels(labels, r.core); err != nil {
			return err
		}
	}
	if fix := v.get("fix"); fix != nil && fix.kind != yamlNull { // fix: null is no fix (never "delete the match")
		if r.Fixes, err = c.compileFixes(fix, r.core); err != nil {
			return err
		}
		r.hasFix = len(r.Fixes) > 0
	}
	r.files, err = ld.compileFileFilter(c, v.get("files"), v.get("ignores"))
	return err
}

// compileLabels reads `labels: {VAR: {style, message?}}`.
func (c *compiler) compileLabels(v *yamlValue, co *core) ([]labelDef, error) {
	if v.kind != yamlMap {
		return nil, c.errorf(v, "`labels` maps metavariable names to {style, message}, not %s", v.describe())
	}
	var out []labelDef
	for i, name := range v.keys {
		item := v.values[i]
		if err := c.ignoreUnknownKeys(item, "a label", []string{"style", "message"}); err != nil {
			return nil, err
		}
		if !c.vars[name] {
			return nil, c.errorf(item, "label metavariable `%s` must be defined in `rule` or `constraints`", name)
		}
		l := labelDef{name: name}
		styleVal := item.get("style")
		if styleVal == nil {
			return nil, c.errorf(item, "a label needs `style`: primary or secondary")
		}
		l.style, _ = c.stringValue(styleVal)
		if l.style != "primary" && l.style != "secondary" {
			return nil, c.errorf(styleVal, "unknown label style %s: expected primary or secondary", styleVal.describe())
		}
		if m := item.get("message"); m != nil {
			var err error
			if l.message, err = c.stringValue(m); err != nil {
				return nil, err
			}
		}
		out = append(out, l)
	}
	return out, nil
}

// compileFixes reads `fix`: a template, {template, expandStart?,
// expandEnd?, title?}, or a list of those (each with a title).
func (c *compiler) compileFixes(v *yamlValue, co *core) ([]*Fix, error) {
	items := []*yamlValue{v}
	inList := v.kind == yamlSeq
	if inList {
		items = v.items
	}
	var out []*Fix
	for _, item := range items {
		f := &Fix{}
		switch item.kind {
		case yamlScalar:
			f.Template = item.text
		case yamlNull:
			f.Template = ""
		case yamlMap:
			if err := c.ignoreUnknownKeys(item, "a fix", []string{"template", "expandStart", "expandEnd", "title"}); err != nil {
				return nil, err
			}
			t := item.get("template")
			if t == nil {
				return nil, c.errorf(item, "a fix object needs `template`: the replacement text")
			}
			var err error
			if f.Template, err = c.stringValue(t); err != nil {
				return nil, err
			}
			if title := item.get("title"); title != nil {
				if f.Title, err = c.stringValue(title); err != nil {
					return nil, err
				}
			}
			for i, key := range []string{"expandStart", "expandEnd"} {
				if ev := item.get(key); ev != nil {
					rel, err := c.compileRelation([]string{"follows", "precedes"}[i], ev)
					if err != nil {
						return nil, err
					}
					f.expand[i] = rel.(*relation)
				}
			}
			if err := c.resolveUtils(); err != nil { // a `matches` in expandStart/expandEnd
				return nil, err
			}
		default:
			return nil, c.errorf(item, "a fix is a template string or {template, expandStart, expandEnd, title}, not %s", item.describe())
		}
		if inList && f.Title == "" {
			return nil, c.errorf(item, "a fix in a list must have a `title`")
		}
		for _, name := range metaVarNames(f.Template) {
			if !c.vars[name] && !co.hasTransform(name) {
				return nil, c.errorf(item, "undefined metavariable `%s` used in `fix`: bind it in the rule or define it in `transform`", name)
			}
		}
		out = append(out, f)
	}
	return out, nil
}

func (co *core) hasTransform(name string) bool {
	for _, t := range co.transforms {
		if t.name == name {
			return true
		}
	}
	return false
}

// errorAt is a convenience for errors about a whole file.
func errorAt(file string, format string, args ...any) *Error {
	return &Error{File: file, Message: fmt.Sprintf(format, args...)}
}
