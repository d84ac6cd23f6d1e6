package lsp

import (
	"strings"

	"github.com/structls/structls/internal/suggest"
)

// closestName returns the known name a mistyped one most likely meant: one
// that differs only in case, else the nearest within two edits (by
// Levenshtein distance, case-folded). It returns "" when none is close.
func closestName(name string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
		if d := suggest.Distance(strings.ToLower(name), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

// didYouMean is " (did you mean NAME?)" for a near miss, else "".
func didYouMean(name string, known []string) string {
	if k := closestName(name, known); k != "" {
		return " (did you mean " + k + "?)"
	}
	return ""
}
