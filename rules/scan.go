package rules

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Query is the argument of structls.scan (its contract: docs/protocol.md).
type Query struct {
	// Rules is YAML text of rules separated by "---"; without it each
	// folder's sgconfig.yml rules run.
	Rules string `json:"rules,omitempty"`
	// Config is an sgconfig.yml to use instead of the one found upward
	// from each folder (relative to the first folder, or absolute).
	Config string `json:"config,omitempty"`
	// RulesBase is the directory inline rules' files/ignores globs are
	// relative to (the rule file's, for `structls scan -r`); default: the
	// folder.
	RulesBase string `json:"rulesBase,omitempty"`
	workspace.Scope
	// Filter keeps the rules whose id this regular expression finds a match in.
	Filter string `json:"filter,omitempty"`
	// IncludeMetadata adds each rule's metadata to its diagnostics.
	IncludeMetadata bool `json:"includeMetadata,omitempty"`
	// Severities overrides rules' severities: rule id (or "" for every
	// rule) → hint, info, warning, error or off.
	Severities map[string]Severity `json:"severities,omitempty"`
	Format     string              `json:"format,omitempty"`
	// Fix asks for a preview of every fix (the first fix of each rule,
	// outer matches winning, as `ast-grep scan -U`): the result's plan,
	// applied by structls.applyEdit.
	Fix bool `json:"fix,omitempty"`
}

// Result is the reply of structls.scan.
type Result struct {
	Diagnostics  []Diagnostic `json:"diagnostics"`
	FilesScanned int          `json:"filesScanned"`
	// ErrorCount counts the error-severity diagnostics (a CI gate fails on them).
	ErrorCount int `json:"errorCount"`
	// RuleErrors are the rules or configurations that did not load; when
	// there are any, nothing was scanned.
	RuleErrors []RuleError `json:"ruleErrors"`
	Warnings   []string    `json:"warnings"`
	// EditID names the preview of the fixes (with fix: true), to pass to
	// structls.applyEdit; FixCount counts the fixes in it.
	EditID   string `json:"editId,omitempty"`
	FixCount int    `json:"fixCount,omitempty"`
	// UnfixedErrorCount (with fix) counts the error-severity diagnostics
	// the preview does not fix: their rule has no fix, or their file cannot
	// be fixed. As in `ast-grep scan -U`, a fix dropped for overlapping an
	// outer one counts as fixed.
	UnfixedErrorCount int `json:"unfixedErrorCount,omitempty"`
	// FixErrorCount counts the diagnostics whose fix could not be rendered
	// (Diagnostic.FixError says why): they are not fixed, and with fix
	// each is a warning.
	FixErrorCount int    `json:"fixErrorCount,omitempty"`
	Text          string `json:"text,omitempty"`

	plan *rewrite.Plan
}

// Plan returns the preview of the fixes (with Query.Fix), or nil.
func (r *Result) Plan() *rewrite.Plan { return r.plan }

// Diagnostic is one finding in a file.
type Diagnostic struct {
	Path      string              `json:"path"`
	URI       string              `json:"uri"`
	Language  string              `json:"language"`
	RuleID    string              `json:"ruleId"`
	Severity  Severity            `json:"severity"`
	Message   string              `json:"message"`
	Note      string              `json:"note,omitempty"`
	URL       string              `json:"url,omitempty"`
	Range     workspace.Range     `json:"range"`
	ByteRange workspace.ByteRange `json:"byteRange"`
	Text      string              `json:"text"`
	Labels    []DiagnosticLabel   `json:"labels,omitempty"`
	Fix       *DiagnosticFix      `json:"fix,omitempty"`
	// FixError is why the rule's first fix could not be rendered for this
	// match (then Fix is absent).
	FixError  string         `json:"fixError,omitempty"`
	Metadata  map[string]any `json:"metadata,omitempty"` // with includeMetadata
	line      string         // the first line of the match, for the text rendering
	lineNo    int            // 1-based
	lineStart int            // the byte offset of line
}

// DiagnosticLabel is a Label with positions.
type DiagnosticLabel struct {
	Style     string              `json:"style"`
	Message   string              `json:"message,omitempty"`
	Range     workspace.Range     `json:"range"`
	ByteRange workspace.ByteRange `json:"byteRange"`
}

// DiagnosticFix is the first fix of a diagnostic's rule, as an edit.
type DiagnosticFix struct {
	Range     workspace.Range     `json:"range"`
	ByteRange workspace.ByteRange `json:"byteRange"`
	Text      string              `json:"text"`
}

