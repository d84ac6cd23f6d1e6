package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// Each workspace folder has its own ast-grep project (rules.FolderProject),
// kept in a rules.ProjectCache: loaded when a document of the folder is
// first checked, and all dropped (to load again on next use) when a YAML
// file changes — a watched file event or a save of sgconfig.yml, of a rule
// or of a util file — after which the open documents are checked again. A
// project that does not load is shown to the user once
// (window/showMessage), not on every keystroke, and its folder's documents
// have no diagnostics until it loads.

// rulesState holds the loaded projects of the workspace folders and what
// the user and the client were told of them.
type rulesState struct {
	projects *rules.ProjectCache // its generation is the one reports must be of to be current

	mu      sync.Mutex
	shown   map[string]string // by folder path: the load error last shown to the user (+warningsKey: the warnings)
	watched map[string]bool   // project files outside the folders, registered with the client
}

func newRulesState() *rulesState {
	return &rulesState{projects: rules.NewProjectCache(), shown: map[string]string{}, watched: map[string]bool{}}
}

// watchOutside returns the files of the loaded projects that lie outside
// every folder (a project found above its folder), whose changes the
// folders' watchers would miss, and records them as watched.
func (r *rulesState) watchOutside(folders []workspace.Folder) []string {
	sources := r.projects.Sources()
	r.mu.Lock()
	defer r.mu.Unlock()
	clear(r.watched)
	for _, path := range sources {
		if _, inside := folderOfDocument(folders, path); !inside {
			r.watched[path] = true
		}
	}
	return slices.Sorted(maps.Keys(r.watched))
}

// claimUnwatched reports whether a loaded project has files outside the
// folders that are not watched yet, and counts them as watched from now on
// (the caller registers them), so they are registered once.
func (r *rulesState) claimUnwatched(loaded *rules.FolderProject, folders []workspace.Folder) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	claimed := false
	for _, path := range loaded.Sources {
		if _, inside := folderOfDocument(folders, path); !inside && !r.watched[path] {
			r.watched[path] = true
			claimed = true
		}
	}
	return claimed
}

// checkDocument checks one version of a document against the rules of its
// folder (of the given generation) and maps the findings.
// A document larger than maxFileSize is not checked, as searches skip it.
// A panic of the rules engine is an error here, not the end of the session.
func (s *Server) checkDocument(ctx context.Context, doc *workspace.Document, generation uint64) (report *documentReport, err error) {
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("checking a document panicked", zap.String("uri", doc.URI), zap.Any("panic", p), zap.Stack("stack"))
			report, err = nil, fmt.Errorf("checking %s: internal error: %v", doc.URI, p)
		}
	}()
	s.mu.Lock()
	folders, enc := slices.Clone(s.folders), s.enc
	s.mu.Unlock()
	var findings []rules.Finding
	var project *rules.Project
	folder, inFolder := folderOfDocument(folders, doc.Path)
	if inFolder && int64(len(doc.Content)) <= s.currentSettings().EffectiveMaxFileSize() {
		if project = s.projectOf(folder); project != nil {
			if findings, err = s.findings(ctx, project.Rules, doc); err != nil {
				return nil, fmt.Errorf("checking %s: %w", doc.URI, err)
			}
		}
	}
	report, err = newReport(doc, generation, findings, enc)
	if err != nil {
		return nil, err
	}
	report.diagnostics = append(report.diagnostics, ignoredKeyDiagnostics(project, doc, enc)...)
	report.id = s.diag.reportIDs.Add(1)
	return report, nil
}

// findings runs a rule set over a document, in the language the rule set
// gives its path (languageGlobs, then the extension); none: no findings.
// An open document's tree comes from the parse cache, which reparses the
// previous version's tree incrementally.
func (s *Server) findings(ctx context.Context, set *rules.RuleSet, doc *workspace.Document) ([]rules.Finding, error) {
	l := set.Language(doc.Path)
	if l == nil || l.Grammar() == nil {
		return nil, nil
	}
	tree, err := s.parseCache.Parse(ctx, l.Grammar(), doc.Content)
	if err != nil {
		return nil, fmt.Errorf("parsing it as %s: %w", l.Name, err)
	}
	return set.Check(ctx, doc.Path, l, tree)
}

