package xray

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"go.starlark.net/starlark"

	"github.com/structls/structls/grep"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// fileResult is what one candidate file contributes to the result.
type fileResult struct {
	matches  []Match
	errors   []EvaluationError
	metadata []FileMetadata
	size     int // about the bytes of its JSON (matchSize, errorSize)
}

// file evaluates one candidate. Every failure becomes an EvaluationError:
// no file stops the run. A panic in the evaluation is one too, so a bug
// cannot take the server down. The file is read into *buf, the worker's
// buffer, kept for its next file: nothing of this file (the evaluator's
// strings and the results are copies) outlives its evaluation.
func (e *evaluation) file(ctx context.Context, c candidate, scratch *syntax.Scratch, buf *[]byte) (r *fileResult) {
	fail := func(kind ErrorType, msg string) *fileResult {
		if len(msg) > maxErrorMessage { // fail("x" * 10000000) says so in 10 MB
			msg = strings.ToValidUTF8(msg[:maxErrorMessage], "") + "…"
		}
		r := &fileResult{errors: []EvaluationError{{Path: c.file.Rel, URI: c.file.URI(), ErrorType: kind, ErrorMessage: msg}}}
		r.size = errorSize(&r.errors[0])
		return r
	}
	defer func() {
		if p := recover(); p != nil {
			r = fail(EvaluatorCrash, fmt.Sprintf("internal error while evaluating this file: %v (please report it)", p))
		}
	}()
	l := lang.ForPath(c.file.Rel)
	if l == nil || l.Grammar() == nil {
		return fail(UnsupportedLanguage, noGrammar(c.file.Rel))
	}
	text, err := e.trees.Read(e.snap, c.file, l.Grammar(), buf) // unread when the server has its tree (parsecache.Trees.Read)
	if err != nil {
		return fail(ReadError, readFailure(err))
	}
	tree := text.Tree
	if tree == nil {
		tree, err = e.trees.Cache.ParseWith(ctx, l.Grammar(), text.Content, nil, nil, scratch) // nothing of it outlives the evaluation
		if err != nil {
			return fail(ReadError, fmt.Sprintf("cannot parse it as %s: %v", l.Name, err))
		}
		e.trees.Remember(c.file, text, l.Grammar())
	}
	if len(tree.Nodes) == 0 {
		return fail(ReadError, "the parser returned no tree for it")
	}
	// The file's time limit covers building its globals and evaluating.
	fileCtx, stop := context.WithTimeoutCause(ctx, e.fileTimeout, errFileTimeout)
	defer stop()
	root := &Node{tree: tree, index: 0, budget: &budget{limits: e.ev.limits}}
	positions, err := matchPositions(fileCtx, root, c.hits)
	if err != nil {
		if fileTimedOut(fileCtx) {
			return fail(EvaluatorTimeout, fmt.Sprintf("building match_positions of %d driver hits took longer than the %d ms per-file limit (fileTimeoutMs): narrow the driver, or raise fileTimeoutMs",
				len(c.hits), e.fileTimeout.Milliseconds()))
		}
		return &fileResult{} // the run stopped: this file is not delivered
	}
	in := fileInput{root: root, source: string(tree.Source), lang: l.Name, path: c.file.Rel, positions: positions}
	value, failure := e.ev.run(fileCtx, in, e.fileTimeout, e.prints)
	var out *outcome
	if failure == nil {
		out, failure = checkReturn(value)
	}
	if failure != nil {
		return fail(failure.kind, failure.msg)
	}
	if out == nil {
		return &fileResult{} // skip
	}
	r = e.results(c.file, l.Name, tree, out)
	if r.size > MaxFileOutputBytes {
		return fail(InvalidEvaluatorReturn, fmt.Sprintf("the %d matches of this file would output more than the %d MiB a file may (each match repeats its line's content: a very long line?); return fewer matches",
			len(out.matches), MaxFileOutputBytes>>20))
	}
	return r
}

// maxErrorMessage caps the message of an evaluation error.
const maxErrorMessage = 4 << 10

// noGrammar is code-indexer's UnsupportedLanguage message.
func noGrammar(rel string) string {
	if ext := path.Ext(rel); ext != "" {
		return fmt.Sprintf("No grammar for extension '%s' (structls infers the language from the file name; structls languages lists them)", ext)
	}
	return fmt.Sprintf("No grammar for file '%s': it has no extension structls knows", path.Base(rel))
}

// readFailure says why a file could not be read.
func readFailure(err error) string {
	switch {
	case errors.Is(err, workspace.ErrTooLarge):
		return fmt.Sprintf("%v (raise the maxFileSize setting to evaluate it)", err)
	case errors.Is(err, workspace.ErrBinary):
		return "it holds a NUL byte, so it is taken as binary and not parsed"
	}
	return fmt.Sprintf("cannot read it: %v (check that it exists and is readable)", err)
}

