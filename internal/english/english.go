// Package english words the counts of user-facing messages: "1 file",
// "3 files", never "1 files" or "file(s)".
package english

import "strconv"

// Count returns n followed by one when n is 1, else by many:
// Count(1, "file", "files") is "1 file", Count(3, "match", "matches") "3 matches".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
