package lsp

import (
	"encoding/json"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
)

// File watching: when the client can register watchers dynamically, the
// server asks to hear of every file change in the workspace folders, so that
// its disk view (and the caches built on it) stays fresh.

// watcherRegistrationID names the registration, so it can be replaced.
const watcherRegistrationID = "structls-watched-files"

// registerWatchers registers one watcher per workspace folder (a relative
// pattern when the client supports them, an absolute glob otherwise).
func (s *Server) registerWatchers() {
	s.mu.Lock()
	dynamic, relative, folders := s.caps.dynamicWatchedFiles, s.caps.relativePatterns, s.folders
	s.mu.Unlock()
	if !dynamic || len(folders) == 0 {
		return
	}
	var watchers []protocol.FileSystemWatcher
	for _, f := range folders {
		var glob protocol.GlobPattern = protocol.Pattern(f.Path + "/**/*")
		if relative {
			glob = &protocol.RelativePattern{BaseURI: protocol.URI(f.URI), Pattern: "**/*"}
		}
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: glob})
	}
	opts, err := protocol.Marshal(protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers})
	if err != nil {
		return
	}
	err = s.client.RegisterCapability(s.ctx, &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: watcherRegistrationID, Method: "workspace/didChangeWatchedFiles", RegisterOptions: opts,
	}}})
	if err != nil && s.ctx.Err() == nil {
		s.log.Warn("registering file watchers failed: changes on disk are seen only by the next query", zap.Error(err))
	}
}

// didChangeWatchedFiles records disk changes. The server reads files afresh
// for every request, so there is nothing to invalidate yet; caches hook in here.
func (s *Server) didChangeWatchedFiles(raw []byte) error {
	var p struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return err
	}
	for _, c := range p.Changes {
		s.log.Debug("watched file changed", zap.String("uri", c.URI), zap.Int("type", c.Type))
	}
	return nil
}
