package outline

import "sort"

// Spec is one language's outline extractor: its rules, as data.
type Spec struct {
	Rules []Rule
}

// specs maps catalogue language names to their extractors. A language of
// the catalogue missing here has no symbol notion (see the README).
var specs = map[string]*Spec{}

// register adds a language's table; the lang_*.go files call it from init.
func register(names []string, spec *Spec) {
	for _, n := range names {
		specs[n] = spec
	}
}

// SpecFor returns the extractor of a catalogue language, or nil when the
// language has no symbol notion (a data format, a diff).
func SpecFor(language string) *Spec { return specs[language] }

// Languages returns the names of the languages with an outline, sorted.
func Languages() []string {
	out := make([]string, 0, len(specs))
	for n := range specs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
