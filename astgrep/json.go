package astgrep

import (
	"encoding/json"
	"slices"
	"sort"

	"github.com/structls/structls/workspace"
)

// AppendJSON appends the JSON of the result; the LSP encodes command results
// through it. A query may return tens of thousands of matches, and
// reflection over their metaVariables (a map[string]any each) took most of
// the time of a warm query with limit 0. The fields and their order are
// encoding/json's, and so is the quoting of strings (workspace.AppendJSONString;
// TestResultJSON decodes both encodings and compares them).
func (r *Result) AppendJSON(b []byte) []byte {
	rest := *r
	rest.Matches = []Match{}
	tail, err := json.Marshal(&rest) // {"matches":[],"matchCount":...}: small
	if err != nil {
		tail, _ = json.Marshal(Result{Matches: []Match{}, Warnings: []string{"encoding the result: " + err.Error()}})
	}
	// One allocation: growing tens of MB by appends copied them over and
	// over (a warm range loop query with 13,566 matches spent a third of
	// its CPU there), into fresh memory each time.
	b = appendMatches(slices.Grow(b, len(tail)+matchesSize(r.Matches)), r.Matches)
	return append(b, tail[len(`{"matches":[]`):]...)
}

// matchesSize is about the bytes of the matches' JSON: the fixed part of
// each match and capture, and the texts they carry with a quarter more for
// escapes (code's tabs and line ends take two bytes each).
func matchesSize(matches []Match) int {
	const perMatch, perCapture = 320, 160
	fixed, text := 16, 0
	for i := range matches {
		m := &matches[i]
		fixed += perMatch
		text += len(m.Path) + len(m.URI) + len(m.Language) + len(m.Text)
		for _, l := range m.ContextBefore {
			fixed, text = fixed+4, text+len(l)
		}
		for _, l := range m.ContextAfter {
			fixed, text = fixed+4, text+len(l)
		}
		for name, v := range m.MetaVariables {
			fixed += 4 + len(name)
			switch v := v.(type) {
			case Capture:
				fixed, text = fixed+perCapture, text+len(v.Text)
			case []Capture:
				for j := range v {
					fixed, text = fixed+perCapture, text+len(v[j].Text)
				}
			}
		}
	}
	return fixed + text + text/4
}

// AppendJSON appends the JSON of the batch (see Result.AppendJSON).
func (bt *Batch) AppendJSON(b []byte) []byte {
	b = appendMatches(slices.Grow(b, 64+len(bt.Text)+matchesSize(bt.Matches)), bt.Matches)
	if bt.Text != "" {
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, bt.Text)
	}
	return append(b, '}')
}

// appendMatches appends `{"matches":[...]`, the start of a result or batch.
func appendMatches(b []byte, matches []Match) []byte {
	b = append(b, `{"matches":[`...)
	for i := range matches {
		if i > 0 {
			b = append(b, ',')
		}
		b = matches[i].appendJSON(b)
	}
	return append(b, ']')
}

func (m *Match) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = workspace.AppendJSONString(b, m.Path)
	b = append(b, `,"uri":`...)
	b = workspace.AppendJSONString(b, m.URI)
	b = append(b, `,"language":`...)
	b = workspace.AppendJSONString(b, m.Language)
	b = append(b, `,"range":`...)
	b = m.Range.AppendJSON(b)
	b = append(b, `,"byteRange":`...)
	b = m.ByteRange.AppendJSON(b)
	b = append(b, `,"text":`...)
	b = workspace.AppendJSONString(b, m.Text)
	b = append(b, `,"metaVariables":`...)
	b = appendMetaVariables(b, m.MetaVariables)
	b = append(b, `,"contextBefore":`...)
	b = appendStrings(b, m.ContextBefore)
	b = append(b, `,"contextAfter":`...)
	b = appendStrings(b, m.ContextAfter)
	return append(b, '}')
}

// appendMetaVariables appends the bindings, names sorted (as encoding/json
// sorts map keys).
func appendMetaVariables(b []byte, vars map[string]any) []byte {
	if vars == nil {
		return append(b, "null"...)
	}
	names := make([]string, 0, len(vars))
	for name := range vars {
		names = append(names, name)
	}
	sort.Strings(names)
	b = append(b, '{')
	for i, name := range names {
		if i > 0 {
			b = append(b, ',')
		}
		b = workspace.AppendJSONString(b, name)
		b = append(b, ':')
		switch v := vars[name].(type) {
		case Capture:
			b = v.appendJSON(b)
		case []Capture:
			b = append(b, '[')
			for j := range v {
				if j > 0 {
					b = append(b, ',')
				}
				b = v[j].appendJSON(b)
			}
			b = append(b, ']')
		default: // not built by this package
			out, err := json.Marshal(v)
			if err != nil {
				out = []byte("null")
			}
			b = append(b, out...)
		}
	}
	return append(b, '}')
}

func (c *Capture) appendJSON(b []byte) []byte {
	b = append(b, `{"text":`...)
	b = workspace.AppendJSONString(b, c.Text)
	b = append(b, `,"range":`...)
	b = c.Range.AppendJSON(b)
	b = append(b, `,"byteRange":`...)
	b = c.ByteRange.AppendJSON(b)
	return append(b, '}')
}

func appendStrings(b []byte, values []string) []byte {
	if values == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = workspace.AppendJSONString(b, v)
	}
	return append(b, ']')
}
