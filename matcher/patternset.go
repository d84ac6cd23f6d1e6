package matcher

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/structls/structls/lang"
)

// PatternSet is one pattern source compiled lazily for each language met,
// once per language: the astGrep search and the rewrite engine share it, so
// a pattern means the same thing to both (including the ambiguity retries
// and their warnings).
type PatternSet struct {
	source string
	opts   Options
	// skipUnparsed: the user named no language, so one in which the pattern
	// does not parse is skipped rather than searched as parsed (langselect.go).
	skipUnparsed bool

	mu       sync.Mutex
	compiled map[*lang.Language]*compiled
}

type compiled struct {
	once    sync.Once
	pattern *Pattern
	err     error
	warning string
	skipped bool // the pattern does not parse in this language, which was not named
}

// errSkipped is Get's error for a language skipped by SkipUnparsed.
var errSkipped = errors.New("the pattern does not parse in this language")

// SkipUnparsed makes Get skip, from now on, the languages in which the
// pattern does not parse; Skipped names them. For searches where the user
// named no language.
func (s *PatternSet) SkipUnparsed() { s.skipUnparsed = true }

// NewPatternSet returns the set for a pattern source and its options;
// nothing is compiled until Get asks for a language.
func NewPatternSet(source string, opts Options) *PatternSet {
	return &PatternSet{source: source, opts: opts, compiled: map[*lang.Language]*compiled{}}
}

// Get returns the pattern compiled for l, compiling it on first use; the
// error says why the pattern does not compile in l. Safe for concurrent use.
func (s *PatternSet) Get(ctx context.Context, l *lang.Language) (*Pattern, error) {
	s.mu.Lock()
	c, ok := s.compiled[l]
	if !ok {
		c = &compiled{}
		s.compiled[l] = c
	}
	s.mu.Unlock()
	c.once.Do(func() {
		c.pattern, c.warning, c.err = compileIntended(ctx, l, s.source, s.opts)
		if s.skipUnparsed && c.err == nil && c.pattern.unparsedIn(s.opts) != "" {
			c.pattern, c.warning, c.err, c.skipped = nil, "", errSkipped, true
		}
	})
	return c.pattern, c.err
}

func (s *PatternSet) each(fn func(l *lang.Language, c *compiled)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	langs := make([]*lang.Language, 0, len(s.compiled))
	for l := range s.compiled {
		langs = append(langs, l)
	}
	slices.SortFunc(langs, func(a, b *lang.Language) int { return strings.Compare(a.Name, b.Name) })
	for _, l := range langs {
		fn(l, s.compiled[l])
	}
}

// CompiledAny counts the languages, among those asked for so far, that the
// pattern compiled in.
func (s *PatternSet) CompiledAny() int {
	n := 0
	s.each(func(_ *lang.Language, c *compiled) {
		if c.err == nil {
			n++
		}
	})
	return n
}

