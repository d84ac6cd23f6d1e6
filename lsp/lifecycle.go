package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/workspace"
)

// Commands lists the workspace/executeCommand commands the server answers.
var Commands = []string{CommandAstGrep, CommandSearch, CommandAstEdit, CommandApplyEdit, CommandDiscardEdit, CommandXRay,
	CommandNodeAt, CommandScan, CommandOutline}

// initialize records the client's folders and capabilities, negotiates the
// position encoding and declares what the server does.
func (s *Server) initialize(raw []byte) (any, error) {
	var params protocol.InitializeParams
	if err := decodeParams(raw, &params); err != nil {
		return nil, invalidParams("initialize: %v", err)
	}
	folders, problems := initialFolders(&params)
	caps := params.Capabilities
	var offered []protocol.PositionEncodingKind
	if caps.General != nil {
		offered = caps.General.PositionEncodings
	}
	enc := negotiateEncoding(offered)
	initSettings, settingProblems := settingsFromInitOptions(params.InitializationOptions)

	s.mu.Lock()
	s.folders = folders
	s.enc = enc
	s.initSettings = initSettings
	s.settings = initSettings
	s.parseCache.SetBudget(initSettings.EffectiveParseCacheBytes())
	s.caps = clientCaps{
		workDoneProgress:      caps.Window != nil && isTrue(caps.Window.WorkDoneProgress),
		configuration:         caps.Workspace != nil && isTrue(caps.Workspace.Configuration),
		workspaceFolderEvents: caps.Workspace != nil && isTrue(caps.Workspace.WorkspaceFolders),
	}
	if w := caps.Workspace; w != nil && w.DidChangeWatchedFiles != nil {
		s.caps.dynamicWatchedFiles = isTrue(w.DidChangeWatchedFiles.DynamicRegistration)
		s.caps.relativePatterns = isTrue(w.DidChangeWatchedFiles.RelativePatternSupport)
	}
	if w := caps.Workspace; w != nil {
		s.caps.applyEdit = isTrue(w.ApplyEdit)
		if we := w.WorkspaceEdit; we != nil {
			s.caps.documentChanges = isTrue(we.DocumentChanges)
			s.caps.changeAnnotations = we.ChangeAnnotationSupport != nil
		}
	}
	if td := caps.TextDocument; td != nil && td.CodeAction != nil {
		s.caps.codeActionResolve = slices.Contains(td.CodeAction.ResolveSupport.Properties, "edit")
	}
	s.caps.pullDiagnostics = caps.TextDocument != nil && caps.TextDocument.Diagnostic != nil
	s.caps.diagnosticRefresh = caps.Workspace != nil && caps.Workspace.Diagnostics != nil && isTrue(caps.Workspace.Diagnostics.RefreshSupport)
	pull := s.caps.pullDiagnostics
	if td := caps.TextDocument; td != nil && td.DocumentSymbol != nil {
		s.caps.hierarchicalSymbols = isTrue(td.DocumentSymbol.HierarchicalDocumentSymbolSupport)
	}
	s.mu.Unlock()
	s.applyLogLevel(initSettings.LogLevel)
	s.setState(stateInitialized)
	for _, p := range problems {
		s.logMessage(protocol.MessageTypeWarning, "structls: "+p)
	}
	s.reportSettingProblems(settingProblems)
	s.recoverApplies(folders)

	openClose, change, yes := true, protocol.TextDocumentSyncKindIncremental, true
	return &protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: protocol.PositionEncodingKind(enc.String()),
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: &openClose, Change: &change,
				Save: &protocol.SaveOptions{IncludeText: &yes},
			},
			ExecuteCommandProvider:  protocol.ExecuteCommandOptions{Commands: Commands},
			DocumentSymbolProvider:  protocol.Boolean(true),
			WorkspaceSymbolProvider: &protocol.WorkspaceSymbolOptions{},
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindRefactorRewrite, protocol.CodeActionKindQuickFix, fixAllKind},
				ResolveProvider: &yes,
			},
			DiagnosticProvider: diagnosticProvider(pull),
			Workspace: &protocol.WorkspaceOptions{
				WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
					Supported: &yes, ChangeNotifications: protocol.Boolean(true),
				},
			},
		},
		ServerInfo: protocol.ServerInfo{Name: "structls", Version: protocol.NewOptional(s.opts.Version)},
	}, nil
}

// initialFolders reads workspaceFolders, falling back to rootUri, then rootPath.
func initialFolders(p *protocol.InitializeParams) ([]workspace.Folder, []string) {
	var folders []workspace.Folder
	var problems []string
	add := func(u, name string) {
		f, err := workspace.NewFolder(u, name)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%v; it is not searched", err))
			return
		}
		folders = append(folders, f)
	}
	if list, ok := p.WorkspaceFolders.Get(); ok && len(list) > 0 {
		for _, f := range list {
			add(string(f.URI), f.Name)
		}
	} else if p.RootURI != nil && *p.RootURI != "" {
		add(string(*p.RootURI), "")
	} else if root, ok := p.RootPath.Get(); ok && root != "" {
		add(root, "")
	}
	if len(folders) == 0 && len(problems) == 0 {
		problems = append(problems, "no workspace folder was given: open a folder to search it")
	}
	return folders, problems
}

