package grep

import (
	"regexp"
	"strings"

	"github.com/structls/structls/workspace"
)

// Engine is the regex implementation the scanner drives; *regexp.Regexp
// satisfies it. It must be safe for concurrent use.
type Engine interface {
	FindIndex(b []byte) []int
	FindAllIndex(b []byte, n int) [][]int
}

// matcher is a compiled query: the engine plus what the scanner needs to
// know about it.
type matcher struct {
	engine    Engine
	multiline bool      // matches may cross lines; otherwise each line is matched alone
	filter    prefilter // literals every match contains
}

// compile builds the matcher of a query. Like the seed search tool it is
// lenient: braces that cannot be a repetition are taken literally, and a
// pattern with unbalanced parentheses is retried with them escaped.
// maxPatternBytes bounds a search pattern's text.
const maxPatternBytes = 1 << 20

func compile(q Query, multilineForce *bool) (*matcher, error) {
	pattern := strings.TrimSpace(q.Pattern)
	if pattern == "" {
		return nil, invalidf("pattern must not be empty")
	}
	if len(pattern) > maxPatternBytes {
		return nil, invalidf("the pattern is %d bytes, over the %d MiB a pattern may have (a 15 MB one took a minute to refuse): search for a shorter one", len(pattern), maxPatternBytes>>20)
	}
	multiline := strings.Contains(pattern, "\n") || strings.Contains(pattern, `\n`)
	if multilineForce != nil {
		multiline = *multilineForce
	}
	if q.Literal {
		pattern = regexp.QuoteMeta(pattern)
	} else {
		pattern = escapeStrayBraces(pattern)
	}
	flags := "(?m)"
	if q.IgnoreCase {
		flags = "(?mi)"
	}
	re, err := regexp.Compile(flags + pattern)
	if err != nil && (strings.Contains(err.Error(), "missing closing )") || strings.Contains(err.Error(), "unexpected )")) {
		re, err = regexp.Compile(flags + escapeParens(pattern))
	}
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, invalidf("invalid regex: %s (the syntax is RE2: no lookaround or backreferences; use %s to search the text as is)", msg,
			workspace.Setting{Field: "literal", Value: "true"})
	}
	return &matcher{engine: re, multiline: multiline, filter: extractPrefilter(re.String())}, nil
}

// escapeStrayBraces escapes every '{' that does not open a repetition
// ({n}, {n,}, {n,m}) and is not the argument of \p, \P, \x; and every '}'
// that closes nothing. "${platform}" becomes "$\{platform\}".
func escapeStrayBraces(p string) string {
	var b strings.Builder
	open := false // inside a repetition or escape argument
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b.WriteByte(c)
			b.WriteByte(p[i+1])
			if strings.IndexByte("pPx", p[i+1]) >= 0 && i+2 < len(p) && p[i+2] == '{' {
				b.WriteByte('{')
				i += 2
				open = true
				continue
			}
			i++
		case c == '{' && !open && isRepetition(p[i:]):
			b.WriteByte(c)
			open = true
		case c == '{' && !open:
			b.WriteString(`\{`)
		case c == '}' && open:
			b.WriteByte(c)
			open = false
		case c == '}':
			b.WriteString(`\}`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isRepetition reports whether s starts with {n}, {n,} or {n,m}.
func isRepetition(s string) bool {
	end := strings.IndexByte(s, '}')
	if end < 0 {
		return false
	}
	lo, hi, comma := strings.Cut(s[1:end], ",")
	return lo != "" && isDigits(lo) && (!comma || hi == "" || isDigits(hi))
}

func isDigits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// escapeParens escapes every unescaped parenthesis outside a character class.
func escapeParens(p string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			b.WriteByte(c)
			b.WriteByte(p[i+1])
			i++
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == ']':
			inClass = false
			b.WriteByte(c)
		case (c == '(' || c == ')') && !inClass:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
