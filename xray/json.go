package xray

import (
	"encoding/json"
	"slices"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/structls/structls/workspace"
)

// AppendJSON appends the JSON of the result (the LSP encodes command results
// through it). An evaluator listing every call of the Go standard library
// returns 668,768 matches, and reflection spent seconds on them; this writes
// the same JSON as encoding/json, much faster (TestResultJSON compares them).
func (r *Result) AppendJSON(b []byte) []byte {
	b = slices.Grow(b, 256+len(r.Text)+matchesSize(r.Matches)) // one allocation: growing 100 MB by appends costs seconds
	b = appendMatches(b, r.Matches)
	b = append(b, `,"fileMetadata":`...)
	b = appendJSONValue(b, r.FileMetadata)
	b = append(b, `,"evaluationErrors":`...)
	b = appendJSONValue(b, r.EvaluationErrors)
	b = append(b, `,"candidates":`...)
	b = strconv.AppendInt(b, int64(r.Candidates), 10)
	b = append(b, `,"filesEvaluated":`...)
	b = strconv.AppendInt(b, int64(r.FilesEvaluated), 10)
	b = append(b, `,"partial":`...)
	b = strconv.AppendBool(b, r.Partial)
	b = append(b, `,"timeout":`...)
	b = strconv.AppendBool(b, r.Timeout)
	b = append(b, `,"maxFilesReached":`...)
	b = strconv.AppendBool(b, r.MaxFilesReached)
	b = append(b, `,"cancelled":`...)
	b = strconv.AppendBool(b, r.Cancelled)
	if r.OutputLimitReached {
		b = append(b, `,"outputLimitReached":true`...)
	}
	if len(r.CellErrors) > 0 {
		b = append(b, `,"cellErrors":`...)
		b = appendJSONValue(b, r.CellErrors)
	}
	b = append(b, `,"matchCount":`...)
	b = strconv.AppendInt(b, int64(r.MatchCount), 10)
	if r.NextSkip != nil {
		b = append(b, `,"nextSkip":`...)
		b = strconv.AppendInt(b, int64(*r.NextSkip), 10)
	}
	b = append(b, `,"warnings":`...)
	b = appendJSONValue(b, r.Warnings)
	if r.Text != "" {
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, r.Text)
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler with AppendJSON.
func (r *Result) MarshalJSON() ([]byte, error) { return r.AppendJSON(nil), nil }

// AppendJSON appends the JSON of a streamed batch, as AppendJSON does a
// result's.
func (bt *Batch) AppendJSON(b []byte) []byte {
	b = slices.Grow(b, 64+len(bt.Text)+matchesSize(bt.Matches))
	b = appendMatches(b, bt.Matches)
	if bt.Text != "" {
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, bt.Text)
	}
	return append(b, '}')
}

// MarshalJSON implements json.Marshaler with AppendJSON.
func (bt *Batch) MarshalJSON() ([]byte, error) { return bt.AppendJSON(nil), nil }

// matchesSize is about the size of the matches' JSON, a little more for
// most, so that the buffer they are written to is allocated once.
func matchesSize(matches []Match) int {
	size := 16
	for i := range matches {
		m := &matches[i]
		// Besides the strings: the names and punctuation, the line number
		// and the range, about 150 bytes; escapes are rare.
		size += 192 + len(m.Path) + len(m.URI) + len(m.Language) + len(m.LineContent) + len(m.LineContent)/8
	}
	return size
}

// appendMatches appends `{"matches":[...]`, the start of a result or batch.
func appendMatches(b []byte, matches []Match) []byte {
	b = append(b, `{"matches":[`...)
	var enc matchEncoder
	for i := range matches {
		if i > 0 {
			b = append(b, ',')
		}
		b = enc.append(b, &matches[i])
	}
	return append(b, ']')
}

// matchEncoder writes matches' JSON. A file's matches share their path,
// URI and language, and the matches on one line their content: each is
// quoted once for the run of matches that share it (quoting was the most
// of encoding an X-Ray listing).
type matchEncoder struct {
	path, uri, language string
	head                []byte // `{"path":…,"uri":…,"language":…` of the three
	line                string
	quotedLine          []byte
}

// append appends the JSON of m.
func (enc *matchEncoder) append(b []byte, m *Match) []byte {
	if enc.head == nil || m.Path != enc.path || m.URI != enc.uri || m.Language != enc.language {
		enc.path, enc.uri, enc.language = m.Path, m.URI, m.Language
		enc.head = append(workspace.AppendJSONString(append(enc.head[:0], `{"path":`...), m.Path), `,"uri":`...)
		enc.head = append(workspace.AppendJSONString(enc.head, m.URI), `,"language":`...)
		enc.head = workspace.AppendJSONString(enc.head, m.Language)
	}
	if enc.quotedLine == nil || m.LineContent != enc.line {
		enc.line, enc.quotedLine = m.LineContent, workspace.AppendJSONString(enc.quotedLine[:0], m.LineContent)
	}
	b = append(b, enc.head...)
	b = append(b, `,"lineNumber":`...)
	b = strconv.AppendInt(b, int64(m.LineNumber), 10)
	b = append(b, `,"lineContent":`...)
	b = append(b, enc.quotedLine...)
	if m.Range != nil {
		b = append(b, `,"range":`...)
		b = m.Range.AppendJSON(b)
	}
	b = append(b, `,"fields":`...)
	if len(m.Fields) == 0 {
		b = append(b, `{}`...)
	} else {
		b = appendJSONValue(b, m.Fields)
	}
	if m.Ast != nil {
		b = append(b, `,"ast":`...)
		b = appendJSONValue(b, m.Ast)
	}
	if m.ScanIndex != nil {
		b = append(b, `,"scanIndex":`...)
		b = strconv.AppendInt(b, int64(*m.ScanIndex), 10)
		if m.ScanName != "" {
			b = append(b, `,"scanName":`...)
			b = workspace.AppendJSONString(b, m.ScanName)
		}
		b = append(b, `,"folder":`...)
		b = workspace.AppendJSONString(b, m.Folder)
	}
	return append(b, '}')
}

// appendJSONValue appends the JSON of v as encoding/json writes it (object
// keys sorted), for the parts that are small or rare.
func appendJSONValue(b []byte, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		out, _ = jsonv2.Marshal(err.Error())
	}
	return append(b, out...)
}
