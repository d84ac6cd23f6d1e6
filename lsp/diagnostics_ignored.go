package lsp

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// A rule project may hold keys ast-grep ignores where it does not know
// them (a typo such as `nthchild` inside `has`): the rules run without
// them, as with ast-grep, and the editor says so — a Warning diagnostic on
// the key while its file is open, and one window/showMessage per project
// (tellLoad), not one per keystroke.

// ignoredKeys returns the ignored keys of a project, the config's and the
// global utils' first.
func ignoredKeys(p *rules.Project) []*rules.Error {
	if p == nil {
		return nil
	}
	out := append([]*rules.Error(nil), p.Ignored...)
	if p.Rules != nil {
		out = append(out, p.Rules.Ignored...)
	}
	return out
}

// ignoredKeyDiagnostics are the Warning diagnostics of the ignored keys
// that lie in the document.
func ignoredKeyDiagnostics(p *rules.Project, doc *workspace.Document, enc workspace.Encoding) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	var m *workspace.Mapper
	for _, e := range ignoredKeys(p) {
		if e.File != doc.Path || e.Line < 1 {
			continue
		}
		if m == nil {
			m = workspace.NewMapper(doc.Content)
		}
		start, end, ok := keySpan(m, doc.Content, e)
		if !ok {
			continue // the open text no longer has that line: the file changed since the project loaded
		}
		rng, err := m.OffsetRange(start, end, enc)
		if err != nil {
			continue
		}
		out = append(out, protocol.Diagnostic{
			Range:    protocolRange(rng),
			Severity: protocol.DiagnosticSeverityWarning,
			Source:   protocol.NewOptional(diagnosticSource),
			Message:  protocol.String(e.Message),
		})
	}
	return out
}

// keySpan returns the bytes of the key an ignored-key warning is at: from
// its 1-based line and column (in characters) to the end of the key's
// name (the last part of the field path).
func keySpan(m *workspace.Mapper, content []byte, e *rules.Error) (int, int, bool) {
	if e.Line > m.LineCount() {
		return 0, 0, false
	}
	start, lineEnd := m.LineStart(e.Line-1), m.LineEnd(e.Line-1)
	for range e.Column - 1 {
		if start >= lineEnd {
			return 0, 0, false
		}
		_, size := utf8.DecodeRune(content[start:lineEnd])
		start += size
	}
	key := e.Field[strings.LastIndexByte(e.Field, '.')+1:]
	end := start + len(key)
	if end > lineEnd || string(content[start:end]) != key {
		end = start
	}
	return start, end, true
}

// ignoredKeysMessage is the one window/showMessage of a project's ignored
// keys ("" when it has none).
func ignoredKeysMessage(folder workspace.Folder, ignored []*rules.Error) string {
	if len(ignored) == 0 {
		return ""
	}
	return fmt.Sprintf("structls: the ast-grep project of %s has %d unknown keys that are ignored, as ast-grep ignores them, so the rules run without them (first: %s). Open the files to see each one.",
		folder.Name, len(ignored), ignored[0])
}
