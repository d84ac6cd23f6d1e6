// Package suggest finds the name a person most likely meant when they
// mistyped one: a setting, a field, a language.
package suggest

// Distance is the Levenshtein distance between a and b, in bytes: the
// number of single-byte insertions, deletions and substitutions that turn
// one into the other. Names are short, so the quadratic table costs
// nothing; inputs are cut at 64 bytes to keep it so.
func Distance(a, b string) int {
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
