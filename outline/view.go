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
	if len(files) == 0 {
		return "nothing found\n"
	}
	budget := -1
	if view == ViewNames && hasDirectory {
		budget = MaxSummarySymbols
	}
	hiddenSymbols, hiddenFiles := 0, 0
	for i, f := range files {
		if budget == 0 {
			hiddenSymbols += len(f.Items)
			hiddenFiles++
			continue
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(f.Path + "\n")
		if len(f.Items) == 0 {
			b.WriteString("nothing found\n")
			continue
		}
		width := lineNumberWidth(f.Items)
		switch view {
		case ViewNames:
			items := f.Items
			if budget >= 0 && len(items) > budget {
				hiddenSymbols += len(items) - budget
				hiddenFiles++
				items = items[:budget]
			}
			if budget >= 0 {
				budget -= len(items)
			}
			writeGroups(&b, "", items, false)
		case ViewSignatures:
			for _, it := range f.Items {
				writeItemLine(&b, width, "", &it)
			}
		case ViewDigest:
			for _, it := range f.Items {
				writeItemLine(&b, width, "", &it)
				writeGroups(&b, strings.Repeat(" ", width+4), it.Members, true)
			}
		default: // expanded
			for _, it := range f.Items {
				writeItemLine(&b, width, "", &it)
				for _, m := range it.Members {
					writeItemLine(&b, width, "  ", &m)
				}
			}
		}
	}
	if hiddenSymbols > 0 {
		fmt.Fprintf(&b, "\n… %d more symbols in %d files not shown in full: narrow the outline with paths, types or match\n", hiddenSymbols, hiddenFiles)
	}
	return b.String()
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
