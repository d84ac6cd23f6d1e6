package workspace

import "strconv"

// AppendJSON appends the range as JSON, as encoding/json writes it, for the
// engines that encode hundreds of thousands of matches without reflection.
func (r Range) AppendJSON(b []byte) []byte {
	b = append(b, `{"start":{"line":`...)
	b = strconv.AppendInt(b, int64(r.Start.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendInt(b, int64(r.Start.Character), 10)
	b = append(b, `},"end":{"line":`...)
	b = strconv.AppendInt(b, int64(r.End.Line), 10)
	b = append(b, `,"character":`...)
	b = strconv.AppendInt(b, int64(r.End.Character), 10)
	return append(b, "}}"...)
}

// AppendJSON appends the byte range as JSON, as encoding/json writes it.
func (r ByteRange) AppendJSON(b []byte) []byte {
	b = append(b, `{"start":`...)
	b = strconv.AppendInt(b, int64(r.Start), 10)
	b = append(b, `,"end":`...)
	b = strconv.AppendInt(b, int64(r.End), 10)
	return append(b, '}')
}
