package syntax

import (
	"context"
	"errors"
	"fmt"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
)

// ErrCancelled is returned by Parse when its context ended mid-parse.
var ErrCancelled = errors.New("parse cancelled")

// errorSymbol is tree-sitter's kind id of ERROR nodes (ts_builtin_sym_error).
const errorSymbol = 0xFFFF

// parsers pools tree-sitter parsers per language: a parser is not safe for
// concurrent use, and creating one per file is wasteful.
var parsers sync.Map // *sitter.Language → *sync.Pool

func parserFor(lang *sitter.Language) (*sitter.Parser, error) {
	pool, _ := parsers.LoadOrStore(lang, &sync.Pool{})
	if p, ok := pool.(*sync.Pool).Get().(*sitter.Parser); ok {
		return p, nil
	}
	p := sitter.NewParser()
	if err := p.SetLanguage(lang); err != nil {
		p.Close()
		return nil, fmt.Errorf("loading the grammar: %w", err)
	}
	return p, nil
}

func releaseParser(lang *sitter.Language, p *sitter.Parser) {
	pool, _ := parsers.Load(lang)
	pool.(*sync.Pool).Put(p)
}

// Parse parses source and returns its flat tree. A cancelled ctx stops the
// parse (tree-sitter checks it as it goes) with ErrCancelled.
func Parse(ctx context.Context, lang *sitter.Language, source []byte) (*Tree, error) {
	p, err := parserFor(lang)
	if err != nil {
		return nil, err
	}
	defer releaseParser(lang, p)
	read := func(offset int, _ sitter.Point) []byte {
		if offset >= len(source) {
			return nil
		}
		return source[offset:]
	}
	opts := &sitter.ParseOptions{ProgressCallback: func(sitter.ParseState) bool { return ctx.Err() != nil }}
	tree := p.ParseWithOptions(read, nil, opts)
	if tree == nil {
		p.Reset()
		if ctx.Err() != nil {
			return nil, ErrCancelled
		}
		return nil, errors.New("tree-sitter returned no tree")
	}
	defer tree.Close()
	return &Tree{Lang: lang, Source: source, Nodes: flatten(tree, len(source)/3), kinds: kindsOf(lang)}, nil
}
