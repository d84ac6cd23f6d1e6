package astgrep

import (
	"context"
	"fmt"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// pageBounds returns the match indexes [start, end) of the page that skip
// and limit (0 = unlimited) select out of total matches. It never
// overflows: skip may be any non-negative int.
func pageBounds(total, skip, limit int) (start, end int) {
	start = min(skip, total)
	end = total
	if limit > 0 && total-start > limit {
		end = start + limit
	}
	return start, end
}

// page builds the matches [start, end) of the files, in order (folder, path,
// then pre-order within a file), and sends them on file by file: each file
// is read and parsed again, and only its matches inside the page are built.
func (s *searcher) page(ctx context.Context, snap *workspace.Snapshot, files []fileHits, start, end int, send func([]Match) error) error {
	w := &worker{scratch: new(syntax.Scratch)}
	defer w.scratch.Release()
	offset := 0
	for _, f := range files {
		if offset >= end {
			break
		}
		lo, hi := max(start-offset, 0), min(end-offset, f.count)
		offset += f.count
		if lo >= hi {
			continue
		}
		built, err := s.rebuild(ctx, snap, f, lo, hi, w)
		if err != nil {
			return err
		}
		if len(built) > 0 {
			if err := send(built); err != nil {
				return err
			}
		}
	}
	return nil
}

// rebuild takes the tree of a file again (from the cache, in the server)
// and builds its matches lo to hi-1 (counted from 0 in pre-order). A file
// on disk that changed since the first pass may now yield fewer: then fewer
// are returned.
func (s *searcher) rebuild(ctx context.Context, snap *workspace.Snapshot, f fileHits, lo, hi int, w *worker) ([]Match, error) {
	p, err := s.patterns.Get(ctx, f.lang)
	if err != nil {
		return nil, err
	}
	text, err := s.trees.Read(snap, f.file, f.lang.Grammar(), nil)
	if err != nil {
		return nil, nil // gone or changed into something unreadable since the first pass
	}
	tree := text.Tree
	if tree == nil {
		if tree, err = s.parse(ctx, f.lang, p, text.Content, f.file.Doc == nil, w.scratch); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("parsing %s again to build its matches: %w", f.file.Rel, err)
		}
	}
	build := s.newMatchBuilder(f.file, f.lang, tree, &w.lines)
	var out []Match
	i := 0
	err = p.FindEach(ctx, tree, func(n int32, env *matcher.Env) bool {
		if i >= lo {
			out = append(out, build.match(n, env))
		}
		i++
		return i < hi
	})
	return out, err
}

// matchBuilder turns matched nodes of one file into Matches: it copies
// their text and maps their offsets to positions in the client's encoding.
type matchBuilder struct {
	s      *searcher
	f      workspace.File
	lang   *lang.Language
	tree   *syntax.Tree
	mapper *workspace.Mapper
}

// newMatchBuilder returns the builder of the matches of file f, parsed as
// t, mapping their positions with lines, which it resets for t's source:
// the worker's, none of whose matches may be built after this file's.
func (s *searcher) newMatchBuilder(f workspace.File, l *lang.Language, t *syntax.Tree, lines *workspace.Mapper) *matchBuilder {
	lines.Reset(t.Source)
	return &matchBuilder{s: s, f: f, lang: l, tree: t, mapper: lines}
}

// match builds the Match of node n with its bindings.
func (b *matchBuilder) match(n int32, env *matcher.Env) Match {
	t, mapper, s := b.tree, b.mapper, b.s
	node := &t.Nodes[n]
	m := Match{Path: b.f.Rel, URI: b.f.URI(), Language: b.lang.Name, Text: string(t.Text(n)), MetaVariables: map[string]any{},
		ContextBefore: []string{}, ContextAfter: []string{}}
	m.ByteRange = workspace.ByteRange{Start: int(node.Start), End: int(node.End)}
	m.Range, _ = mapper.OffsetRange(m.ByteRange.Start, m.ByteRange.End, s.enc)
	first, last := m.Range.Start.Line, mapper.Line(int(node.End))
	if s.text {
		m.Lines = string(t.Source[mapper.LineStart(first):mapper.LineEnd(last)])
	}
	for name, c := range env.Single {
		m.MetaVariables[name] = b.capture(c)
	}
	for name, cs := range env.Multi {
		list := make([]Capture, 0, len(cs))
		for _, c := range cs {
			list = append(list, b.capture(c))
		}
		m.MetaVariables[name] = list
	}
	for i := max(0, first-s.contextLines); i < first; i++ {
		m.ContextBefore = append(m.ContextBefore, string(t.Source[mapper.LineStart(i):mapper.LineEnd(i)]))
	}
	for i := last + 1; i <= last+s.contextLines && i < mapper.LineCount(); i++ {
		m.ContextAfter = append(m.ContextAfter, string(t.Source[mapper.LineStart(i):mapper.LineEnd(i)]))
	}
	return m
}

func (b *matchBuilder) capture(n int32) Capture {
	node := &b.tree.Nodes[n]
	c := Capture{Text: string(b.tree.Text(n)), ByteRange: workspace.ByteRange{Start: int(node.Start), End: int(node.End)}}
	c.Range, _ = b.mapper.OffsetRange(c.ByteRange.Start, c.ByteRange.End, b.s.enc)
	return c
}