// RuleError is an Error on the wire.
type RuleError struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
	// Suggests are the settings Message names (a client may name them its own way).
	Suggests []workspace.Setting `json:"suggests,omitempty"`
}

func ruleErrorOf(err error) RuleError {
	var e *Error
	if errors.As(err, &e) {
		return RuleError{File: e.File, Line: e.Line, Column: e.Column, Field: e.Field, Message: e.Error()}
	}
	var input *workspace.InputError
	if errors.As(err, &input) {
		return RuleError{Message: err.Error(), Suggests: input.Suggests}
	}
	return RuleError{Message: err.Error()}
}

// Scan runs structls.scan over env's snapshot: the rules of q (or of each
// folder's sgconfig.yml) over every file in their languages, all rules in
// one walk of each tree. env's parse cache, when there is one, keeps the
// trees. Rule and config errors come back in Result.RuleErrors (nothing
// scanned); other bad input is an error.
func Scan(ctx context.Context, env engine.Env, q Query) (*Result, error) {
	text, req, err := engine.Start(env, q.Scope, engine.PlainPaths, func() (bool, error) { return workspace.TextFormat(q.Format) })
	if err != nil {
		return nil, err
	}
	snap := env.Snapshot
	res := &Result{Diagnostics: []Diagnostic{}, RuleErrors: []RuleError{}, Warnings: []string{}}
	sets, warnings, err := folderRuleSets(snap, q)
	res.Warnings = append(res.Warnings, warnings...)
	if err != nil {
		res.RuleErrors = append(res.RuleErrors, ruleErrorOf(err))
		if text {
			res.Text = renderText(res)
		}
		return res, nil
	}
	res.Warnings = append(append(res.Warnings, req.Warnings...), req.MissingWarnings()...)
	sc := &scanner{sets: sets, enc: env.Encoding, trees: env.Trees, fix: q.Fix, metadata: q.IncludeMetadata}
	var scratches syntax.Scratches // kept from file to file, given back when the scan ends
	defer scratches.Release()
	res.FilesScanned, err = snap.WalkParallel(ctx, req.Targets, req.Walk, sc.keep, func() func(workspace.File) {
		w := &worker{scratch: scratches.New()}
		return func(f workspace.File) { sc.file(ctx, snap, f, w) }
	}, env.Progress)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		return nil, err
	}
	res.Warnings = append(res.Warnings, req.SkippedWarnings()...)
	sc.finish(res, snap, env.Encoding)
	if text {
		res.Text = renderText(res)
	}
	return res, nil
}

// folderRuleSets returns the rule set of each folder: q's inline rules, or
// the rules of its project (or of q's Config), filtered and overridden as q
// says.
func folderRuleSets(snap *workspace.Snapshot, q Query) ([]*RuleSet, []string, error) {
	var warnings []string
	sets := make([]*RuleSet, len(snap.Folders))
	var shared *Project
	if q.Config != "" {
		path := q.Config
		if !filepath.IsAbs(path) && len(snap.Folders) > 0 {
			path = filepath.Join(snap.Folders[0].Path, path)
		}
		p, err := LoadProject(path)
		if err != nil {
			return nil, nil, err
		}
		shared = p
		warnings = append(warnings, p.Warnings...)
	}
	for i, folder := range snap.Folders {
		project := shared
		if project == nil {
			loaded := LoadFolderProject(folder.Path) // afresh: a rule edited since the last scan counts
			if loaded.Err != nil {
				return nil, nil, loaded.Err
			}
			if project = loaded.Project; project != nil {
				warnings = append(warnings, project.Warnings...)
			}
		}
		var set *RuleSet
		switch {
		case q.Rules != "":
			base := folder.Path
			if q.RulesBase != "" {
				base = q.RulesBase
			}
			var err error
			if set, err = ParseRules("inline rules", []byte(q.Rules), Options{BaseDir: base, Project: project}); err != nil {
				return nil, nil, err
			}
		case project != nil:
			set = project.Rules
		default:
			return nil, nil, fmt.Errorf("%s: %w", folder.Path, errNoConfig)
		}
		if q.Filter != "" {
			var err error
			if set, err = set.Filter(q.Filter); err != nil {
				return nil, nil, err
			}
		}
		if len(q.Severities) > 0 {
			var err error
			if set, err = set.WithSeverities(q.Severities); err != nil {
				return nil, nil, err
			}
		}
		for _, w := range set.Warnings {
			if !slices.Contains(warnings, w) {
				warnings = append(warnings, w)
			}
		}
		sets[i] = set
	}
	return sets, warnings, nil
}