// results turns a checked outcome into the file's matches and metadata.
// Matches on one line share its range and content (a line often holds
// several calls): they are computed once per line.
func (e *evaluation) results(f workspace.File, language string, tree *syntax.Tree, out *outcome) *fileResult {
	r := &fileResult{matches: make([]Match, 0, len(out.matches))}
	source := tree.Source
	mapper := workspace.NewMapper(source)
	lines := 0 // the mapper's line table is made only for a file with matches
	if len(out.matches) > 0 {
		lines = mapper.LineCount()
	}
	uri := f.URI()
	line := lineInfo{number: -1}
	size := out.valueSize
	for _, m := range out.matches {
		if size > MaxFileOutputBytes {
			break // too much to output: the caller refuses the file (it needs only the size)
		}
		match := Match{Path: f.Rel, URI: uri, Language: language, LineNumber: m.line, Fields: m.fields}
		if m.line >= 1 && m.line <= lines {
			if m.line != line.number {
				line = e.lineOf(mapper, source, m.line)
			}
			match.Range, match.LineContent = line.rng, line.content
		}
		if m.lineContent != nil {
			match.LineContent = *m.lineContent
		}
		if e.debugNodes > 0 {
			match.Ast = kindTree(tree, mapper, e.enc, lineSubject(tree, mapper, m.line), e.debugNodes)
			size += astSize * e.debugNodes
		}
		size += matchSize(&match) + m.size
		r.matches = append(r.matches, match)
	}
	if out.value != nil || out.hasRole {
		r.metadata = []FileMetadata{{Path: f.Rel, URI: uri, Value: out.value, FileRole: out.fileRole}}
	}
	r.size = size
	return r
}

// lineInfo is what the matches on one line share.
type lineInfo struct {
	number  int              // 1-based
	rng     *workspace.Range // the line without its end of line; nil when it cannot be mapped
	content string
}

// lineOf returns what the matches on line number (1-based) of source share.
func (e *evaluation) lineOf(mapper *workspace.Mapper, source []byte, number int) lineInfo {
	start := mapper.LineStart(number - 1)
	end := lineEnd(source, start)
	info := lineInfo{number: number, content: validText(source[start:end])}
	if endPos, err := mapper.OffsetPosition(end, e.enc); err == nil {
		// A line starts at its character 0 in every encoding (after a BOM
		// on the first: the mapper's line 0 starts past it).
		info.rng = &workspace.Range{Start: workspace.Position{Line: number - 1}, End: endPos}
	}
	return info
}

// validText is b as a string, each invalid UTF-8 sequence replaced by
// U+FFFD (what JSON strings hold). Checking first is the fast way: nearly
// all source text is valid.
func validText(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// lineEnd is the end of the line starting at start, without its "\n" or "\r\n".
func lineEnd(source []byte, start int) int {
	end := len(source)
	if i := bytes.IndexByte(source[start:], '\n'); i >= 0 {
		end = start + i
	}
	if end > start && source[end-1] == '\r' {
		end--
	}
	return end
}

// matchPositions builds the match_positions global from the driver's hits:
// one per matching line, at its first submatch. The hits come in file
// order, so one pass over the source and the tree serves them all (see
// nodeFinder): a file with 100,000 hits costs about what one with a few
// does per hit. It stops, with ctx's error, when ctx ends.
func matchPositions(ctx context.Context, root *Node, hits []grep.Match) (*starlark.List, error) {
	source := root.tree.Source
	out := make([]starlark.Value, 0, len(hits))
	nodes := newNodeFinder(root.tree, 0)
	line := struct {
		start, end int // the line holding the last hit, without its end of line
		content    starlark.Value
	}{start: -1}
	for i, h := range hits {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		offset := h.Submatches[0].ByteRange.Start
		if offset > len(source) {
			continue // the file changed since the driver read it
		}
		if line.start < 0 || offset < line.start || offset > line.end {
			// Another line: its start follows the last "\n" before offset,
			// looked for after the last hit's line when the hits go forward.
			from, start := 0, 0
			if line.start >= 0 && offset > line.end {
				from, start = line.end, line.start
			}
			if nl := bytes.LastIndexByte(source[from:offset], '\n'); nl >= 0 {
				start = from + nl + 1
			}
			if start != line.start {
				line.start, line.end = start, lineEnd(source, start)
				line.content = starlark.String(source[line.start:line.end])
			}
		}
		d := starlark.NewDict(8)
		set := func(k string, v starlark.Value) { _ = d.SetKey(starlark.String(k), v) }
		set("line_number", starlark.MakeInt(h.LineNumber))
		set("line_content", line.content)
		set("column", starlark.MakeInt(offset-line.start+1))
		set("byte_offset", starlark.MakeInt(offset))
		set("line_start_byte", starlark.MakeInt(line.start))
		set("context_before", contextList(h.ContextBefore))
		set("context_after", contextList(h.ContextAfter))
		set("ast_node", root.orNone(nodes.find(offset)))
		out = append(out, d)
	}
	return starlark.NewList(out), nil
}

func contextList(lines []grep.ContextLine) *starlark.List {
	out := make([]starlark.Value, len(lines))
	for i, l := range lines {
		out[i] = starlark.String(l.Text)
	}
	return starlark.NewList(out)
}