// negotiateEncoding picks utf-8 when the client offers it (tree-sitter and
// the engines count bytes, so it costs nothing), else the client's first
// supported choice, else the LSP default utf-16.
func negotiateEncoding(offered []protocol.PositionEncodingKind) workspace.Encoding {
	if slices.Contains(offered, protocol.PositionEncodingKindUTF8) {
		return workspace.UTF8
	}
	for _, e := range offered {
		switch e {
		case protocol.PositionEncodingKindUTF16:
			return workspace.UTF16
		case protocol.PositionEncodingKindUTF32:
			return workspace.UTF32
		}
	}
	return workspace.UTF16
}

// initialized starts the work that needs the client's answers: pulling the
// configuration and registering file watchers. It runs off the read loop.
// A repeated initialized notification is ignored.
func (s *Server) initialized() {
	s.initializedOnce.Do(func() {
		go func() {
			s.pullConfiguration()
			close(s.configReady)
			s.startBackgroundParse()
			s.registerWatchers()
		}()
	})
}

// exit ends the session; Serve returns the exit code.
func (s *Server) exit() {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	select {
	case <-s.exitCh:
	default:
		close(s.exitCh)
	}
}

// didChangeWorkspaceFolders adds and removes folders. Entries are taken
// one by one: a malformed one (Neovim 0.7 sends "removed": [[]], an empty
// Lua table) or a folder that cannot be opened is skipped, the others are
// applied, and the skipped ones are reported in a single error.
func (s *Server) didChangeWorkspaceFolders(raw []byte) error {
	var p struct {
		Event *struct {
			Added   json.RawMessage `json:"added"`
			Removed json.RawMessage `json:"removed"`
		} `json:"event"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || p.Event == nil {
		return errors.New(`params must be an object {"event": {"added": [...], "removed": [...]}}; nothing changed`)
	}
	added, addProblems := folderEntries("added", p.Event.Added)
	removed, removeProblems := folderEntries("removed", p.Event.Removed)
	problems := append(addProblems, removeProblems...)
	var toAdd []workspace.Folder
	for _, f := range added {
		folder, err := workspace.NewFolder(f.URI, f.Name)
		if err != nil {
			problems = append(problems, fmt.Sprintf("%v; it is not searched", err))
			continue
		}
		toAdd = append(toAdd, folder)
	}
	s.mu.Lock()
	for _, r := range removed {
		if path, err := workspace.URIToPath(r.URI); err == nil {
			s.folders = slices.DeleteFunc(s.folders, func(f workspace.Folder) bool { return f.Path == path })
		}
	}
	for _, f := range toAdd {
		if !slices.ContainsFunc(s.folders, func(g workspace.Folder) bool { return g.Path == f.Path }) {
			s.folders = append(s.folders, f)
		}
	}
	s.mu.Unlock()
	if len(toAdd) > 0 || len(removed) > 0 {
		s.warmer.want(true) // parse the new folders (the files already cached cost a read each)
		go func() {
			select { // the first registration follows the first configuration pull
			case <-s.configReady:
				s.registerWatchers()
			case <-s.ctx.Done():
			}
		}()
	}
	s.reloadRules() // a document may now belong to another folder, or to none
	if len(problems) > 0 {
		return fmt.Errorf("the other folder changes were applied, but %s", strings.Join(problems, "; "))
	}
	return nil
}

// folderEntry is one workspace folder of a didChangeWorkspaceFolders event.
type folderEntry struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// folderEntries decodes the list "added" or "removed": null, absent or an
// empty object (an empty Lua table) is no entry; entries without a string
// uri are skipped and described.
func folderEntries(list string, raw json.RawMessage) ([]folderEntry, []string) {
	trimmed := strings.TrimSpace(string(raw))
	if trimmed == "" || trimmed == "null" || trimmed == "{}" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, []string{fmt.Sprintf("%q is not an array of folders, so it was skipped", list)}
	}
	var entries []folderEntry
	var problems []string
	for i, item := range items {
		var e folderEntry
		if err := json.Unmarshal(item, &e); err != nil || e.URI == "" {
			problems = append(problems, fmt.Sprintf("%s[%d] (%s) has no \"uri\", so it was skipped", list, i, truncateJSON(item)))
			continue
		}
		entries = append(entries, e)
	}
	return entries, problems
}

func isTrue(b *bool) bool { return b != nil && *b }