// scanner holds what the workers share.
type scanner struct {
	sets     []*RuleSet
	enc      workspace.Encoding
	trees    parsecache.Trees
	fix      bool
	metadata bool // include rules' metadata

	mu       sync.Mutex
	files    []scannedFile
	warnings []string
}

// warn records a warning about one file (workers call it concurrently).
func (sc *scanner) warn(msg string) {
	sc.mu.Lock()
	sc.warnings = append(sc.warnings, msg)
	sc.mu.Unlock()
}

// scannedFile is a file with findings, and their diagnostics: the worker
// that checked the file maps their positions (its line index is built from
// text the worker has just read), so that only the sorting is left for
// after the last file. The content is kept for the fixes only.
type scannedFile struct {
	file        workspace.File
	content     []byte // with Query.Fix
	findings    []Finding
	diagnostics []Diagnostic
}

// keep: the file is in a language some rule of its folder is for.
func (sc *scanner) keep(f workspace.File) bool {
	set := sc.sets[f.Folder]
	l := set.Language(f.Abs)
	return l != nil && len(set.table(l).rules) > 0
}

// worker is what one scanning goroutine reuses from file to file: its read
// buffer, and the scratch trees are parsed into when no cache keeps them.
type worker struct {
	buf     []byte
	scratch *syntax.Scratch
	lines   workspace.Mapper // the line table of the file, its memory reused from file to file
}

// file checks one file.
func (sc *scanner) file(ctx context.Context, snap *workspace.Snapshot, f workspace.File, w *worker) {
	set := sc.sets[f.Folder]
	l := set.Language(f.Abs)
	text, err := sc.trees.Read(snap, f, l.Grammar(), &w.buf) // unread when the server has its tree
	switch {
	case errors.Is(err, workspace.ErrTooLarge):
		sc.warn(fmt.Sprintf("%s was not scanned: %v (raise the maxFileSize setting to scan it)", f.Rel, err))
		return
	case err != nil && f.Named:
		sc.warn(fmt.Sprintf("%s was not scanned: %v (check that it is a readable text file)", f.Rel, err))
		return
	case err != nil:
		return // binary or unreadable, found by walking: skipped, as the walk would
	}
	if !set.mayMatch(l, f.Abs, text.Content) {
		return
	}
	cached := sc.trees.Cache.Enabled()
	tree := text.Tree
	if tree == nil {
		if tree, err = sc.trees.Cache.ParseWith(ctx, l.Grammar(), text.Content, nil, nil, w.scratch); err != nil { // checked before the next file
			return
		}
		sc.trees.Remember(f, text, l.Grammar())
	}
	findings, err := set.Check(ctx, f.Abs, l, tree)
	if err != nil || len(findings) == 0 {
		return
	}
	sf := scannedFile{file: f, findings: findings, diagnostics: sc.diagnosticsOf(f, l, tree.Source, findings, &w.lines)}
	if sc.fix {
		sf.content = tree.Source
		if !cached && f.Doc == nil {
			sf.content = slices.Clone(tree.Source) // the tree reads the worker's buffer, reused for the next file
		}
	}
	sc.mu.Lock()
	sc.files = append(sc.files, sf)
	sc.mu.Unlock()
}

// mayMatch reports whether any rule for l that runs on path may match
// content (its literal prefilter), so the file need not be parsed.
func (s *RuleSet) mayMatch(l *lang.Language, path string, content []byte) bool {
	if (s.ReportUnusedSuppressions || len(s.builtins) > 0) && bytes.Contains(content, []byte("ast-grep-ignore")) {
		return true // an unused suppression is reported even where no rule matches
	}
	rel := relPath(s.BaseDir, path)
	rules := s.table(l).rules
	for _, r := range rules {
		if len(r.required) == 0 && r.files.keeps(rel) {
			return true // answered without reading the text
		}
	}
	for _, r := range rules {
		if len(r.required) > 0 && r.files.keeps(rel) && r.mayMatch(content) {
			return true
		}
	}
	return false
}

