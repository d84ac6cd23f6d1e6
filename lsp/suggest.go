package lsp

import "strings"

// closestName returns the known name a mistyped one most likely meant: one
// that differs only in case, else the nearest within two edits (by
// Levenshtein distance, case-folded). It returns "" when none is close.
func closestName(name string, known []string) string {
	best, bestDist := "", 3
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
		if d := editDistance(strings.ToLower(name), strings.ToLower(k)); d < bestDist {
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

// editDistance is the Levenshtein distance between a and b, in bytes.
// Names are short, so the quadratic table costs nothing; longer inputs are
// cut to keep it so.
func editDistance(a, b string) int {
	const maxLen = 64
	a, b = a[:min(len(a), maxLen)], b[:min(len(b), maxLen)]
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
