package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"

	"github.com/structls/structls/syntax"
)

// TestOptions are the options of Project.RunTests (`structls test`).
type TestOptions struct {
	Filter    string // run only the test cases whose id this regexp matches
	UpdateAll bool   // rewrite every snapshot from the current output
	// SkipSnapshots checks only that invalid cases match, not their snapshot.
	SkipSnapshots bool
	// Warn, when set, is told each warning about the test and snapshot
	// files (keys ignored as ast-grep ignores them).
	Warn func(warning string)
}

// RuleTestResult is the outcome of one rule's test cases: one character per
// case (ast-grep's): '.' passed, 'N' noisy (a valid case matched), 'M'
// missing (an invalid case did not match), 'W' wrong (the snapshot
// differs), 'U' snapshot updated.
type RuleTestResult struct {
	ID      string
	Marks   string
	Details []string // one line per failed case, saying what went wrong
}

// Passed reports whether every case passed.
func (r RuleTestResult) Passed() bool { return !strings.ContainsAny(r.Marks, "NMW") }

// ruleTestCase is one test document: {id, valid, invalid}.
type ruleTestCase struct {
	id             string
	file           string
	valid, invalid []string
}

// RunTests runs the rule tests of the project's testConfigs, as `ast-grep
// test`: each snippet is parsed alone in its rule's language and checked
// without suppression comments or file globs.
func (p *Project) RunTests(ctx context.Context, opts TestOptions) ([]RuleTestResult, error) {
	var filter *regexp.Regexp
	if opts.Filter != "" {
		var err error
		if filter, err = regexp.Compile(opts.Filter); err != nil {
			return nil, fmt.Errorf("filter %q is not a valid regular expression: %w", opts.Filter, err)
		}
	}
	var out []RuleTestResult
	for _, tc := range p.TestConfigs {
		if tc.outside != nil {
			return nil, tc.outside
		}
		cases, warnings, err := loadTestCases(tc)
		if err != nil {
			return nil, err
		}
		for _, w := range warnings {
			if opts.Warn != nil {
				opts.Warn(w)
			}
		}
		for _, c := range cases {
			if filter != nil && !filter.MatchString(c.id) {
				continue
			}
			rule := p.ruleByID(c.id)
			if rule == nil {
				return nil, &Error{File: c.file, Field: "id", Message: fmt.Sprintf("no rule has the id `%s`: the test's id must name a rule of the project's ruleDirs", c.id)}
			}
			res, err := p.runRuleTest(ctx, rule, c, tc, opts)
			if err != nil {
				return nil, err
			}
			out = append(out, res)
		}
	}
	return out, nil
}

