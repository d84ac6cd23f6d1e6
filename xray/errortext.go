package xray

import (
	"fmt"
	"slices"
	"strings"

	"github.com/structls/structls/internal/english"
)

// maxErrorGroupsShown caps the distinct evaluation errors the text lists;
// the JSON result lists every file's.
const maxErrorGroupsShown = 20

// maxErrorPathsShown is how many of an error's files the text names.
const maxErrorPathsShown = 3

// errorGroup is one distinct evaluation error (its type and message) and
// the files it happened in, in candidate order.
type errorGroup struct {
	errorType ErrorType
	message   string
	paths     []string
}

// groupErrors gathers the errors by type and message, most frequent first
// (then in the order they first happened): an evaluator that breaks breaks
// the same way in every file, and one line says so better than a line a file.
func groupErrors(errs []EvaluationError) []*errorGroup {
	var groups []*errorGroup
	byKey := map[[2]string]*errorGroup{}
	for _, e := range errs {
		key := [2]string{string(e.ErrorType), e.ErrorMessage}
		g := byKey[key]
		if g == nil {
			g = &errorGroup{errorType: e.ErrorType, message: e.ErrorMessage}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.paths = append(g.paths, e.Path)
	}
	slices.SortStableFunc(groups, func(a, b *errorGroup) int { return len(b.paths) - len(a.paths) })
	return groups
}

// writeErrors lists the distinct evaluation errors, each once: an error of
// one file as `PATH: TYPE: MESSAGE`, an error of several as
// `TYPE in N files (a.go, b.go, c.go, …): MESSAGE`.
func writeErrors(b *strings.Builder, errs []EvaluationError) {
	groups := groupErrors(errs)
	if len(groups) == len(errs) {
		b.WriteString("\nevaluation errors:\n")
	} else {
		fmt.Fprintf(b, "\nevaluation errors (%s, %s):\n", english.Count(len(errs), "error", "errors"), english.Count(len(groups), "distinct", "distinct"))
	}
	for _, g := range groups[:min(len(groups), maxErrorGroupsShown)] {
		if len(g.paths) == 1 {
			fmt.Fprintf(b, "%s: %s: %s\n", g.paths[0], g.errorType, g.message)
			continue
		}
		named := strings.Join(g.paths[:min(len(g.paths), maxErrorPathsShown)], ", ")
		if len(g.paths) > maxErrorPathsShown {
			named += ", …"
		}
		fmt.Fprintf(b, "%s in %d files (%s): %s\n", g.errorType, len(g.paths), named, g.message)
	}
	if left := len(groups) - maxErrorGroupsShown; left > 0 {
		fmt.Fprintf(b, "… and %s not listed (the JSON result lists every file's)\n", english.Count(left, "other distinct error", "other distinct errors"))
	}
}

// errorsByType is the summary's count of errors by type, most frequent
// first: "25 InvalidEvaluatorReturn, 2 ReadError".
func errorsByType(errs []EvaluationError) string {
	counts := map[ErrorType]int{}
	var types []ErrorType
	for _, e := range errs {
		if counts[e.ErrorType] == 0 {
			types = append(types, e.ErrorType)
		}
		counts[e.ErrorType]++
	}
	slices.SortStableFunc(types, func(a, b ErrorType) int { return counts[b] - counts[a] })
	parts := make([]string, len(types))
	for i, t := range types {
		parts[i] = fmt.Sprintf("%d %s", counts[t], t)
	}
	return strings.Join(parts, ", ")
}
