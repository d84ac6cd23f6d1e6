// Package english words user-facing messages: counts ("1 file", "3
// files", never "1 files" or "file(s)") and the kinds of JSON values.
package english

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// Count returns n followed by one when n is 1, else by many:
// Count(1, "file", "files") is "1 file", Count(3, "match", "matches") "3 matches".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// JSONKind names a JSON kind in words, for "a JSON object, not an array":
// object, array, boolean, string, number, null.
func JSONKind(k jsontext.Kind) string {
	switch k {
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	}
	return k.String()
}
