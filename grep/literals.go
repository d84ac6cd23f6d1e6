package grep

// Literals is a necessary condition for a match of a regular expression,
// read off the expression (the prefilter search uses before running a
// regex over a file): text that fails MayMatch holds no match. Other
// engines use it to skip a regex on text that cannot match.
type Literals struct{ p prefilter }

// RequiredLiterals returns the condition of expr (RE2 syntax, as
// regexp.Compile takes it). An expression that does not parse, or that
// folds case anywhere, has no condition: MayMatch is always true.
func RequiredLiterals(expr string) Literals {
	p := extractPrefilter(expr)
	if p.fold {
		return Literals{}
	}
	return Literals{p: p}
}

// Empty reports whether there is no condition: every text may match.
func (l Literals) Empty() bool { return len(l.p.clauses) == 0 }

// MayMatch reports whether text holds, for every clause, one of its
// literals: false means the expression matches nowhere in text.
func (l Literals) MayMatch(text []byte) bool { return l.p.fileMayMatch(text) }
