package xray

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"go.starlark.net/starlark"
)

// outcome is one file's evaluation, checked against the return contract.
type outcome struct {
	matches   []fileMatch
	value     any // nil: None
	valueSize int // about the bytes of value's and file_role's JSON
	fileRole  string
	hasRole   bool
}

// fileMatch is one returned match before it gets its file's path.
type fileMatch struct {
	line        int
	lineContent *string
	fields      map[string]any
	size        int // about the bytes of its fields' JSON
}

// Keys of a returned match that are not kept under fields.
const (
	keyLineNumber  = "line_number"
	keyLineContent = "line_content"
	keyFilePath    = "file_path"
	keyLanguage    = "language"
)

// maxReturnedValues caps the JSON values one file's return converts to
// (a list may hold itself, or the same list many times over).
const (
	maxReturnedValues = 1_000_000
	maxReturnedDepth  = 64
)

// pythonType names a Starlark value's type as code-indexer's messages do.
func pythonType(v starlark.Value) string {
	if v.Type() == "string" {
		return "str"
	}
	return v.Type()
}

func invalidReturn(format string, args ...any) *evalFailure {
	return &evalFailure{InvalidEvaluatorReturn, fmt.Sprintf(format, args...)}
}

// checkReturn applies code-indexer's checks to what the evaluator returned;
// skip (nil outcome, nil failure) wins over everything.
func checkReturn(v starlark.Value) (*outcome, *evalFailure) {
	d, ok := v.(*starlark.Dict)
	if !ok {
		return nil, invalidReturn(`Evaluator must return a dict {"matches": [...], "value": ...}, got '%s'. Note: bool return (legacy contract) is no longer accepted.`, pythonType(v))
	}
	if skip, found, _ := d.Get(starlark.String("skip")); found && skip == starlark.True {
		return nil, nil
	}
	rawMatches, found, _ := d.Get(starlark.String("matches"))
	if !found {
		return nil, invalidReturn(`Evaluator dict missing required 'matches' key. Return: {"matches": [...], "value": ...}`)
	}
	list, ok := rawMatches.(*starlark.List)
	if !ok {
		return nil, invalidReturn("'matches' must be a list, got '%s'", pythonType(rawMatches))
	}
	if list.Len() > MaxMatchesPerFile {
		return nil, invalidReturn("the evaluator returned %d matches for this file; at most %d are kept per file: narrow the driver or the evaluator", list.Len(), MaxMatchesPerFile)
	}
	conv := &converter{}
	out := &outcome{matches: make([]fileMatch, 0, list.Len())}
	for i := range list.Len() {
		entry, ok := list.Index(i).(*starlark.Dict)
		if !ok {
			continue // code-indexer skips entries that are not dicts
		}
		m, failure := conv.match(entry)
		if failure != nil {
			return nil, failure
		}
		out.matches = append(out.matches, m)
	}
	if value, found, _ := d.Get(starlark.String("value")); found && value != starlark.None {
		out.value = conv.json(value, 0)
	}
	if role, found, _ := d.Get(starlark.String("file_role")); found {
		out.hasRole = true
		out.fileRole = conv.text(role)
	}
	if conv.count > maxReturnedValues {
		return nil, invalidReturn("the evaluator returned more than %d values for this file (a list that holds itself?); return less", maxReturnedValues)
	}
	if conv.bytes > MaxFileOutputBytes {
		return nil, invalidReturn("the evaluator returned more than %d MiB of values for this file (the same large string in many matches?), the output a file may have; return less", MaxFileOutputBytes>>20)
	}
	out.valueSize = conv.bytes - conv.matchBytes
	return out, nil
}

