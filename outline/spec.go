package outline

import (
	"sort"
	"sync"

	sitter "github.com/structls/structls/third_party/go-tree-sitter"

	"github.com/structls/structls/syntax"
)

// Spec is one language's outline extractor: its rules, as data.
type Spec struct {
	Rules []Rule
	// Opaque names the kinds inside which no rule ever looks (Go's function
	// bodies): a file parsed only for its outline is written out without
	// their insides (syntax.ParsePruned). TestOpaqueKindsChangeNothing holds
	// each language to it.
	Opaque []string
	// Skip, when set, appends to skip (pairs of byte offsets) text inside
	// Opaque kinds, found by a scan of the source much cheaper than its
	// parse (goBodies: Go's function bodies): a file parsed only for its
	// outline is parsed without it.
	Skip func(src []byte, skip []uint32) []uint32

	opaque   sync.Map  // *sitter.Language → syntax.KindSet of Opaque
	compiled sync.Once // Rules compiled (see SpecFor)
}

// opaqueKinds returns Opaque as a set of lang's kinds, or nil for none.
func (s *Spec) opaqueKinds(lang *sitter.Language) syntax.KindSet {
	if len(s.Opaque) == 0 {
		return nil
	}
	if set, ok := s.opaque.Load(lang); ok {
		return set.(syntax.KindSet)
	}
	set, _ := s.opaque.LoadOrStore(lang, syntax.NewKindSet(lang, s.Opaque...))
	return set.(syntax.KindSet)
}

// specs maps catalogue language names to their extractors. A language of
// the catalogue missing here has no symbol notion (see docs/cli.md). It is
// filled on first use (allSpecs) by the definitions the lang_*.go files
// give: building every table at start-up took 2 ms and 365 KB of a
// process's 20 ms, paid by every command (a search, an astgrep run) that
// outlines nothing.
var (
	specs       = map[string]*Spec{}
	definitions []func() // each registers one file's tables
	specsOnce   sync.Once
)

// define adds a file's table definitions; the lang_*.go files call it in a
// package-level declaration (var _ = define(…)), and register from it.
func define(f func()) bool {
	definitions = append(definitions, f)
	return true
}

// allSpecs returns specs, filled.
func allSpecs() map[string]*Spec {
	specsOnce.Do(func() {
		for _, f := range definitions {
			f()
		}
	})
	return specs
}

// register adds a language's table; the definitions call it. Its rules are
// compiled on first use (SpecFor), as most processes outline one language.
func register(names []string, spec *Spec) {
	for _, n := range names {
		specs[n] = spec
	}
}

// SpecFor returns the extractor of a catalogue language, its rules
// compiled, or nil when the language has no symbol notion (a data format, a
// diff).
func SpecFor(language string) *Spec {
	spec := allSpecs()[language]
	if spec != nil {
		spec.compiled.Do(func() { compileRules(spec.Rules) })
	}
	return spec
}

// Languages returns the names of the languages with an outline, sorted.
func Languages() []string {
	all := allSpecs()
	out := make([]string, 0, len(all))
	for n := range all {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