func (p *Project) ruleByID(id string) *Rule {
	if p.Rules == nil {
		return nil
	}
	for _, r := range p.Rules.Rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// loadTestCases reads the test files below a test directory (the snapshot
// directory excluded), and the warnings about their keys.
func loadTestCases(tc TestConfig) ([]ruleTestCase, []string, error) {
	files, err := yamlFiles(tc.TestDir, []string{tc.SnapshotDir})
	if err != nil {
		return nil, nil, fmt.Errorf("reading the test directory %s: %w", tc.TestDir, err)
	}
	var out []ruleTestCase
	var warnings []string
	for _, file := range files {
		src, err := ReadYAMLFile(file)
		if err != nil {
			return nil, nil, fmt.Errorf("reading test file: %w", err)
		}
		docs, err := parseYAML(file, src)
		if err != nil {
			return nil, nil, err
		}
		c := &compiler{file: file}
		for _, doc := range docs {
			if err := c.ignoreUnknownKeys(doc.root, "a rule test", []string{"id", "valid", "invalid"}); err != nil {
				return nil, nil, err
			}
			idVal := doc.root.get("id")
			if idVal == nil {
				return nil, nil, c.errorf(doc.root, "missing field `id`: name the rule under test")
			}
			tcase := ruleTestCase{id: idVal.text, file: file}
			for key, dst := range map[string]*[]string{"valid": &tcase.valid, "invalid": &tcase.invalid} {
				v := doc.root.get(key)
				if v == nil {
					continue
				}
				if v.kind != yamlSeq {
					return nil, nil, c.errorf(v, "`%s` is a list of code snippets, not %s", key, v.describe())
				}
				for _, item := range v.items {
					s, err := c.stringValue(item)
					if err != nil {
						return nil, nil, err
					}
					*dst = append(*dst, s)
				}
			}
			out = append(out, tcase)
		}
		warnings = append(warnings, c.warnings...)
	}
	return out, warnings, nil
}

// runRuleTest runs one rule's cases and, for invalid ones, its snapshots.
func (p *Project) runRuleTest(ctx context.Context, rule *Rule, c ruleTestCase, tc TestConfig, opts TestOptions) (RuleTestResult, error) {
	res := RuleTestResult{ID: c.id}
	set := &RuleSet{Rules: []*Rule{rule}}
	check := func(code string) ([]Finding, []byte, error) {
		tree, err := syntax.Parse(ctx, rule.Language.Grammar(), []byte(code))
		if err != nil {
			return nil, nil, err
		}
		findings, err := set.CheckUnsuppressed(ctx, "", rule.Language, tree)
		return findings, tree.Source, err
	}
	var marks strings.Builder
	for _, code := range c.valid {
		findings, _, err := check(code)
		if err != nil {
			return res, err
		}
		if len(findings) > 0 {
			marks.WriteByte('N')
			res.Details = append(res.Details, fmt.Sprintf("valid case matched (noisy): %q", code))
		} else {
			marks.WriteByte('.')
		}
	}
	snapRel, err := p.snapshotFile(tc, c)
	if err != nil {
		return res, err
	}
	snapPath := filepath.Join(p.Dir, snapRel)
	// A snapshot file that does not read fails this rule's invalid cases,
	// not the run: the other rules' tests go on.
	stored, unreadable := p.readSnapshots(snapRel)
	fresh := map[string]any{}
	for _, code := range c.invalid {
		findings, src, err := check(code)
		if err != nil {
			return res, err
		}
		if len(findings) == 0 {
			marks.WriteByte('M')
			res.Details = append(res.Details, fmt.Sprintf("invalid case did not match (missing): %q", code))
			continue
		}
		if fx := findings[0].Fixes; len(fx) > 0 && fx[0].Err != nil {
			return res, fmt.Errorf("rule %s, invalid case %q: %w", c.id, code, fx[0].Err)
		}
		snap := snapshotOf(findings[0], src)
		fresh[code] = snap
		switch {
		case opts.SkipSnapshots:
			marks.WriteByte('.')
		case opts.UpdateAll:
			marks.WriteByte('U')
		case unreadable != nil:
			marks.WriteByte('W')
			res.Details = append(res.Details, fmt.Sprintf("snapshot of %q not checked: %v; fix the file, or run with --update-all to rewrite it", code, unreadable))
		case reflect.DeepEqual(normalizeYAML(stored[code]), normalizeYAML(snap)):
			marks.WriteByte('.')
		default:
			marks.WriteByte('W')
			res.Details = append(res.Details, fmt.Sprintf("snapshot of %q differs from %s: run with --update-all if the new output is right", code, snapPath))
		}
	}
	res.Marks = marks.String()
	if opts.UpdateAll && len(fresh) > 0 {
		// As ast-grep, the snapshots of cases no longer in the test stay.
		for code, snap := range stored {
			if _, ok := fresh[code]; !ok {
				fresh[code] = snap
			}
		}
		if err := p.writeSnapshotFile(snapRel, snapshotText(c.id, fresh)); err != nil {
			return res, err
		}
	}
	return res, nil
}

// snapshotOf is the stored form of a case's first finding: the source
// after its first fix, and its labels. As in ast-grep 0.51.1's `test`, the
// fix replaces the matched node only: a fix's expandStart and expandEnd
// widen what `scan` replaces but not what a snapshot shows
// (docs/ast-grep-differences.md).
func snapshotOf(f Finding, src []byte) map[string]any {
	snap := map[string]any{}
	if len(f.Fixes) > 0 {
		snap["fixed"] = string(src[:f.Start]) + f.Fixes[0].Text + string(src[f.End:])
	}
	var labels []any
	for _, l := range f.Labels {
		m := map[string]any{"source": string(src[l.Start:l.End]), "style": l.Style, "start": int64(l.Start), "end": int64(l.End)}
		if l.Message != "" {
			m["message"] = l.Message
		}
		labels = append(labels, m)
	}
	if len(labels) > 0 {
		snap["labels"] = labels
	}
	return snap
}

// normalizeYAML makes decoded YAML and built values comparable.
func normalizeYAML(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// readSnapshots reads a snapshot file's `snapshots` map (empty when the
// file does not exist).
func (p *Project) readSnapshots(rel string) (map[string]any, error) {
	src, err := p.readSnapshotFile(rel)
	if err != nil || src == nil {
		return map[string]any{}, err
	}
	docs, err := parseYAML(filepath.Join(p.Dir, rel), src)
	if err != nil || len(docs) == 0 {
		return map[string]any{}, err
	}
	snaps, _ := docs[0].root.get("snapshots").toAnyOrNil().(map[string]any)
	if snaps == nil {
		snaps = map[string]any{}
	}
	return snaps, nil
}

func (v *yamlValue) toAnyOrNil() any {
	if v == nil {
		return nil
	}
	return v.toAny()
}
