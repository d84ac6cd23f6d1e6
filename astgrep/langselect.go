package astgrep

import (
	"fmt"
	"strings"
)

// skippedNote is the one note of a search without a language: where it
// searched and which languages present it skipped.
func skippedNote(searched, skipped []string) string {
	where := "searched in " + strings.Join(searched, ", ")
	if len(searched) == 0 {
		where = "searched in no language"
	}
	others := "other "
	if len(searched) == 0 {
		others = ""
	}
	return fmt.Sprintf("%s; the pattern does not parse in %d %slanguage%s present: %s (name a language to search it there as parsed, as ast-grep does)",
		where, len(skipped), others, plural(len(skipped)), strings.Join(skipped, ", "))
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
