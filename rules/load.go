package rules

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"sync"

	"github.com/structls/structls/lang"
)

// RuleSet is a set of compiled rules ready to check files: the rules of a
// project, of a rule file or of inline YAML. It is safe for concurrent use.
type RuleSet struct {
	// Rules are the rules in load order, `severity: off` ones included
	// (Check skips them).
	Rules []*Rule
	// BaseDir is the directory `files`/`ignores` globs and languageGlobs
	// are relative to (the project directory; "" for none).
	BaseDir string
	// Warnings are things the rules probably do not mean, found at load
	// time: each names the file, the line and how to write it instead.
	Warnings []string
	// Ignored are the unknown keys the rule files hold where ast-grep
	// ignores them; each is also in Warnings.
	Ignored []*Error
	// ReportUnusedSuppressions adds ast-grep's built-in unused-suppression
	// hints (comments that hid nothing): on for a project's whole rule set,
	// as ast-grep reports them only on full project scans.
	ReportUnusedSuppressions bool
	// builtins are the severities WithSeverities gave the built-in rules
	// unused-suppression and no-suppress-all by id.
	builtins map[string]Severity
	globs    []languageGlob
	// stepLimit replaces maxMatchSteps when not 0 (tests of cancellation
	// raise it, so that only the context stops a long evaluation).
	stepLimit int

	mu       sync.Mutex
	dispatch map[*lang.Language]*dispatchTable
}

// languageGlob maps files matching a glob to a language (languageGlobs).
type languageGlob struct {
	re   *regexp.Regexp
	lang *lang.Language
}

// Options of ParseRules.
type Options struct {
	// BaseDir is the directory `files` and `ignores` globs are relative to.
	BaseDir string
	// Project, when set, supplies its global utils (utilDirs) and
	// languageGlobs, and its directory as the default BaseDir.
	Project *Project
}

// loader loads the documents of one file.
type loader struct {
	file     string
	globals  utilLibrary
	warnings []string
	ignored  []*Error
}

// utilLibrary holds global utils by language.
type utilLibrary map[*lang.Language]map[string]*util

func (u utilLibrary) forLanguage(l *lang.Language) map[string]*util {
	return u[l]
}

// ParseRules compiles YAML text holding one or more rule documents
// separated by "---". name is the file the text came from (or a label
// such as "inline rules"), used in errors and as Rule.File. Documents
// without an id get "" (as ast-grep's --inline-rules). One bad document
// fails the whole text with an *Error.
func ParseRules(name string, src []byte, opts Options) (*RuleSet, error) {
	set := &RuleSet{BaseDir: opts.BaseDir}
	var globals utilLibrary
	if opts.Project != nil {
		globals, set.globs = opts.Project.utils, opts.Project.langGlobs
		if set.BaseDir == "" {
			set.BaseDir = opts.Project.Dir
		}
	}
	rules, notes, err := parseRuleFile(name, src, globals, func(int, int) string { return "" })
	if err != nil {
		return nil, err
	}
	set.Rules, set.Warnings, set.Ignored = rules, notes.warnings, notes.ignored
	return set, nil
}

// parseRuleFile compiles the documents of one file; defaultID names a
// document without an id from its index and the number of documents. The
// loader returned holds the file's warnings and ignored keys.
func parseRuleFile(name string, src []byte, globals utilLibrary, defaultID func(i, n int) string) ([]*Rule, *loader, error) {
	docs, err := parseYAML(name, src)
	if err != nil {
		return nil, nil, err
	}
	if len(docs) == 0 {
		return nil, nil, errorAt(name, "no rule in this YAML: write at least one document with language and rule")
	}
	ld := &loader{file: name, globals: globals}
	var out []*Rule
	for i, doc := range docs {
		r, err := ld.compileDocument(doc, defaultID(i, len(docs)))
		if err != nil {
			return nil, nil, err
		}
		out = append(out, r)
	}
	return out, ld, nil
}

// Language returns the language of a file: languageGlobs first, then the
// catalogue's file names and extensions.
func (s *RuleSet) Language(path string) *lang.Language {
	// ast-grep matches languageGlobs as ripgrep's file types: against the
	// file name only, so a glob holding a "/" never matches.
	name := filepath.Base(path)
	for _, g := range s.globs {
		if g.re.MatchString(name) {
			return g.lang
		}
	}
	return lang.ForPath(name)
}

// Filter returns the rules whose id the regular expression finds a match
// in (ast-grep's --filter); an error when it does not compile or selects
// no rule.
func (s *RuleSet) Filter(expr string) (*RuleSet, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("filter %q is not a valid regular expression: %w", expr, err)
	}
	out := &RuleSet{BaseDir: s.BaseDir, globs: s.globs, Warnings: s.Warnings, Ignored: s.Ignored, builtins: s.builtins} // no unused-suppression hints once filtered, as ast-grep
	for _, r := range s.Rules {
		if re.MatchString(r.ID) {
			out.Rules = append(out.Rules, r)
		}
	}
	if len(out.Rules) == 0 {
		return nil, fmt.Errorf("no rule id matches the filter %q: check the ids with `structls scan --json` or widen the filter", expr)
	}
	return out, nil
}

// WithSeverities returns the set with the severities of some rules
// changed, as ast-grep scan's --error[=ID], --warning[=ID], … flags: the
// key is a rule id, or "" for every rule (ids override it). The rules are
// copied; s is unchanged.
func (s *RuleSet) WithSeverities(overrides map[string]Severity) (*RuleSet, error) {
	for id, sev := range overrides {
		if !slices.Contains(severities, sev) {
			return nil, fmt.Errorf("severity %q for %q is not one of off, hint, info, warning, error", sev, id)
		}
	}
	out := &RuleSet{BaseDir: s.BaseDir, globs: s.globs, Warnings: s.Warnings, Ignored: s.Ignored, ReportUnusedSuppressions: s.ReportUnusedSuppressions}
	if slices.Contains(slices.Collect(maps.Values(overrides)), SeverityOff) {
		out.ReportUnusedSuppressions = false // as ast-grep: any --off turns the hints off
	}
	out.builtins = maps.Clone(s.builtins)
	for _, id := range []string{unusedSuppressionRule.ID, noSuppressAllRule.ID} {
		if sev, ok := overrides[id]; ok {
			if out.builtins == nil {
				out.builtins = map[string]Severity{}
			}
			out.builtins[id] = sev
		}
	}
	for _, r := range s.Rules {
		sev, ok := overrides[r.ID]
		if !ok {
			sev, ok = overrides[""]
		}
		if ok {
			copied := *r
			copied.Severity = sev
			r = &copied
		}
		out.Rules = append(out.Rules, r)
	}
	return out, nil
}
