package rules

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/workspace"
)

// ConfigNames are the project configuration file names, in the order
// looked for in each directory.
var ConfigNames = []string{"sgconfig.yml", "sgconfig.yaml"}

// Project is a loaded sgconfig.yml: its rules (ruleDirs), global utils
// (utilDirs), rule tests (testConfigs) and languageGlobs.
type Project struct {
	// Dir is the project directory (the config's); every path of the
	// config is relative to it.
	Dir        string
	ConfigFile string
	Rules      *RuleSet
	// TestConfigs are the `structls test` inputs.
	TestConfigs []TestConfig
	// Sources lists every file the project was read from — the config, the
	// rule files and the util files — so a watcher knows when to reload.
	Sources []string
	// Warnings are things the config asks for that structls ignores
	// (customLanguages, languageInjections, unknown keys), and what the
	// global utils probably do not mean.
	Warnings []string
	// Ignored are the unknown keys of the config and the global utils,
	// ignored as ast-grep ignores them; each is also in Warnings.
	Ignored []*Error

	utils     utilLibrary
	langGlobs []languageGlob
}

// TestConfig is one entry of testConfigs.
type TestConfig struct {
	TestDir     string // absolute
	SnapshotDir string // absolute; <TestDir>/__snapshots__ by default
	outside     error  // SnapshotDir is outside the project: the tests do not run
}

// FindConfig looks for sgconfig.yml (then sgconfig.yaml) in dir and each
// directory above it; it returns the first found, or "" when none is.
func FindConfig(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("finding sgconfig.yml: %w", err)
	}
	for {
		for _, name := range ConfigNames {
			p := filepath.Join(dir, name)
			if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
				return p, nil
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// configKeys are the keys of sgconfig.yml.
var configKeys = []string{"ruleDirs", "utilDirs", "testConfigs", "languageGlobs", "customLanguages", "languageInjections"}

// LoadProject loads a project configuration file and everything it names.
// Errors are *Error values naming the file, line and field.
func LoadProject(configFile string) (*Project, error) {
	configFile, err := filepath.Abs(configFile)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", configFile, err)
	}
	src, err := ReadYAMLFile(configFile)
	if err != nil {
		return nil, fmt.Errorf("reading the project configuration: %w (check the path and its permissions)", err)
	}
	p := &Project{Dir: filepath.Dir(configFile), ConfigFile: configFile, Sources: []string{configFile}, utils: utilLibrary{}}
	docs, err := parseYAML(configFile, src)
	if err != nil {
		return nil, err
	}
	root := &yamlValue{kind: yamlMap}
	if len(docs) > 0 {
		root = docs[0].root
	}
	c := &compiler{file: configFile}
	if err := c.ignoreUnknownKeys(root, "sgconfig.yml", configKeys); err != nil {
		return nil, err
	}
	for _, key := range []string{"customLanguages", "languageInjections"} {
		if root.get(key) != nil {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s: `%s` is ignored: structls ships its own grammars and does not load dynamic ones", configFile, key))
		}
	}
	if err := p.loadLanguageGlobs(c, root.get("languageGlobs")); err != nil {
		return nil, err
	}
	utilDirs, err := p.dirList(c, root.get("utilDirs"))
	if err != nil {
		return nil, err
	}
	if err := p.loadUtils(utilDirs); err != nil {
		return nil, err
	}
	ruleDirs, err := p.dirList(c, root.get("ruleDirs"))
	if err != nil {
		return nil, err
	}
	if err := p.loadRules(ruleDirs); err != nil {
		return nil, err
	}
	if err := p.loadTestConfigs(c, root.get("testConfigs")); err != nil {
		return nil, err
	}
	p.note(c)
	return p, nil
}

// note moves a compiler's warnings and ignored keys to the project's.
func (p *Project) note(c *compiler) {
	p.Warnings = append(p.Warnings, c.warnings...)
	p.Ignored = append(p.Ignored, c.ignored...)
	c.warnings, c.ignored = nil, nil
}

// ParseRules compiles inline rules inside the project: its utils and
// languageGlobs apply, and globs are relative to its directory.
func (p *Project) ParseRules(name string, src []byte) (*RuleSet, error) {
	return ParseRules(name, src, Options{Project: p})
}

func (p *Project) dirList(c *compiler, v *yamlValue) ([]string, error) {
	if v == nil {
		return nil, nil
	}
	if v.kind != yamlSeq {
		return nil, c.errorf(v, "a list of directories (relative to %s) is expected, not %s", p.Dir, v.describe())
	}
	var out []string
	for _, item := range v.items {
		s, err := c.stringValue(item)
		if err != nil {
			return nil, err
		}
		dir := filepath.Join(p.Dir, s)
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			return nil, c.errorf(item, "directory %s does not exist: create it or remove it from the list", dir)
		}
		out = append(out, dir)
	}
	return out, nil
}

