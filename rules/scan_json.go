package rules

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/structls/structls/workspace"
)

// AppendJSON appends the JSON of the result: the bytes encoding/json
// writes (TestScanResultJSON), which the LSP sends as structls.scan's
// reply. It runs after the last file, on one core while the other idles;
// reflection took 0.2 s of CPU time for the 7 MB over the Go standard
// library.
func (r *Result) AppendJSON(b []byte) []byte {
	b = slices.Grow(b, r.sizeHint())
	b = append(b, `{"diagnostics":`...)
	if r.Diagnostics == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range r.Diagnostics {
			if i > 0 {
				b = append(b, ',')
			}
			b = r.Diagnostics[i].appendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"filesScanned":`...)
	b = strconv.AppendInt(b, int64(r.FilesScanned), 10)
	b = append(b, `,"errorCount":`...)
	b = strconv.AppendInt(b, int64(r.ErrorCount), 10)
	b = append(b, `,"ruleErrors":`...)
	b = appendMarshaled(b, r.RuleErrors) // few, and rare
	b = append(b, `,"warnings":`...)
	b = appendMarshaled(b, r.Warnings)
	if r.EditID != "" {
		b = append(b, `,"editId":`...)
		b = workspace.AppendJSONString(b, r.EditID)
	}
	b = appendNonZero(b, `,"fixCount":`, r.FixCount)
	b = appendNonZero(b, `,"unfixedErrorCount":`, r.UnfixedErrorCount)
	b = appendNonZero(b, `,"fixErrorCount":`, r.FixErrorCount)
	if r.Text != "" {
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, r.Text)
	}
	return append(b, '}')
}

func (d *Diagnostic) appendJSON(b []byte) []byte {
	b = append(b, `{"path":`...)
	b = workspace.AppendJSONString(b, d.Path)
	b = append(b, `,"uri":`...)
	b = workspace.AppendJSONString(b, d.URI)
	b = append(b, `,"language":`...)
	b = workspace.AppendJSONString(b, d.Language)
	b = append(b, `,"ruleId":`...)
	b = workspace.AppendJSONString(b, d.RuleID)
	b = append(b, `,"severity":`...)
	b = workspace.AppendJSONString(b, string(d.Severity))
	b = append(b, `,"message":`...)
	b = workspace.AppendJSONString(b, d.Message)
	if d.Note != "" {
		b = append(b, `,"note":`...)
		b = workspace.AppendJSONString(b, d.Note)
	}
	if d.URL != "" {
		b = append(b, `,"url":`...)
		b = workspace.AppendJSONString(b, d.URL)
	}
	b = append(b, `,"range":`...)
	b = d.Range.AppendJSON(b)
	b = append(b, `,"byteRange":`...)
	b = d.ByteRange.AppendJSON(b)
	b = append(b, `,"text":`...)
	b = workspace.AppendJSONString(b, d.Text)
	if len(d.Labels) > 0 {
		b = append(b, `,"labels":[`...)
		for i, l := range d.Labels {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"style":`...)
			b = workspace.AppendJSONString(b, l.Style)
			if l.Message != "" {
				b = append(b, `,"message":`...)
				b = workspace.AppendJSONString(b, l.Message)
			}
			b = append(b, `,"range":`...)
			b = l.Range.AppendJSON(b)
			b = append(b, `,"byteRange":`...)
			b = l.ByteRange.AppendJSON(b)
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	if d.Fix != nil {
		b = append(b, `,"fix":{"range":`...)
		b = d.Fix.Range.AppendJSON(b)
		b = append(b, `,"byteRange":`...)
		b = d.Fix.ByteRange.AppendJSON(b)
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, d.Fix.Text)
		b = append(b, '}')
	}
	if d.FixError != "" {
		b = append(b, `,"fixError":`...)
		b = workspace.AppendJSONString(b, d.FixError)
	}
	if len(d.Metadata) > 0 {
		b = append(b, `,"metadata":`...)
		b = appendMarshaled(b, d.Metadata)
	}
	return append(b, '}')
}

// appendMarshaled appends encoding/json's encoding of v.
func appendMarshaled(b []byte, v any) []byte {
	encoded, err := json.Marshal(v)
	if err != nil {
		encoded, _ = json.Marshal("structls could not encode this value: " + err.Error())
	}
	return append(b, encoded...)
}

func appendNonZero(b []byte, field string, n int) []byte {
	if n == 0 {
		return b
	}
	b = append(b, field...)
	return strconv.AppendInt(b, int64(n), 10)
}

// sizeHint estimates the encoded size, generously for plain text.
func (r *Result) sizeHint() int {
	n := 1024 + len(r.Text) + len(r.Text)/8
	for i := range r.Diagnostics {
		d := &r.Diagnostics[i]
		text := len(d.Text) + len(d.Message)
		if d.Fix != nil {
			text += len(d.Fix.Text)
		}
		n += 512 + 2*len(d.Path) + 160*len(d.Labels) + text + text/8
	}
	return n
}