// ParseIssue is a file with syntax errors (searched anyway) or a language
// the pattern does not compile in.
type ParseIssue struct {
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

// TooLargeIssue is the issue of a file skipped because it is over the
// maxFileSize setting (err says by how much); doing is what the command
// would have done to it ("search", "rewrite").
func TooLargeIssue(path string, err error, doing string) *ParseIssue {
	return &ParseIssue{Path: path, Message: fmt.Sprintf("skipped: %v (raise the maxFileSize setting to %s it)", err, doing)}
}

// Failures lists the languages, among those asked for so far, that the
// pattern does not compile in, sorted by language name; never nil.
func (s *PatternSet) Failures() []ParseIssue {
	out := []ParseIssue{}
	s.each(func(l *lang.Language, c *compiled) {
		if c.err != nil && !c.skipped {
			out = append(out, ParseIssue{Message: fmt.Sprintf("the pattern does not parse as %s: %v", l.Name, c.err)})
		}
	})
	return out
}

// Searched and Skipped name the languages, among those asked for so far,
// that the pattern compiled in, and those skipped by SkipUnparsed.
func (s *PatternSet) Searched() []string {
	return s.names(func(c *compiled) bool { return c.err == nil })
}
func (s *PatternSet) Skipped() []string { return s.names(func(c *compiled) bool { return c.skipped }) }

func (s *PatternSet) names(keep func(*compiled) bool) []string {
	var out []string
	s.each(func(l *lang.Language, c *compiled) {
		if keep(c) {
			out = append(out, l.Name)
		}
	})
	return out
}

// Warnings lists what the user should know about how the pattern was
// compiled in the languages asked for so far (e.g. searched as the intended
// node rather than what it parses into), sorted by language name; never nil.
func (s *PatternSet) Warnings() []string {
	out := []string{}
	s.each(func(_ *lang.Language, c *compiled) {
		if c.warning != "" {
			out = append(out, c.warning)
		}
	})
	return out
}

// ambiguity is a pattern that a grammar parses, as a whole document, into
// something other than what the user means, and a context that yields the
// intended node (structls's improvement over ast-grep, which silently finds
// nothing: its issue #646). See docs/ast-grep-differences.md.
type ambiguity struct {
	rootKind string // the kind the pattern parses into, "ERROR" for a parse error
	context  string // a document holding the pattern at %s
	want     string // the kind of the intended node
}

var ambiguities = map[string][]ambiguity{
	"go": {
		{"type_conversion_expression", "package p\nfunc _() {\n%s\n}\n", "call_expression"},
		{"ERROR", "package p\nfunc _() {\n%s\n}\n", ""},
	},
	"c": {
		{"macro_type_specifier", "void _(void) {\n%s;\n}\n", "call_expression"},
		{"ERROR", "void _(void) {\n%s\n}\n", ""},
	},
	"cpp": {
		{"macro_type_specifier", "void _() {\n%s;\n}\n", "call_expression"},
		{"ERROR", "void _() {\n%s\n}\n", ""},
	},
}

// compileIntended compiles the pattern; when it parses into a known
// ambiguous construct or an error, and the user did not pick a selector or a
// strictness, it is compiled again inside a context that yields the intended
// node, with a warning saying so. A pattern that still holds a syntax error
// is searched as parsed, as ast-grep does, with a warning saying where the
// error is and how to write the pattern instead.
func compileIntended(ctx context.Context, l *lang.Language, source string, opts Options) (*Pattern, string, error) {
	p, err := Compile(ctx, l, source, opts)
	if retry, warning := retryAmbiguous(ctx, l, source, opts, p, err); retry != nil {
		return retry, warning, nil
	}
	if err == nil && p.syntaxProblem != nil {
		return p, p.syntaxProblem.warning(l.Name), nil
	}
	return p, "", err
}

// retryAmbiguous compiles the pattern in the context that yields the
// intended node, when the first compile gave a known ambiguous construct or
// an error and neither a selector nor a strictness was picked; nil when it
// does not apply or does not help.
func retryAmbiguous(ctx context.Context, l *lang.Language, source string, opts Options, p *Pattern, err error) (*Pattern, string) {
	if opts.Selector != "" || opts.Strictness != Smart || errors.Is(err, ErrEllipsisRoot) || errors.Is(err, ErrEmptyPattern) {
		return nil, ""
	}
	kind := "ERROR"
	if err == nil && !p.HasError {
		kind = p.rootKind()
	}
	for _, a := range ambiguities[l.Name] {
		if a.rootKind != kind {
			continue
		}
		retry, rerr := compileInContext(ctx, l, source, a.context, a.want, opts)
		if rerr != nil || retry.HasError {
			continue
		}
		return retry, fmt.Sprintf("in %s the pattern parses as %s, which matches nothing in code; it was searched as a %s "+
			"(the pattern placed inside a function body); pass a selector or a strictness to opt out", l.Name, describe(kind), retry.rootKind())
	}
	return nil, ""
}

func describe(kind string) string {
	if kind == "ERROR" {
		return "a syntax error"
	}
	return "a " + kind
}
