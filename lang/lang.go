// Package lang is the language catalogue: each language's canonical name,
// aliases, file names and extensions, expando character and tree-sitter
// grammar. The grammars themselves are linked in by package
// lang/grammars (imported by the commands), so that packages and
// tests that need only one or two grammars stay small and quick to build.
package lang

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"unsafe"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"
)

// Language is one entry of the catalogue.
type Language struct {
	Name       string   // canonical name, as ast-grep spells it where it has the language
	Aliases    []string // other names accepted for `lang` (lower case)
	Extensions []string // file extensions without the dot (case-sensitive)
	FileNames  []string // whole file names (Makefile, Dockerfile, …)
	// Expando replaces "$" in patterns before parsing, for grammars whose
	// identifiers cannot contain "$" (ast-grep's expando_char); 0 keeps "$".
	Expando rune

	once    sync.Once
	grammar *sitter.Language
	load    func() unsafe.Pointer
}

// Grammar returns the tree-sitter grammar, or nil when it is not linked in.
func (l *Language) Grammar() *sitter.Language {
	l.once.Do(func() {
		if l.load != nil {
			l.grammar = sitter.NewLanguage(l.load())
		}
	})
	return l.grammar
}

// MetaChar is the character that marks metavariables in a parsed pattern.
func (l *Language) MetaChar() rune {
	if l.Expando != 0 {
		return l.Expando
	}
	return '$'
}

var (
	mu     sync.RWMutex
	byName = map[string]*Language{}
)

func init() {
	for _, l := range catalogue {
		for _, n := range append([]string{l.Name}, l.Aliases...) {
			byName[n] = l
		}
	}
}

// Register links a grammar into the catalogue entry name.
func Register(name string, load func() unsafe.Pointer) {
	mu.Lock()
	defer mu.Unlock()
	l, ok := byName[name]
	if !ok {
		panic("lang.Register: no catalogue entry " + name)
	}
	l.load = load
}

// Lookup finds a language by canonical name or alias, case-insensitively.
func Lookup(name string) (*Language, error) {
	mu.RLock()
	defer mu.RUnlock()
	if l, ok := byName[strings.ToLower(strings.TrimSpace(name))]; ok {
		return l, nil
	}
	return nil, unknownLanguageError(name)
}

// ForPath infers the language of a file from its name, then its extension;
// nil when none fits.
func ForPath(path string) *Language {
	base := filepath.Base(path)
	for _, l := range catalogue {
		for _, f := range l.FileNames {
			if base == f || (strings.HasSuffix(f, ".") && strings.HasPrefix(base, f)) {
				return l
			}
		}
	}
	ext := strings.TrimPrefix(filepath.Ext(base), ".")
	if ext == "" {
		return nil
	}
	for _, l := range catalogue {
		if slices.Contains(l.Extensions, ext) {
			return l
		}
	}
	return nil
}

// All returns the catalogue, in canonical-name order.
func All() []*Language {
	out := slices.Clone(catalogue)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Names returns the canonical names, sorted.
func Names() []string {
	var names []string
	for _, l := range All() {
		names = append(names, l.Name)
	}
	return names
}
