package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
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

// settingsFromInitOptions reads initializationOptions.structls; problems
// are as decodeSettings reports them.
func settingsFromInitOptions(opts protocol.LSPAny) (workspace.Settings, []string) {
	if len(opts) == 0 || string(opts) == "null" {
		return workspace.Settings{}, nil
	}
	var wrapper map[string]json.RawMessage
	if err := json.Unmarshal(opts, &wrapper); err != nil {
		return workspace.Settings{}, []string{"initializationOptions must be a JSON object; they are ignored"}
	}
	return decodeSettings(wrapper[configSection])
}

// setting is one known key of the "structls" section: decode reads its
// JSON value into the settings, or says why the value is not valid.
type setting struct {
	name   string
	decode func(raw json.RawMessage, st *workspace.Settings) error
}

// knownSettings are the keys of the "structls" section, in the order of docs/configuration.md.
var knownSettings = []setting{
	{"maxFileSize", func(raw json.RawMessage, st *workspace.Settings) error {
		var n int64
		if json.Unmarshal(raw, &n) != nil || n < 0 {
			return errors.New("use a number of bytes (0 for the default)")
		}
		st.MaxFileSize = n
		return nil
	}},
	{"exclude", func(raw json.RawMessage, st *workspace.Settings) error {
		var globs []string
		if json.Unmarshal(raw, &globs) != nil {
			return errors.New("use an array of globs")
		}
		if err := workspace.ValidateGlobs(globs); err != nil {
			return err
		}
		st.Exclude = globs
		return nil
	}},
	{"logLevel", func(raw json.RawMessage, st *workspace.Settings) error {
		var level string
		if json.Unmarshal(raw, &level) != nil {
			return errors.New("use debug, info, warn or error")
		}
		if _, err := zapcore.ParseLevel(level); err != nil || level == "" {
			return errors.New("use debug, info, warn or error")
		}
		st.LogLevel = level
		return nil
	}},
	{"parseCacheMB", func(raw json.RawMessage, st *workspace.Settings) error {
		var mb int
		if json.Unmarshal(raw, &mb) != nil || mb < 0 {
			return errors.New("use a number of MiB, 0 to turn the cache off")
		}
		st.ParseCacheMB = &mb
		return nil
	}},
	{"confirmEdits", func(raw json.RawMessage, st *workspace.Settings) error {
		var when string
		if json.Unmarshal(raw, &when) != nil || !slices.Contains([]string{"always", "never", "multiFile"}, when) {
			return errors.New(`use "always", "never" or "multiFile" (the default: confirm edits that span several files)`)
		}
		st.ConfirmEdits = when
		return nil
	}},
	{"backgroundParse", func(raw json.RawMessage, st *workspace.Settings) error {
		var on bool
		if json.Unmarshal(raw, &on) != nil {
			return errors.New("use true (parse the workspace in the background after start, the default) or false")
		}
		st.BackgroundParse = &on
		return nil
	}},
}

// ignoredSettings are keys clients put in the section for themselves, and
// that the server passes over without a word: VS Code sends its
// structls.trace.server setting as "trace", and the extension's
// structls.path (where the binary is) as "path".
var ignoredSettings = []string{"trace", "path"}

// decodeSettings decodes a "structls" settings object key by key: a known
// key with a valid value is kept; a known key with an invalid value and an
// unknown key are each left out, with a problem saying so (and, for an
// unknown key, which known one it may mean). A null value leaves the
// setting unset. Keys are matched exactly.
func decodeSettings(raw json.RawMessage) (workspace.Settings, []string) {
	var st workspace.Settings
	if len(raw) == 0 || string(raw) == "null" {
		return st, nil
	}
	var section map[string]json.RawMessage
	if err := json.Unmarshal(raw, &section); err != nil {
		return st, []string{fmt.Sprintf("settings %q must be a JSON object; they are ignored", configSection)}
	}
	var problems []string
	for _, key := range slices.Sorted(maps.Keys(section)) {
		value := section[key]
		i := slices.IndexFunc(knownSettings, func(s setting) bool { return s.name == key })
		switch {
		case slices.Contains(ignoredSettings, key):
		case i < 0:
			problems = append(problems, fmt.Sprintf("unknown setting %q is ignored%s; known settings: %s",
				key, didYouMean(key, settingNames()), strings.Join(settingNames(), ", ")))
		case string(value) == "null":
		default:
			if err := knownSettings[i].decode(value, &st); err != nil {
				problems = append(problems, fmt.Sprintf("setting %s: %s is not valid, so it is ignored: %v",
					key, truncateJSON(value), err))
			}
		}
	}
	return st, problems
}

// settingNames lists the known setting keys.
func settingNames() []string {
	names := make([]string, len(knownSettings))
	for i, s := range knownSettings {
		names[i] = s.name
	}
	return names
}

// truncateJSON shortens a JSON value for a message.
func truncateJSON(raw json.RawMessage) string {
	const maxShown = 80
	if len(raw) <= maxShown {
		return string(raw)
	}
	return string(raw[:maxShown]) + "…"
}

// reportSettingProblems shows each settings problem in the client's output
// panel, once per session: the configuration is pulled again on every
// change, and the same note need not be repeated.
func (s *Server) reportSettingProblems(problems []string) {
	for _, p := range problems {
		s.mu.Lock()
		seen := s.settingNotes[p]
		if s.settingNotes == nil {
			s.settingNotes = map[string]bool{}
		}
		s.settingNotes[p] = true
		s.mu.Unlock()
		if !seen {
			s.logMessage(protocol.MessageTypeWarning, "structls: "+p)
		}
	}
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
	st, problems := decodeSettings(raw)
	s.reportSettingProblems(problems)
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
	if st.ConfirmEdits != "" {
		merged.ConfirmEdits = st.ConfirmEdits
	}
	if st.ParseCacheMB != nil {
		merged.ParseCacheMB = st.ParseCacheMB
	}
	if st.BackgroundParse != nil {
		merged.BackgroundParse = st.BackgroundParse
	}
	before := s.settings
	s.settings = merged
	s.parseCache.SetBudget(merged.EffectiveParseCacheBytes()) // with the settings, so two changes cannot cross
	s.mu.Unlock()
	s.applyLogLevel(merged.LogLevel)
	s.backgroundParseSettingChanged(before, merged)
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