// yamlFiles lists the .yml/.yaml files below dir, sorted, skipping the
// directories in skip.
func yamlFiles(dir string, skip []string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(d.Name(), ".") || slices.Contains(skip, path)) {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(path); ext == ".yml" || ext == ".yaml" {
			out = append(out, path)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}

// loadRules reads every rule file below the rule directories; a document
// without an id takes the file's stem (stem-N in a file of several).
func (p *Project) loadRules(dirs []string) error {
	set := &RuleSet{BaseDir: p.Dir, globs: p.langGlobs, ReportUnusedSuppressions: true}
	seen := map[string]string{}
	for _, dir := range dirs {
		files, err := yamlFiles(dir, nil)
		if err != nil {
			return fmt.Errorf("reading the rule directory %s: %w", dir, err)
		}
		for _, file := range files {
			src, err := ReadYAMLFile(file)
			if err != nil {
				return fmt.Errorf("reading rule file: %w", err)
			}
			p.Sources = append(p.Sources, file)
			stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
			rules, notes, err := parseRuleFile(file, src, p.utils, func(i, n int) string {
				if n > 1 {
					return fmt.Sprintf("%s-%d", stem, i)
				}
				return stem
			})
			if err != nil {
				return err
			}
			for _, r := range rules {
				if other, dup := seen[r.ID]; dup {
					return &Error{File: file, Line: r.Line, Field: "id", Message: fmt.Sprintf("duplicate rule id `%s` (also in %s): rule ids must be unique in a project", r.ID, other)}
				}
				seen[r.ID] = file
			}
			set.Rules = append(set.Rules, rules...)
			set.Warnings = append(set.Warnings, notes.warnings...)
			set.Ignored = append(set.Ignored, notes.ignored...)
		}
	}
	p.Rules = set
	return nil
}

// loadLanguageGlobs reads `languageGlobs: {lang: [glob…]}`.
func (p *Project) loadLanguageGlobs(c *compiler, v *yamlValue) error {
	if v == nil {
		return nil
	}
	if v.kind != yamlMap {
		return c.errorf(v, "`languageGlobs` maps language names to lists of globs, not %s", v.describe())
	}
	for i, name := range v.keys {
		l, err := lang.Lookup(name)
		if err != nil {
			return c.errorf(v.values[i], "%v (custom languages are not supported)", err)
		}
		globs := v.values[i]
		if globs.kind != yamlSeq {
			return c.errorf(globs, "a list of globs is expected, not %s", globs.describe())
		}
		for _, item := range globs.items {
			re, err := c.compileGlobItem(item)
			if err != nil {
				return err
			}
			p.langGlobs = append(p.langGlobs, languageGlob{re: re, lang: l})
		}
	}
	return nil
}

// loadTestConfigs reads `testConfigs: [{testDir, snapshotDir?}]`.
func (p *Project) loadTestConfigs(c *compiler, v *yamlValue) error {
	if v == nil {
		return nil
	}
	if v.kind != yamlSeq {
		return c.errorf(v, "`testConfigs` is a list of {testDir, snapshotDir}, not %s", v.describe())
	}
	for _, item := range v.items {
		if err := c.ignoreUnknownKeys(item, "a test config", []string{"testDir", "snapshotDir"}); err != nil {
			return err
		}
		td := item.get("testDir")
		if td == nil {
			return c.errorf(item, "a test config needs `testDir`")
		}
		dir, err := c.stringValue(td)
		if err != nil {
			return err
		}
		tc := TestConfig{TestDir: filepath.Join(p.Dir, dir)}
		tc.SnapshotDir = filepath.Join(tc.TestDir, "__snapshots__")
		field := td
		if sd := item.get("snapshotDir"); sd != nil {
			s, err := c.stringValue(sd)
			if err != nil {
				return err
			}
			tc.SnapshotDir, field = filepath.Join(tc.TestDir, s), sd
		}
		if _, err := p.insideProject(tc.SnapshotDir); err != nil {
			// an error of `structls test` only: scans do not read snapshots
			tc.outside = c.errorf(field, "the snapshot directory %s is outside the project %s: snapshots are written inside the project only; name a directory below it", tc.SnapshotDir, p.Dir)
		}
		p.TestConfigs = append(p.TestConfigs, tc)
	}
	return nil
}

// utilKeys are the keys of a global util document.
var utilKeys = []string{"id", "language", "rule", "constraints", "utils", "transform", "arguments"}

// loadUtils reads the global utils: every id is declared first, so utils
// may refer to each other in any order.
func (p *Project) loadUtils(dirs []string) error {
	type pending struct {
		u    *util
		c    *compiler
		v    *yamlValue
		file string
	}
	var all []pending
	for _, dir := range dirs {
		files, err := yamlFiles(dir, nil)
		if err != nil {
			return fmt.Errorf("reading the util directory %s: %w", dir, err)
		}
		for _, file := range files {
			src, err := ReadYAMLFile(file)
			if err != nil {
				return fmt.Errorf("reading util file: %w", err)
			}
			p.Sources = append(p.Sources, file)
			docs, err := parseYAML(file, src)
			if err != nil {
				return err
			}
			for _, doc := range docs {
				pd, err := p.declareUtil(file, doc.root)
				if err != nil {
					return err
				}
				all = append(all, pending{u: pd.u, c: pd.c, v: doc.root, file: file})
			}
		}
	}
	for _, pd := range all {
		v := pd.v
		if u := v.get("utils"); u != nil {
			if err := pd.c.compileUtils(u); err != nil {
				return err
			}
		}
		ruleVal := v.get("rule")
		co, err := pd.c.compileCoreParts(ruleVal, v.get("constraints"), nil, nil)
		if err != nil {
			return err
		}
		pd.u.rule = co.rule
		p.note(pd.c)
		if len(co.constraints) > 0 {
			pd.u.rule = constrainedRule{rule: co.rule, constraints: co.constraints}
		}
	}
	for _, pd := range all {
		if _, err := pd.u.kindSet(); err != nil {
			return &Error{File: pd.file, Field: "rule", Message: err.Error()}
		}
	}
	return nil
}

type declared struct {
	u *util
	c *compiler
}

func (p *Project) declareUtil(file string, v *yamlValue) (declared, error) {
	c0 := &compiler{file: file}
	if err := c0.ignoreUnknownKeys(v, "a global util", utilKeys); err != nil {
		return declared{}, err
	}
	defer p.note(c0)
	for _, key := range []string{"id", "language", "rule"} {
		if v.get(key) == nil {
			return declared{}, c0.errorf(v, "missing field `%s` in a global util", key)
		}
	}
	id, err := c0.stringValue(v.get("id"))
	if err != nil {
		return declared{}, err
	}
	name, err := c0.stringValue(v.get("language"))
	if err != nil {
		return declared{}, err
	}
	l, err := lang.Lookup(name)
	if err != nil {
		return declared{}, c0.errorf(v.get("language"), "%v", err)
	}
	if p.utils[l] == nil {
		p.utils[l] = map[string]*util{}
	}
	if _, dup := p.utils[l][id]; dup {
		return declared{}, c0.errorf(v.get("id"), "duplicate util id `%s`: util ids must be unique per language", id)
	}
	u := &util{id: id, global: true}
	c := newCompiler(file, l, p.utils[l])
	if a := v.get("arguments"); a != nil {
		if u.params, err = c0.compileParams(a); err != nil {
			return declared{}, err
		}
		c.params = u.params
	}
	p.utils[l][id] = u
	return declared{u: u, c: c}, nil
}

// constrainedRule is a global util with constraints.
type constrainedRule struct {
	rule        matchRule
	constraints []constraint
}

func (r constrainedRule) match(s *state, n int32, e *env) bool {
	return r.rule.match(s, n, e) && checkConstraints(s, r.constraints, e)
}

// errNoConfig is FindConfig's outcome turned into an error by callers.
var errNoConfig = workspace.Inputf("no sgconfig.yml found in this folder or above it: create one (ruleDirs: [rules]) or pass the rules themselves (%s)",
	workspace.Setting{Field: "rules", Value: "YAML"})
