package lang

import (
	"fmt"
	"strings"
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
			score := editDistance(input, name)
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

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
