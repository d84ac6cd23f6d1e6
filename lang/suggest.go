package lang

import (
	"fmt"
	"strings"

	"github.com/structls/structls/internal/suggest"
)

// unknownLanguageError is the error for a `lang` the catalogue does not
// know: it suggests the nearest name when the input looks like a typo or an
// abbreviation, and points to `structls languages` for the full list (57
// names on one line help nobody).
func unknownLanguageError(input string) error {
	if near := nearestLanguage(strings.ToLower(strings.TrimSpace(input))); near != nil {
		return fmt.Errorf("unsupported language %q: did you mean %s? (run `structls languages` for every name and alias)", input, near.Name)
	}
	return fmt.Errorf("unsupported language %q: run `structls languages` for every supported name and alias", input)
}

// nearestLanguage returns the language one of whose names (canonical or
// alias) is a near miss of input: within edit distance 1 (2 for inputs of
// five letters or more), or, for inputs of three letters or more, a name
// that starts with it ("type" → typescript). Closest first; ties go to the
// language first in name order. nil when nothing is near, and for a single
// letter (every one-letter name would be a near miss).
func nearestLanguage(input string) *Language {
	if len(input) < 2 {
		return nil
	}
	allowed := 1
	if len(input) >= 5 {
		allowed = 2
	}
	var best *Language
	bestScore := allowed + 1
	for _, l := range All() {
		for _, name := range append([]string{l.Name}, l.Aliases...) {
			score := suggest.Distance(input, name)
			if len(input) >= 3 && strings.HasPrefix(name, input) {
				score = min(score, 1)
			}
			if score < bestScore {
				best, bestScore = l, score
			}
		}
	}
	return best
}