// folderOfDocument returns the deepest workspace folder holding the path.
func folderOfDocument(folders []workspace.Folder, docPath string) (workspace.Folder, bool) {
	var best workspace.Folder
	found := false
	for _, f := range folders {
		inside := docPath == f.Path || strings.HasPrefix(docPath, f.Path+string(filepath.Separator))
		if inside && len(f.Path) >= len(best.Path) {
			best, found = f, true
		}
	}
	return best, found
}

// projectOf returns the folder's project, loading it on first use; nil when
// the folder has none or it does not load (which is then shown once).
func (s *Server) projectOf(folder workspace.Folder) *rules.Project {
	loaded, first := s.rules.projects.Load(folder.Path)
	if !first {
		return loaded.Project // kept; or reloaded meanwhile: good enough for this check, whose report is stale anyway
	}
	s.tellLoad(folder, loaded)
	s.mu.Lock()
	folders := slices.Clone(s.folders)
	s.mu.Unlock()
	if s.rules.claimUnwatched(loaded, folders) {
		go s.registerWatchers()
	}
	return loaded.Project
}

// tellLoad shows the user what went wrong loading a folder's project,
// once: the same problem (or warning) is not shown again until it changes.
func (s *Server) tellLoad(folder workspace.Folder, loaded *rules.FolderProject) {
	problem := ""
	if loaded.Err != nil {
		problem = loaded.Err.Error()
	}
	var warnings string
	if p := loaded.Project; p != nil {
		warnings = strings.Join(slices.Concat(p.Warnings, p.Rules.Warnings), "; ")
	}
	r := s.rules
	r.mu.Lock()
	newProblem := r.shown[folder.Path] != problem
	newWarnings := r.shown[folder.Path+warningsKey] != warnings
	r.shown[folder.Path], r.shown[folder.Path+warningsKey] = problem, warnings
	r.mu.Unlock()
	if newProblem && problem != "" {
		s.showRulesProblem(folder, problem)
	}
	if newWarnings && warnings != "" {
		s.logMessage(protocol.MessageTypeWarning, fmt.Sprintf("structls: the ast-grep project of %s: %s", folder.Name, warnings))
		if msg := ignoredKeysMessage(folder, ignoredKeys(loaded.Project)); msg != "" {
			go func() {
				_ = s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
			}()
		}
	}
}

// warningsKey marks the entries of rulesState.shown that hold a folder's
// project warnings rather than its load error.
const warningsKey = "\x00warnings"

// showRulesProblem tells the user, once, that a folder's rules do not load.
func (s *Server) showRulesProblem(folder workspace.Folder, problem string) {
	msg := fmt.Sprintf("structls: the ast-grep rules of %s do not load, so its files get no rule diagnostics: %s. Fix the file and save it; the rules reload on save.", folder.Name, problem)
	s.log.Debug("rules do not load", zap.String("folder", folder.Path), zap.String("error", problem))
	s.logMessage(protocol.MessageTypeError, msg)
	go func() {
		_ = s.client.ShowMessage(s.ctx, &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: msg})
	}()
}

// reloadRules drops every loaded project and checks the open documents
// again (with the projects loaded afresh).
func (s *Server) reloadRules() {
	s.rules.projects.Invalidate()
	s.refreshDiagnostics()
}

// diagnosticsAfter keeps the diagnostics in step after a notification was
// applied (on the read loop, in order): text changes schedule checks; a
// saved or changed YAML file, or a change of folders (a document may now
// belong to another folder, or to none), reloads the rules.
func (s *Server) diagnosticsAfter(method string, params []byte) {
	switch method {
	case "textDocument/didOpen", "textDocument/didChange", "textDocument/didClose":
		s.syncDocuments()
	case "workspace/didChangeWorkspaceFolders":
		s.reloadRules()
	case "textDocument/didSave", "workspace/didChangeWatchedFiles":
		var changed changedFiles
		if json.Unmarshal(params, &changed) == nil && slices.ContainsFunc(changed.uris(), rules.IsProjectFile) {
			s.reloadRules()
		}
	}
}

// changedFiles is what didSave and didChangeWatchedFiles say changed.
type changedFiles struct {
	TextDocument fileURI   `json:"textDocument"` // didSave
	Changes      []fileURI `json:"changes"`      // didChangeWatchedFiles
}

type fileURI struct {
	URI string `json:"uri"`
}

func (c changedFiles) uris() []string {
	uris := []string{c.TextDocument.URI}
	for _, ch := range c.Changes {
		uris = append(uris, ch.URI)
	}
	return uris
}
