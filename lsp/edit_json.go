package lsp

import (
	"bytes"
	"encoding/json"
	"slices"

	jsonv2 "github.com/go-json-experiment/json"
	jsonv1 "github.com/go-json-experiment/json/v1"
)

// AppendJSON appends the JSON of the preview, the same bytes encoding/json
// makes, into one buffer sized beforehand. A preview can carry 64 MiB of new
// text twice (the replacements and the WorkspaceEdit) and a diff of it;
// encoding/json grows its buffer by doubling and then copies the result,
// which made an edit near the cap peak at about 30 times its new text.
func (r *previewReply) AppendJSON(b []byte) []byte {
	out := &appender{b: slices.Grow(b, r.sizeHint())}
	if err := jsonv2.MarshalWrite(out, r, jsonv1.DefaultOptionsV1()); err != nil {
		encoded, _ := json.Marshal(r) // never expected; appendResult reports a failure of this one
		return append(b, encoded...)
	}
	return bytes.TrimSuffix(out.b, []byte("\n"))
}

// appender is an io.Writer appending to a slice.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// sizeHint estimates the encoded size, generously for plain text.
func (r *previewReply) sizeHint() int {
	n := 1024 + len(r.Text) + len(r.Text)/8
	for _, f := range r.Files {
		n += 256 + 2*len(f.URI) + len(f.Path)
		for _, rep := range f.Replacements {
			text := len(rep.Before) + 2*len(rep.After) // the After again as the edit's newText
			n += 384 + text + text/8
		}
	}
	return n
}
