package workspace

// Scope is the part of every command's request that says which files it
// works on: the same fields, with the same defaults, in each engine's query,
// which embeds it (encoding/json promotes its fields: the wire format is
// that of the fields written out; docs/protocol.md).
type Scope struct {
	Paths     []string `json:"paths,omitempty"`     // files, directories, globs or URIs; none: every folder
	Globs     []string `json:"globs,omitempty"`     // include globs, and `!`-prefixed exclude globs
	Gitignore *bool    `json:"gitignore,omitempty"` // honour ignore files; default true
	Hidden    *bool    `json:"hidden,omitempty"`    // include dot files and directories; default true
}

// WalkOptions are the walking rules the scope asks for, with the defaults
// of every command: ignore files honoured, hidden files included.
func (s Scope) WalkOptions() WalkOptions {
	return WalkOptions{Globs: s.Globs, Gitignore: s.Gitignore == nil || *s.Gitignore, Hidden: s.Hidden == nil || *s.Hidden}
}
