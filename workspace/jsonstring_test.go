package workspace

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendJSONStringAsEncodingJSON: the engines' one string escaper
// writes the very bytes encoding/json writes, for text holding every ASCII
// byte, the HTML characters, U+2028 and U+2029, and invalid UTF-8.
func TestAppendJSONStringAsEncodingJSON(t *testing.T) {
	var ascii []byte
	for c := range 0x80 {
		ascii = append(ascii, byte(c))
	}
	for _, s := range []string{
		"", "plain", string(ascii), "a && b <c> \"q\" \\ \b\f\n\r\t\x00\x1f\x7f",
		"é 😀 \u2028 \u2029 end", "bad \xff \xc3 \xe2\x80 end", "\xed\xa0\x80",
	} {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString([]byte("prefix"), s); !bytes.Equal(got, append([]byte("prefix"), want...)) {
			t.Errorf("AppendJSONString(%q) = %s; want prefix%s", s, got, want)
		}
	}
}
