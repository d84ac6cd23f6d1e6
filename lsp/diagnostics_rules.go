package lsp

import (
	"context"
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

// newRulesState returns the rules state of a session; onLoad follows each
// project the cache keeps (projectLoaded).
func newRulesState(onLoad func(folderPath string, loaded *rules.FolderProject)) *rulesState {
	return &rulesState{projects: rules.NewProjectCache(onLoad), shown: map[string]string{}, watched: map[string]bool{}}
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
// folder (of the given generation: rules.CheckDocument) and maps the
// findings. A panic of the rules engine is an error here, not the end of
// the session.
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
	var check rules.DocumentCheck
	if folder, inFolder := folderOfDocument(folders, doc.Path); inFolder {
		if check, err = rules.CheckDocument(ctx, s.rules.projects, folder.Path, doc, s.currentSettings().EffectiveMaxFileSize(), s.parseCache); err != nil {
			return nil, err
		}
	}
	report, err = newReport(doc, generation, check.Findings, enc)
	if err != nil {
		return nil, err
	}
	report.diagnostics = append(report.diagnostics, ignoredKeyDiagnostics(check.Project, doc, enc)...)
	report.id = s.diag.reportIDs.Add(1)
	return report, nil
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

// projectLoaded follows the first load of a folder's project since the
// rules last changed (before the check that loaded it runs): what went
// wrong is shown (once), and its files outside the folders are watched.
func (s *Server) projectLoaded(folderPath string, loaded *rules.FolderProject) {
	s.mu.Lock()
	folders := slices.Clone(s.folders)
	s.mu.Unlock()
	if i := slices.IndexFunc(folders, func(f workspace.Folder) bool { return f.Path == folderPath }); i >= 0 {
		s.tellLoad(folders[i], loaded) // else the folder was just removed: nothing to tell of it
	}
	if s.rules.claimUnwatched(loaded, folders) {
		go s.registerWatchers()
	}
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
// again (with the projects loaded afresh): after a change of folders (a
// document may now belong to another folder, or to none) or of a project
// file (rulesFilesChanged).
func (s *Server) reloadRules() {
	s.rules.projects.Invalidate()
	s.refreshDiagnostics()
}

// rulesFilesChanged reloads the rules when a saved or changed file (a URI)
// may be part of an ast-grep project.
func (s *Server) rulesFilesChanged(uris ...string) {
	if slices.ContainsFunc(uris, rules.IsProjectFile) {
		s.reloadRules()
	}
}
