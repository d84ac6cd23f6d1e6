package grep

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/structls/structls/workspace"
)

// fileScan is what scanning one file produced.
type fileScan struct {
	file      workspace.File
	matches   []Match
	capped    bool // the file had more matches than the per-file cap
	truncated bool // some line text was cut at MaxLineColumns
}

// scanner scans files for one query; it is shared by the worker goroutines.
type scanner struct {
	m             *matcher
	before, after int
	perFileLimit  int // 0 = unlimited
	enc           workspace.Encoding
}

// cancelCheckEvery is how many lines, literal hits or submatches the long
// loops of a scan handle between two looks at the request's cancellation:
// one line of a minified file can hold tens of thousands of matches.
const cancelCheckEvery = 1024

// hit is one matching line: its start, end and the regex matches on it
// (absolute byte offsets).
type hit struct {
	lineStart, lineEnd int
	subs               [][]int
}

// scratch is the memory one worker reuses from file to file.
type scratch struct {
	read   []byte           // the file's bytes
	mapper workspace.Mapper // the line table of a file with a candidate match
	starts []int            // the candidate lines' starts
}

// scan finds the matching lines of one file, using the worker's scratch.
func (s *scanner) scan(ctx context.Context, f workspace.File, content []byte, w *scratch) fileScan {
	if !s.m.filter.fileMayMatch(content) {
		return fileScan{}
	}
	mapper := &w.mapper
	mapper.Reset(content)
	var out fileScan
	uri := "" // the file's, made for its first match and shared by the others
	emit := func(h hit) bool {
		line := mapper.Line(h.lineStart) + 1
		if !inSelection(f.Lines, line) {
			return true
		}
		if s.perFileLimit > 0 && len(out.matches) == s.perFileLimit {
			out.capped = true
			return false
		}
		if uri == "" {
			uri = f.URI()
		}
		out.matches = append(out.matches, s.match(ctx, f, uri, mapper, content, line, h, &out.truncated))
		return ctx.Err() == nil
	}
	switch {
	case s.m.multiline:
		s.multilineHits(ctx, content, emit)
	case len(s.m.filter.clauses) > 0:
		w.starts = s.candidateLineHits(ctx, content, w.starts[:0], emit)
	default:
		s.lineHits(ctx, content, emit)
	}
	return out
}

// lineHits runs the regex over the whole text and confines each match to its
// line, re-matching the line alone so that a line matches exactly when
// ripgrep's line-oriented search says it does.
func (s *scanner) lineHits(ctx context.Context, content []byte, emit func(hit) bool) {
	for pos, n := 0, 0; pos < len(content); n++ {
		if n%cancelCheckEvery == cancelCheckEvery-1 && ctx.Err() != nil {
			return
		}
		loc := s.m.engine.FindIndex(content[pos:])
		if loc == nil {
			return
		}
		start := pos + loc[0]
		ls := bytes.LastIndexByte(content[:start], '\n') + 1
		le := lineEnd(content, start)
		if subs := s.m.engine.FindAllIndex(content[ls:le], -1); subs != nil && !emit(hit{ls, le, shift(subs, ls)}) {
			return
		}
		pos = le + 1
	}
}

