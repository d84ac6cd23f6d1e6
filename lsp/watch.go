package lsp

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strings"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/workspace"
)

// File watching: when the client can register watchers dynamically, the
// server asks to hear of changes to the files that shape its answers — the
// catalogue's languages, the ignore files and the configuration files — so
// that its disk view (and the caches built on it) stays fresh. The files of
// an ast-grep project found above a folder (its sgconfig.yml, rules and
// utils) are watched one by one, once the project has been loaded. It does not
// register "**/*": some clients (eglot) then watch every directory of the
// workspace.

// watcherRegistrationID names the registration, so it can be replaced.
const watcherRegistrationID = "structls-watched-files"

// watchedFileNames are the files watched by name besides the catalogue's:
// the ignore files the walk honours and the ast-grep project file.
var watchedFileNames = []string{".gitignore", ".ignore", "sgconfig.yml", "sgconfig.yaml"}

// watchedExtensions are watched besides the catalogue's: rule files.
var watchedExtensions = []string{"yml", "yaml"}

// watchedGlobs returns the glob patterns registered for each folder: one for
// the extensions, one for whole file names, one for file-name prefixes
// (Dockerfile.dev). They are three, not one nested group, because eglot's
// glob syntax allows no "*" or nested braces inside braces.
func watchedGlobs() []string {
	exts := slices.Clone(watchedExtensions)
	names := slices.Clone(watchedFileNames)
	var prefixes []string
	for _, l := range lang.All() {
		exts = append(exts, l.Extensions...)
		for _, name := range l.FileNames {
			if prefix, ok := strings.CutSuffix(name, "."); ok {
				prefixes = append(prefixes, prefix)
			} else {
				names = append(names, name)
			}
		}
	}
	globs := []string{"**/*." + braceGroup(exts), "**/" + braceGroup(names)}
	if len(prefixes) > 0 {
		globs = append(globs, "**/"+braceGroup(prefixes)+".*")
	}
	return globs
}

// braceGroup is "{a,b,…}" over the sorted, distinct items.
func braceGroup(items []string) string {
	slices.Sort(items)
	return "{" + strings.Join(slices.Compact(items), ",") + "}"
}

// registerWatchers registers the watched globs for every workspace folder
// (relative patterns when the client supports them, absolute globs
// otherwise), replacing an earlier registration: it runs after initialized
// and again when the folders change, off the read loop.
func (s *Server) registerWatchers() {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	s.mu.Lock()
	dynamic, relative, folders := s.caps.dynamicWatchedFiles, s.caps.relativePatterns, slices.Clone(s.folders)
	s.mu.Unlock()
	if !dynamic {
		return
	}
	if s.watching {
		err := s.client.UnregisterCapability(s.ctx, &protocol.UnregistrationParams{Unregisterations: []protocol.Unregistration{{
			ID: watcherRegistrationID, Method: "workspace/didChangeWatchedFiles"}}})
		if err != nil {
			s.log.Debug("unregistering file watchers failed", zap.Error(err))
		}
		s.watching = false
	}
	if len(folders) == 0 {
		return
	}
	watchers := []protocol.FileSystemWatcher{}
	for _, f := range folders {
		for _, pattern := range watchedGlobs() {
			var glob protocol.GlobPattern = protocol.Pattern(f.Path + "/" + pattern)
			if relative {
				glob = &protocol.RelativePattern{BaseURI: protocol.URI(f.URI), Pattern: protocol.Pattern(pattern)}
			}
			watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: glob})
		}
	}
	for _, path := range s.rules.watchOutside(folders) {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: fileWatch(path, relative)})
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
	s.watching = err == nil
}

// fileWatch is the glob pattern watching one file, by its absolute path.
func fileWatch(path string, relative bool) protocol.GlobPattern {
	if !relative {
		return protocol.Pattern(filepath.ToSlash(path))
	}
	return &protocol.RelativePattern{BaseURI: protocol.URI(workspace.PathToURI(filepath.Dir(path))), Pattern: protocol.Pattern(filepath.Base(path))}
}

// didChangeWatchedFiles records disk changes. The server reads files afresh
// for every request; the workspace symbol index is told to walk again, and
// a changed file of an ast-grep project reloads the rules.
func (s *Server) didChangeWatchedFiles(raw []byte) error {
	var p struct {
		Changes []struct {
			URI  string `json:"uri"`
			Type int    `json:"type"`
		} `json:"changes"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return errors.New(`params must be {"changes": [{"uri", "type"}]}`)
	}
	uris := make([]string, len(p.Changes))
	for i, c := range p.Changes {
		s.log.Debug("watched file changed", zap.String("uri", c.URI), zap.Int("type", c.Type))
		s.watchedFileChanged(c.URI, c.Type)
		uris[i] = c.URI
	}
	s.symbols.Invalidate()
	s.rulesFilesChanged(uris...)
	return nil
}
