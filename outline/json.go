package outline

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/structls/structls/workspace"
)

// AppendJSON appends the JSON of the result; the LSP encodes command
// results through it. An outline of a large tree has hundreds of thousands
// of items, and reflection over them took a good part of its time. The
// fields and their order are encoding/json's, and so is the quoting of
// strings (workspace.AppendJSONString; TestResultJSON decodes both
// encodings and compares them).
func (r *Result) AppendJSON(b []byte) []byte {
	rest := *r
	rest.Files = []File{}
	tail, err := json.Marshal(&rest) // {"files":[],"itemCount":...}: small
	if err != nil {
		tail, _ = json.Marshal(Result{Files: []File{}, Warnings: []string{"encoding the result: " + err.Error()}})
	}
	b = appendFiles(b, r.Files)
	return append(b, tail[len(`{"files":[]`):]...)
}

// AppendJSON appends the JSON of the batch (see Result.AppendJSON).
func (bt *Batch) AppendJSON(b []byte) []byte {
	b = appendFiles(b, bt.Files)
	if bt.Text != "" {
		b = append(b, `,"text":`...)
		b = workspace.AppendJSONString(b, bt.Text)
	}
	return append(b, '}')
}

// appendFiles appends `{"files":[...]`, the start of a result or batch.
func appendFiles(b []byte, files []File) []byte {
	n := 0
	for i := range files {
		n += 128 + countItems(files[i].Items)*itemJSONBytes
	}
	b = slices.Grow(b, n) // once: growing it item by item copied the batch over and over
	b = append(b, `{"files":[`...)
	for i := range files {
		if i > 0 {
			b = append(b, ',')
		}
		f := &files[i]
		b = append(b, `{"path":`...)
		b = workspace.AppendJSONString(b, f.Path)
		b = append(b, `,"uri":`...)
		b = workspace.AppendJSONString(b, f.URI)
		b = append(b, `,"language":`...)
		b = workspace.AppendJSONString(b, f.Language)
		b = append(b, `,"items":`...)
		b = appendItems(b, f.Items)
		b = append(b, '}')
	}
	return append(b, ']')
}

// appendItems appends items as a JSON array (null for nil, as
// encoding/json writes it).
func appendItems(b []byte, items []Item) []byte {
	if items == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		it := &items[i]
		b = append(b, `{"name":`...)
		b = workspace.AppendJSONString(b, it.Name)
		b = append(b, `,"symbolType":`...)
		b = workspace.AppendJSONString(b, it.SymbolType)
		b = append(b, `,"range":`...)
		b = it.Range.AppendJSON(b)
		b = append(b, `,"selectionRange":`...)
		b = it.SelectionRange.AppendJSON(b)
		b = append(b, `,"byteRange":`...)
		b = it.ByteRange.AppendJSON(b)
		b = append(b, `,"signature":`...)
		b = workspace.AppendJSONString(b, it.Signature)
		b = append(b, `,"astKind":`...)
		b = workspace.AppendJSONString(b, it.AstKind)
		b = append(b, `,"isExported":`...)
		b = strconv.AppendBool(b, it.IsExported)
		b = append(b, `,"isImport":`...)
		b = strconv.AppendBool(b, it.IsImport)
		b = append(b, `,"members":`...)
		b = appendItems(b, it.Members)
		b = append(b, '}')
	}
	return append(b, ']')
}

// itemJSONBytes is about what one item's JSON takes: 381 bytes on average
// in the outline of the Go standard library (--items structure).
const itemJSONBytes = 384

// countItems counts items and their members at every level.
func countItems(items []Item) int {
	n := len(items)
	for i := range items {
		n += countItems(items[i].Members)
	}
	return n
}