// match checks one returned match and splits its keys.
func (c *converter) match(entry *starlark.Dict) (fileMatch, *evalFailure) {
	ln, found, _ := entry.Get(starlark.String(keyLineNumber))
	if !found {
		var keys []string
		for _, k := range entry.Keys() {
			keys = append(keys, k.String())
		}
		return fileMatch{}, invalidReturn("each match must contain 'line_number'; got keys: [%s]", strings.Join(keys, ", "))
	}
	line, ok := asLineNumber(ln)
	if !ok {
		return fileMatch{}, invalidReturn("line_number must be an int, got %s", ln.String())
	}
	m := fileMatch{line: line}
	if entry.Len() == 1 {
		return m, nil // only line_number, as most evaluators return
	}
	before := c.bytes
	for k, v := range entry.Entries() {
		if c.bytes > MaxFileOutputBytes {
			break // checkReturn reports it
		}
		key := c.text(k)
		switch key {
		case keyLineNumber, keyFilePath, keyLanguage:
		case keyLineContent:
			s := c.text(v)
			m.lineContent = &s
		default:
			if m.fields == nil {
				m.fields = map[string]any{}
			}
			m.fields[key] = c.json(v, 0)
		}
	}
	m.size = c.bytes - before
	c.matchBytes += m.size
	return m, nil
}

// asLineNumber is Python's int(): ints, floats (truncated), bools and
// decimal strings.
func asLineNumber(v starlark.Value) (int, bool) {
	switch v := v.(type) {
	case starlark.Int:
		n, ok := v.Int64()
		return int(n), ok && n >= math.MinInt32 && n <= math.MaxInt32
	case starlark.Float:
		f := float64(v)
		return int(f), !math.IsNaN(f) && f >= math.MinInt32 && f <= math.MaxInt32
	case starlark.Bool:
		if v {
			return 1, true
		}
		return 0, true
	case starlark.String:
		n, err := strconv.Atoi(strings.TrimSpace(string(v)))
		return n, err == nil
	}
	return 0, false
}

// converter turns returned Starlark values into JSON values, counting
// them and about the bytes of their JSON (a string shared by many matches
// is held once, but written once for each).
type converter struct {
	count      int
	bytes      int // about the JSON of everything converted
	matchBytes int // of it, the matches' fields
}

// valueBytes is about what a value takes in JSON besides its strings.
const valueBytes = 8

// text is a string's value, or any other value's repr.
func (c *converter) text(v starlark.Value) string {
	var s string
	if str, ok := v.(starlark.String); ok {
		s = strings.ToValidUTF8(string(str), "\uFFFD")
	} else if c.bytes <= MaxFileOutputBytes {
		s = v.String()
	}
	c.bytes += len(s) + valueBytes
	return s
}

func (c *converter) json(v starlark.Value, depth int) any {
	c.count++
	c.bytes += valueBytes
	if c.count > maxReturnedValues || depth > maxReturnedDepth || c.bytes > MaxFileOutputBytes {
		return nil // checkReturn reports the overflow; depth alone cuts the value
	}
	switch v := v.(type) {
	case starlark.NoneType:
		return nil
	case starlark.Bool:
		return bool(v)
	case starlark.Int:
		if n, ok := v.Int64(); ok {
			return n
		}
		return v.String()
	case starlark.Float:
		if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
			return f
		}
		return v.String()
	case starlark.String:
		return c.text(v)
	case starlark.Bytes:
		c.bytes += len(v)
		return strings.ToValidUTF8(string(v), "\uFFFD")
	case *Node:
		r, start, end := v.raw(), v.tree.StartPoint(v.index), v.tree.EndPoint(v.index)
		return map[string]any{"type": v.tree.Kind(v.index), "startByte": r.Start, "endByte": r.End,
			"startPoint": []uint32{start.Row, start.Column}, "endPoint": []uint32{end.Row, end.Column}}
	case *starlark.Dict:
		out := map[string]any{}
		for k, x := range v.Entries() {
			if c.bytes > MaxFileOutputBytes {
				break
			}
			out[c.text(k)] = c.json(x, depth+1)
		}
		return out
	case starlark.Iterable:
		out := []any{}
		it := v.Iterate()
		defer it.Done()
		var x starlark.Value
		for it.Next(&x) && c.count <= maxReturnedValues && c.bytes <= MaxFileOutputBytes {
			out = append(out, c.json(x, depth+1))
		}
		return out
	}
	return c.text(v)
}
