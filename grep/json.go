package grep

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/structls/structls/workspace"
)

// AppendJSON appends the JSON of the result; it is what MarshalJSON returns.
// A search can return a hundred thousand matches, and reflection-based
// encoding spent seconds on them; this writes the same JSON an order of
// magnitude faster. TestResultJSON keeps it equal to encoding/json's output.
func (r *Result) AppendJSON(b []byte) []byte {
	b = slices.Grow(b, 256+len(r.Text)+matchesSize(r.Matches)) // one allocation: growing 40 MB by appends costs seconds
	b = appendMatches(b, r.Matches)
	b = append(b, `,"matchCount":`...)
	b = strconv.AppendInt(b, int64(r.MatchCount), 10)
	b = appendIntField(b, "fileCount", r.FileCount)
	b = appendIntField(b, "totalFiles", r.TotalFiles)
	b = appendIntField(b, "filesSearched", r.FilesSearched)
	b = append(b, `,"fileLimitReached":`...)
	b = strconv.AppendBool(b, r.FileLimitReached)
	b = append(b, `,"perFileLimitReached":`...)
	b = strconv.AppendBool(b, r.PerFileLimitReached)
	if r.LinesTruncated {
		b = append(b, `,"linesTruncated":true`...)
	}
	if r.NextSkip != nil {
		b = appendIntField(b, "nextSkip", *r.NextSkip)
	}
	b = appendStringsField(b, "missingPaths", r.MissingPaths)
	b = appendStringsField(b, "warnings", r.Warnings)
	if r.Text != "" {
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, r.Text)
	}
	return append(b, '}')
}

// AppendJSON appends the JSON of the batch (see Result.AppendJSON).
func (bt *Batch) AppendJSON(b []byte) []byte {
	b = appendMatches(slices.Grow(b, 16+matchesSize(bt.Matches)), bt.Matches)
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

// matchesSize estimates the matches' encoded size, generously.
func matchesSize(matches []Match) int {
	n := 16
	for i := range matches {
		m := &matches[i]
		n += 256 + len(m.Path) + len(m.URI) + len(m.LineText) + len(m.LineText)/8
		for _, s := range m.Submatches {
			n += 160 + len(s.Text)
		}
		for _, c := range m.ContextBefore {
			n += 40 + len(c.Text)
		}
		for _, c := range m.ContextAfter {
			n += 40 + len(c.Text)
		}
	}
	return n
}

// MarshalJSON implements json.Marshaler with AppendJSON.
func (r *Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

func (m *Match) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = workspace.AppendJSONString(b, m.Path)
	b = append(b, `,"uri":`...)
	b = workspace.AppendJSONString(b, m.URI)
	b = append(b, `,"range":`...)
	b = m.Range.AppendJSON(b)
	b = appendIntField(b, "lineNumber", m.LineNumber)
	b = append(b, `,"lineText":`...)
	b = workspace.AppendJSONString(b, m.LineText)
	if m.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, `,"submatches":[`...)
	for i, s := range m.Submatches {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"text":`...)
		b = workspace.AppendJSONString(b, s.Text)
		b = append(b, `,"byteRange":{"start":`...)
		b = strconv.AppendInt(b, int64(s.ByteRange.Start), 10)
		b = appendIntField(b, "end", s.ByteRange.End)
		b = append(b, `},"range":`...)
		b = s.Range.AppendJSON(b)
		b = append(b, '}')
	}
	b = append(b, ']')
	b = appendContext(b, "contextBefore", m.ContextBefore)
	b = appendContext(b, "contextAfter", m.ContextAfter)
	return append(b, '}')
}

func appendContext(b []byte, name string, lines []ContextLine) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, `":[`...)
	for i, l := range lines {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"lineNumber":`...)
		b = strconv.AppendInt(b, int64(l.LineNumber), 10)
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, l.Text)
		b = append(b, '}')
	}
	return append(b, ']')
}

func appendIntField(b []byte, name string, v int) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, int64(v), 10)
}

func appendStringsField(b []byte, name string, values []string) []byte {
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, `":[`...)
	for i, v := range values {
		if i > 0 {
			b = append(b, ',')
		}
		b = workspace.AppendJSONString(b, v)
	}
	return append(b, ']')
}

var _ json.Marshaler = (*Result)(nil)
