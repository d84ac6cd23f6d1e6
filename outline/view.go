package outline

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxSummarySymbols caps the names view over directories: an agent reading
// a package at a glance needs its shape, not ten thousand names.
const MaxSummarySymbols = 200

// Render writes the files in one of ast-grep outline's four text views:
//
//	names       one line per symbol type of each file: "function: a, b ×2"
//	signatures  one line per item: "12: func F(x int) error"
//	digest      signatures, each followed by its members' names by type
//	expanded    signatures, each followed by one line per member
//
// Files are separated by a blank line and headed by their path. The names
// view of a directory stops after MaxSummarySymbols names, saying how to
// narrow the query.
func Render(files []File, view string, hasDirectory bool) string {
	var b strings.Builder
	r := newRenderer(view, hasDirectory)
	for i := range files {
		r.file(&b, &files[i])
	}
	r.tail(&b)
	return b.String()
}

// renderer writes files in a view one at a time, as a streamed outline
// delivers them: what it keeps from file to file is the names view's
// budget and what that budget left out.
type renderer struct {
	view          string
	budget        int // names left to show in a directory's names view; -1: no cap
	files         int // files seen
	hiddenSymbols int // items the budget left out
	hiddenFiles   int // files with items the budget left out
}

func newRenderer(view string, hasDirectory bool) *renderer {
	r := &renderer{view: view, budget: -1}
	if view == ViewNames && hasDirectory {
		r.budget = MaxSummarySymbols
	}
	return r
}

// file writes one file's outline.
func (r *renderer) file(b *strings.Builder, f *File) {
	r.files++
	if r.budget == 0 {
		r.hiddenSymbols += len(f.Items)
		r.hiddenFiles++
		return
	}
	if r.files > 1 {
		b.WriteByte('\n')
	}
	b.WriteString(f.Path + "\n")
	if len(f.Items) == 0 {
		b.WriteString("nothing found\n")
		return
	}
	width := lineNumberWidth(f.Items)
	switch r.view {
	case ViewNames:
		items := f.Items
		if r.budget >= 0 && len(items) > r.budget {
			r.hiddenSymbols += len(items) - r.budget
			r.hiddenFiles++
			items = items[:r.budget]
		}
		if r.budget >= 0 {
			r.budget -= len(items)
		}
		writeGroups(b, "", items, false)
	case ViewSignatures:
		for _, it := range f.Items {
			writeItemLine(b, width, "", &it)
		}
	case ViewDigest:
		for _, it := range f.Items {
			writeItemLine(b, width, "", &it)
			writeGroups(b, strings.Repeat(" ", width+4), it.Members, true)
		}
	default: // expanded
		for _, it := range f.Items {
			writeItemLine(b, width, "", &it)
			for _, m := range it.Members {
				writeItemLine(b, width, "  ", &m)
			}
		}
	}
}

// tail writes what follows the files: "nothing found" when there were
// none, the names the budget left out.
func (r *renderer) tail(b *strings.Builder) {
	if r.files == 0 {
		b.WriteString("nothing found\n")
	}
	if r.hiddenSymbols > 0 {
		fmt.Fprintf(b, "\n… %d more symbols in %d files not shown in full: narrow the outline with paths, types or match\n", r.hiddenSymbols, r.hiddenFiles)
	}
}

// writeItemLine writes "LINE: signature" (the name when there is none).
func writeItemLine(b *strings.Builder, width int, indent string, it *Item) {
	text := it.Signature
	if text == "" {
		text = it.Name
	}
	fmt.Fprintf(b, "%*d: %s%s\n", width, it.Line(), indent, text)
}

// writeGroups writes one "type: a, b ×2" line per symbol type, in
// SymbolTypes order; a name declared n times shows "×n". With publicFirst
// (members), public names come before the others.
func writeGroups(b *strings.Builder, indent string, items []Item, publicFirst bool) {
	type group struct {
		names []string
		count map[string]int
	}
	groups := map[string]*group{}
	add := func(it *Item) {
		g := groups[it.SymbolType]
		if g == nil {
			g = &group{count: map[string]int{}}
			groups[it.SymbolType] = g
		}
		if g.count[it.Name] == 0 {
			g.names = append(g.names, it.Name)
		}
		g.count[it.Name]++
	}
	for pass := range 2 {
		for i := range items {
			if !publicFirst && pass == 1 {
				break
			}
			if publicFirst && items[i].IsExported != (pass == 0) {
				continue
			}
			add(&items[i])
		}
	}
	for _, t := range orderedTypes(groups) {
		g := groups[t]
		parts := make([]string, len(g.names))
		for i, n := range g.names {
			parts[i] = n
			if c := g.count[n]; c > 1 {
				parts[i] += " ×" + strconv.Itoa(c)
			}
		}
		fmt.Fprintf(b, "%s%s: %s\n", indent, t, strings.Join(parts, ", "))
	}
}

// orderedTypes lists the keys of groups in SymbolTypes order (every table's
// symbol types are there: TestTablesAreWellFormed checks).
func orderedTypes[V any](groups map[string]V) []string {
	var out []string
	for _, t := range SymbolTypes {
		if _, ok := groups[t]; ok {
			out = append(out, t)
		}
	}
	return out
}

// lineNumberWidth is the width of the largest line number of the items and
// their members.
func lineNumberWidth(items []Item) int {
	most := 1
	for _, it := range items {
		most = max(most, it.Line())
		for _, m := range it.Members {
			most = max(most, m.Line())
		}
	}
	return len(strconv.Itoa(most))
}
