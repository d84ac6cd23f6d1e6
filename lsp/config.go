package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/structls/structls/workspace"
)

// Configuration: initializationOptions.structls first, then the client's
// workspace/configuration (section "structls"), pulled after initialized
// and again on every didChangeConfiguration (whose payload is only trusted
// from clients that cannot be asked).

// configSection is the settings section and initializationOptions key.
const configSection = "structls"

// settingsFromInitOptions reads initializationOptions.structls.
func settingsFromInitOptions(opts protocol.LSPAny) (workspace.Settings, error) {
	if len(opts) == 0 || string(opts) == "null" {
		return workspace.Settings{}, nil
	}
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(opts, &wrapper); err != nil {
		return workspace.Settings{}, fmt.Errorf("initializationOptions must be an object: %w", err)
	}
	return decodeSettings(wrapper[configSection])
}

// decodeSettings decodes a "structls" settings object; unknown keys are an error.
func decodeSettings(raw json.RawMessage) (workspace.Settings, error) {
	var st workspace.Settings
	if len(raw) == 0 || string(raw) == "null" {
		return st, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return workspace.Settings{}, fmt.Errorf("settings %q are ignored: %v (known: maxFileSize, exclude, logLevel, parseCacheMB)", configSection, err)
	}
	if st.ParseCacheMB != nil && *st.ParseCacheMB < 0 {
		return workspace.Settings{}, fmt.Errorf("setting parseCacheMB must be 0 (off) or more (got %d)", *st.ParseCacheMB)
	}
	if st.MaxFileSize < 0 {
		return workspace.Settings{}, fmt.Errorf("setting maxFileSize must be positive (got %d)", st.MaxFileSize)
	}
	if err := workspace.ValidateGlobs(st.Exclude); err != nil {
		return workspace.Settings{}, fmt.Errorf("setting exclude: %w", err)
	}
	if _, err := zapcore.ParseLevel(st.LogLevel); st.LogLevel != "" && err != nil {
		return workspace.Settings{}, fmt.Errorf("setting logLevel %q: use debug, info, warn or error", st.LogLevel)
	}
	return st, nil
}

// pullConfiguration asks the client for the "structls" section, when it can answer.
func (s *Server) pullConfiguration() {
	s.mu.Lock()
	can := s.caps.configuration
	s.mu.Unlock()
	if !can {
		return
	}
	section := configSection
	items, err := s.client.Configuration(s.ctx, &protocol.ConfigurationParams{Items: []protocol.ConfigurationItem{{Section: &section}}})
	switch {
	case err != nil && s.ctx.Err() == nil:
		s.log.Warn("workspace/configuration failed; the initializationOptions settings stay in force", zap.Error(err))
		return
	case err != nil || len(items) == 0:
		s.log.Debug("workspace/configuration returned no settings", zap.Error(err))
		return
	}
	s.applySettings(json.RawMessage(items[0]))
}

// applySettings overlays a settings object on the initialization options.
func (s *Server) applySettings(raw json.RawMessage) {
	st, err := decodeSettings(raw)
	if err != nil {
		s.logMessage(protocol.MessageTypeWarning, "structls: "+err.Error())
		return
	}
	s.mu.Lock()
	merged := s.initSettings
	if st.MaxFileSize != 0 {
		merged.MaxFileSize = st.MaxFileSize
	}
	if st.Exclude != nil {
		merged.Exclude = st.Exclude
	}
	if st.LogLevel != "" {
		merged.LogLevel = st.LogLevel
	}
	if st.ParseCacheMB != nil {
		merged.ParseCacheMB = st.ParseCacheMB
	}
	s.settings = merged
	s.mu.Unlock()
	s.applyLogLevel(merged.LogLevel)
}

func (s *Server) applyLogLevel(level string) {
	if l, err := zapcore.ParseLevel(level); level != "" && err == nil && s.level != nil {
		s.level.SetLevel(l)
	}
}

// didChangeConfiguration re-pulls the configuration, off the read loop.
func (s *Server) didChangeConfiguration(raw []byte) error {
	var p protocol.DidChangeConfigurationParams
	_ = protocol.Unmarshal(raw, &p) // the payload is often null
	s.mu.Lock()
	can := s.caps.configuration
	s.mu.Unlock()
	if can {
		go s.pullConfiguration()
		return nil
	}
	var wrapper map[string]json.RawMessage
	if json.Unmarshal(p.Settings, &wrapper) == nil && wrapper[configSection] != nil {
		go s.applySettings(wrapper[configSection])
	}
	return nil
}

// configWait bounds how long a request waits for the first configuration
// pull, so a client that never answers cannot hang requests.
const configWait = 2 * time.Second

// currentSettings returns the settings once the first pull is done (or has
// taken too long).
func (s *Server) currentSettings() workspace.Settings {
	select {
	case <-s.configReady:
	case <-time.After(configWait):
	case <-s.ctx.Done():
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.settings
}