// candidateLineHits runs the regex only on the lines holding a literal of
// the most selective prefilter clause: a matching line must hold one. It
// collects the lines' starts in starts (reused) and returns it.
func (s *scanner) candidateLineHits(ctx context.Context, content []byte, starts []int, emit func(hit) bool) []int {
	for _, lit := range bestClause(s.m.filter.clauses) {
		for pos, n := 0, 0; pos < len(content); n++ {
			if n%cancelCheckEvery == cancelCheckEvery-1 && ctx.Err() != nil {
				return starts
			}
			i := s.m.filter.index(content[pos:], lit)
			if i < 0 {
				break
			}
			at := pos + i
			starts = append(starts, bytes.LastIndexByte(content[:at], '\n')+1)
			pos = lineEnd(content, at) + 1
		}
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	for n, ls := range starts {
		if n%cancelCheckEvery == cancelCheckEvery-1 && ctx.Err() != nil {
			return starts
		}
		le := lineEnd(content, ls)
		if subs := s.m.engine.FindAllIndex(content[ls:le], -1); subs != nil && !emit(hit{ls, le, shift(subs, ls)}) {
			return starts
		}
	}
	return starts
}

// multilineHits runs the regex over the whole text; matches are grouped by
// the line they start on.
func (s *scanner) multilineHits(ctx context.Context, content []byte, emit func(hit) bool) {
	var cur *hit
	for n, loc := range s.m.engine.FindAllIndex(content, -1) {
		if n%cancelCheckEvery == cancelCheckEvery-1 && ctx.Err() != nil {
			return
		}
		if loc[0] == len(content) && len(content) > 0 && content[len(content)-1] == '\n' {
			break // the empty "line" after the final newline is no line
		}
		ls := bytes.LastIndexByte(content[:loc[0]], '\n') + 1
		if cur != nil && cur.lineStart == ls {
			cur.subs = append(cur.subs, loc)
			continue
		}
		if cur != nil && !emit(*cur) {
			return
		}
		cur = &hit{lineStart: ls, lineEnd: lineEnd(content, max(loc[1]-1, loc[0])), subs: [][]int{loc}}
	}
	if cur != nil {
		emit(*cur)
	}
}

// match builds the Match of a hit on 1-based line number line of the file
// f, known to the client as uri. When ctx ends, it stops converting
// submatch positions and returns what it has: the caller discards the scan.
func (s *scanner) match(ctx context.Context, f workspace.File, uri string, mapper *workspace.Mapper, content []byte, line int, h hit, truncated *bool) Match {
	// A multiline match shows every line it spans, joined by "\n".
	var texts []string
	cut := false
	for ls := h.lineStart; ls <= h.lineEnd && ls <= len(content); {
		le := lineEnd(content, ls)
		text, c := displayLine(content[max(ls, mapper.LineStart(0)):le]) // a byte order mark is not shown, as ripgrep does
		texts, cut = append(texts, text), cut || c
		if le >= h.lineEnd {
			break
		}
		ls = le + 1
	}
	*truncated = *truncated || cut
	m := Match{Path: f.Rel, URI: uri, LineNumber: line, LineText: strings.Join(texts, "\n"), Truncated: cut}
	for i, sub := range h.subs {
		if i%cancelCheckEvery == cancelCheckEvery-1 && ctx.Err() != nil {
			break
		}
		rng, _ := mapper.OffsetRange(sub[0], sub[1], s.enc)
		m.Submatches = append(m.Submatches, Submatch{Text: string(content[sub[0]:sub[1]]),
			ByteRange: workspace.ByteRange{Start: sub[0], End: sub[1]}, Range: rng})
	}
	m.Range = m.Submatches[0].Range
	lastLine := mapper.Line(h.lineEnd) + 1
	m.ContextBefore = s.contextLines(f, mapper, content, line-s.before, line-1, truncated)
	m.ContextAfter = s.contextLines(f, mapper, content, lastLine+1, lastLine+s.after, truncated)
	return m
}

// contextLines returns lines from..to (1-based, clipped to the file and to
// the target's line selection).
func (s *scanner) contextLines(f workspace.File, mapper *workspace.Mapper, content []byte, from, to int, truncated *bool) []ContextLine {
	last := mapper.LineCount()
	if len(content) > 0 && content[len(content)-1] == '\n' {
		last-- // the empty "line" after the final newline
	}
	var out []ContextLine
	for n := max(from, 1); n <= min(to, last); n++ {
		if !inSelection(f.Lines, n) {
			continue
		}
		text, cut := displayLine(content[mapper.LineStart(n-1):lineEnd(content, mapper.LineStart(n-1))])
		*truncated = *truncated || cut
		out = append(out, ContextLine{LineNumber: n, Text: text})
	}
	return out
}

// displayLine trims trailing whitespace and cuts lines longer than
// MaxLineColumns bytes at a character boundary, marking the cut with "...".
func displayLine(line []byte) (string, bool) {
	line = bytes.TrimRightFunc(line, unicode.IsSpace)
	if len(line) <= MaxLineColumns {
		return string(line), false
	}
	cut := MaxLineColumns - 3
	for cut > 0 && !utf8.RuneStart(line[cut]) {
		cut--
	}
	return strings.ToValidUTF8(string(line[:cut]), "\uFFFD") + "...", true
}

// lineEnd returns the offset of the "\n" ending the line holding off, or len(content).
func lineEnd(content []byte, off int) int {
	if i := bytes.IndexByte(content[off:], '\n'); i >= 0 {
		return off + i
	}
	return len(content)
}

func shift(locs [][]int, by int) [][]int {
	for _, l := range locs {
		l[0] += by
		l[1] += by
	}
	return locs
}

func inSelection(sel []workspace.LineSel, line int) bool {
	if sel == nil {
		return true
	}
	return slices.ContainsFunc(sel, func(l workspace.LineSel) bool { return l.Contains(line) })
}