// finish sorts the files, maps positions and builds the fix preview.
func (sc *scanner) finish(res *Result, snap *workspace.Snapshot, enc workspace.Encoding) {
	slices.SortFunc(sc.files, func(a, b scannedFile) int {
		if a.file.Folder != b.file.Folder {
			return a.file.Folder - b.file.Folder
		}
		return strings.Compare(a.file.Rel, b.file.Rel)
	})
	slices.Sort(sc.warnings)
	res.Warnings = append(res.Warnings, sc.warnings...)
	var changes []rewrite.FileChange
	count := 0
	for _, sf := range sc.files {
		count += len(sf.diagnostics)
	}
	res.Diagnostics = slices.Grow(res.Diagnostics, count)
	for _, sf := range sc.files {
		for _, d := range sf.diagnostics {
			res.Diagnostics = append(res.Diagnostics, d)
			if d.Severity == SeverityError {
				res.ErrorCount++
			}
			if d.FixError != "" {
				res.FixErrorCount++
				if sc.fix {
					res.Warnings = append(res.Warnings, fmt.Sprintf("%s:%d: %s: not fixed: %s", sf.file.Rel, d.lineNo, d.RuleID, d.FixError))
				}
			}
		}
		if !sc.fix {
			continue
		}
		edits := FixEdits(sf.findings)
		fixable := utf8.Valid(sf.content)
		switch {
		case len(edits) == 0:
		case !fixable:
			// An LSP edit carries text, not bytes: the editor would corrupt the
			// file (structls.astEdit refuses such files too).
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: not fixed: the file is not valid UTF-8; convert it to UTF-8 to apply fixes", sf.file.Rel))
		default:
			changes = append(changes, rewrite.FileChange{File: sf.file, Content: sf.content, Edits: edits})
			res.FixCount += len(edits)
		}
		for _, f := range sf.findings {
			if f.Severity == SeverityError && (len(f.Fixes) == 0 || f.Fixes[0].Err != nil || !fixable) {
				res.UnfixedErrorCount++
			}
		}
	}
	if len(changes) > 0 {
		res.plan = rewrite.PlanChanges(snap, changes, res.FilesScanned, enc)
		res.EditID = res.plan.ID()
	}
}

// FixEdits picks the edits `ast-grep scan -U` applies from a file's
// findings (in Check's order): each finding's first fix, kept only when it
// starts at or after the end of the last one kept, so outer matches win.
// A finding whose first fix could not be rendered is left unfixed.
func FixEdits(findings []Finding) []rewrite.TextEdit {
	var out []rewrite.TextEdit
	last := -1
	for _, f := range findings {
		if len(f.Fixes) == 0 || f.Fixes[0].Err != nil {
			continue
		}
		fx := f.Fixes[0]
		if fx.Start < last {
			continue
		}
		out = append(out, rewrite.TextEdit{Start: fx.Start, End: fx.End, Text: fx.Text})
		last = fx.End
	}
	slices.SortStableFunc(out, func(a, b rewrite.TextEdit) int { return a.Start - b.Start })
	return out
}

// diagnosticsOf are the diagnostics of a file's findings; mapper is reset
// to the file.
func (sc *scanner) diagnosticsOf(file workspace.File, l *lang.Language, content []byte, findings []Finding, mapper *workspace.Mapper) []Diagnostic {
	mapper.Reset(content)
	uri := file.URI()
	out := make([]Diagnostic, 0, len(findings))
	for _, f := range findings {
		d := diagnosticOf(file.Rel, uri, l.Name, content, mapper, f, sc.enc)
		if sc.metadata {
			d.Metadata = f.Rule.Metadata
		}
		out = append(out, d)
	}
	return out
}

func diagnosticOf(path, uri, language string, content []byte, mapper *workspace.Mapper, f Finding, enc workspace.Encoding) Diagnostic {
	d := Diagnostic{Path: path, URI: uri, Language: language, RuleID: f.RuleID, Severity: f.Severity, Message: f.Message,
		Note: f.Note, URL: f.URL, ByteRange: workspace.ByteRange{Start: f.Start, End: f.End}, Text: string(content[f.Start:f.End])}
	d.Range, _ = mapper.OffsetRange(f.Start, f.End, enc)
	line := mapper.Line(f.Start)
	d.lineNo, d.lineStart = line+1, mapper.LineStart(line)
	d.line = string(content[mapper.LineStart(line):mapper.LineEnd(line)])
	for _, l := range f.Labels {
		dl := DiagnosticLabel{Style: l.Style, Message: l.Message, ByteRange: workspace.ByteRange{Start: l.Start, End: l.End}}
		dl.Range, _ = mapper.OffsetRange(l.Start, l.End, enc)
		d.Labels = append(d.Labels, dl)
	}
	if len(f.Fixes) > 0 && f.Fixes[0].Err != nil {
		d.FixError = f.Fixes[0].Err.Error()
	} else if len(f.Fixes) > 0 {
		fx := f.Fixes[0]
		d.Fix = &DiagnosticFix{ByteRange: workspace.ByteRange{Start: fx.Start, End: fx.End}, Text: fx.Text}
		d.Fix.Range, _ = mapper.OffsetRange(fx.Start, fx.End, enc)
	}
	return d
}
