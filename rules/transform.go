package rules

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// transform is one `transform` entry: a string variable computed from a
// metavariable (or another transform) after the match.
type transform struct {
	name   string
	source string // the variable read, without $
	multi  bool   // source was written $$$NAME
	op     string // replace, substring, convert or rewrite

	re *regexp.Regexp // replace
	by string

	startChar, endChar *int // substring

	toCase     string // convert
	separators []string

	rewriters []*rewriter // rewrite
	joinBy    *string
}

// maxTransformText caps the text the transforms of one match produce in
// all (a chain's values, rewriters' fixes): 30 chained `replace a → aa`
// would otherwise make 8 GB from an 8-byte capture.
const maxTransformText = 16 << 20

// errTransformTooLarge is the error of a transform past maxTransformText.
var errTransformTooLarge = fmt.Errorf("the transforms of this match produce more than %d MiB of text: narrow the regex, the rewriters or the captured variable", maxTransformText>>20)

// chargeTransform counts n bytes of transform output against the
// finding's maxTransformText.
func (s *state) chargeTransform(n int) error {
	if s.transformText += n; s.transformText > maxTransformText {
		return errTransformTooLarge
	}
	return nil
}

// apply computes the transform's value.
func (t *transform) apply(x *expansion) (string, error) {
	text := x.variableText(t.source, t.multi)
	var out string
	var err error
	switch t.op {
	case "replace":
		out, err = boundedReplace(t.re, text, t.by, maxTransformText-x.s.transformText)
	case "substring":
		out = substring(text, t.startChar, t.endChar)
	case "convert":
		out = convertCase(text, t.toCase, t.separators)
	default:
		out, err = x.rewrite(t)
	}
	if err == nil {
		err = x.s.chargeTransform(len(out))
	}
	return out, err
}

// boundedReplace is re.ReplaceAllString(text, by), refused without being
// built when its result could pass limit bytes: each match expands to at
// most by's length plus, per $ reference, the longest match.
func boundedReplace(re *regexp.Regexp, text, by string, limit int) (string, error) {
	matches, matched, longest := 0, 0, 0
	re.ReplaceAllStringFunc(text, func(m string) string {
		matches++
		matched += len(m)
		longest = max(longest, len(m))
		return ""
	})
	refs := strings.Count(by, "$")
	bound := len(text) - matched + matches*(len(by)+refs*longest)
	if bound > limit {
		return "", errTransformTooLarge
	}
	return re.ReplaceAllString(text, by), nil
}

// substring cuts text by character indexes (negative ones count from the
// end), end exclusive, clamped.
func substring(text string, start, end *int) string {
	runes := []rune(text)
	n := len(runes)
	clamp := func(p *int, def int) int {
		if p == nil {
			return def
		}
		i := *p
		if i < 0 {
			i = max(0, n+i)
		}
		return min(i, n)
	}
	s, e := clamp(start, 0), clamp(end, n)
	if s >= e {
		return ""
	}
	return string(runes[s:e])
}

// caseSeparators are the separators convert splits words at by default.
var caseSeparators = []string{"caseChange", "dash", "dot", "slash", "space", "underscore"}

// convertCase is `convert`.
func convertCase(text, toCase string, separators []string) string {
	switch toCase {
	case "lowerCase":
		return strings.ToLower(text)
	case "upperCase":
		return strings.ToUpper(text)
	case "capitalize":
		r, size := utf8.DecodeRuneInString(text)
		if size == 0 {
			return text
		}
		return string(unicode.ToUpper(r)) + text[size:]
	}
	if separators == nil {
		separators = caseSeparators
	}
	words := splitWords(text, separators)
	for i, w := range words {
		switch toCase {
		case "camelCase":
			if i == 0 {
				words[i] = strings.ToLower(w)
			} else {
				words[i] = capitalizeWord(strings.ToLower(w))
			}
		case "snakeCase", "kebabCase":
			words[i] = strings.ToLower(w)
		case "pascalCase":
			words[i] = capitalizeWord(w)
		}
	}
	switch toCase {
	case "snakeCase":
		return strings.Join(words, "_")
	case "kebabCase":
		return strings.Join(words, "-")
	}
	return strings.Join(words, "")
}

func capitalizeWord(w string) string {
	r, size := utf8.DecodeRuneInString(w)
	if size == 0 {
		return w
	}
	return string(unicode.ToUpper(r)) + w[size:]
}

// splitWords splits at the listed separators; a case change splits before
// an upper-case letter following a lower-case one, and before the last
// capital of a run of capitals followed by a lower-case letter.
func splitWords(text string, separators []string) []string {
	sepChars := map[rune]bool{}
	caseChange := false
	for _, s := range separators {
		switch s {
		case "caseChange":
			caseChange = true
		case "dash":
			sepChars['-'] = true
		case "dot":
			sepChars['.'] = true
		case "slash":
			sepChars['/'] = true
		case "space":
			sepChars[' '] = true
		case "underscore":
			sepChars['_'] = true
		}
	}
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, string(cur))
		}
		cur = nil
	}
	runes := []rune(text)
	for i, r := range runes {
		if sepChars[r] {
			flush()
			continue
		}
		if caseChange && i > 0 && unicode.IsUpper(r) && len(cur) > 0 {
			prev := runes[i-1]
			nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1])
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}
