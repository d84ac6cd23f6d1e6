package english

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 files"}, {1, "1 file"}, {2, "2 files"}, {-1, "-1 files"}} {
		if got := Count(c.n, "file", "files"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestJSONKind(t *testing.T) {
	for value, want := range map[string]string{`{}`: "object", `[]`: "array", `true`: "boolean", `false`: "boolean", `"s"`: "string", `1.5`: "number", `null`: "null"} {
		if got := JSONKind(jsontext.Value(value).Kind()); got != want {
			t.Errorf("JSONKind of %s = %q, want %q", value, got, want)
		}
	}
}
