// Package engine is what every engine of structls — regex search (grep),
// structural search (astgrep), rewrite previews (rewrite), X-Ray (xray),
// rules (rules), outlines (outline) — is handed besides its query, and the
// start each makes of a query: one Env, the same for every engine, and one
// Start that checks the query, resolves its paths and begins the query in
// the parse cache, so that no engine repeats that skeleton by hand.
//
// It sits above parsecache (the Env carries the parse cache, and
// parsecache imports workspace and syntax) and below the engines, which
// import it; it knows no language and no command. It cannot live in
// workspace, which knows nothing of trees, and is not parsecache itself,
// which is the cache as background parsing shares it too, whatever asks.
package engine

import (
	"fmt"

	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/workspace"
)

// Env is what an engine is handed with its query: the snapshot of the
// workspace it reads, the encoding its positions are in, where it reports
// progress, and the parse cache (parsecache.Trees). The server hands its
// own Trees, kept between queries; a one-shot command, or an engine that
// parses nothing (grep), the zero Trees, which keeps nothing.
//
// The batches a streaming engine emits are of its own type, so they are an
// argument of its SearchStream, not part of the Env. The parse budget (how
// many source bytes parse at once) travels in the context
// (syntax.WithParseOptions), which the server sets once for all its work.
type Env struct {
	Snapshot *workspace.Snapshot
	Encoding workspace.Encoding
	Progress workspace.ProgressFunc // nil: no progress is reported
	Trees    parsecache.Trees
}

// Paths says what the entries of a query's paths may be: files,
// directories, globs and URIs, or those and line ranges too
// (workspace.Snapshot.ResolvePaths).
type Paths bool

const (
	// PlainPaths are files, directories, globs and URIs.
	PlainPaths Paths = false
	// LineRanges allows `a.go:10-20` too: the engines that search lines.
	LineRanges Paths = true
)

// Request is a query the engine may run: its Env, the targets its paths
// name (and those that do not exist), and the walking rules of its scope.
type Request struct {
	Env
	workspace.Resolved
	Walk workspace.WalkOptions
}

// Start is the start of every engine's query: validate checks the query's
// own fields and returns its settings; then the scope's globs are checked
// and its paths resolved (confined to the workspace folders), and the parse
// cache is told a query begins (syntax.Cache.StartQuery). An error is input
// the user must fix (*workspace.InputError, *workspace.PathError).
func Start[S any](env Env, scope workspace.Scope, paths Paths, validate func() (S, error)) (S, *Request, error) {
	set, err := validate()
	if err == nil {
		err = workspace.ValidateGlobs(scope.Globs)
	}
	if err != nil {
		return set, nil, err
	}
	resolved, err := env.Snapshot.ResolvePaths(scope.Paths, bool(paths))
	if err != nil {
		return set, nil, err
	}
	env.Trees.Cache.StartQuery()
	walk := scope.WalkOptions()
	walk.Skipped = new(workspace.SkippedDirs)
	return set, &Request{Env: env, Resolved: resolved, Walk: walk}, nil
}

// SkippedWarnings are the warnings about the directories the query's walk
// could not list (workspace.SkippedDirs): every engine adds them to its
// result once it has walked, so that no part of the tree is missed silently.
func (r *Request) SkippedWarnings() []string { return r.Walk.Skipped.Warnings() }

// MissingWarnings are the warnings of the engines that report the entries
// of paths that do not exist among their warnings: one a path.
func (r *Request) MissingWarnings() []string {
	var out []string
	for _, m := range r.Missing {
		out = append(out, fmt.Sprintf("path not found: %s (paths are relative to the first workspace folder)", m))
	}
	return out
}

// MissingPaths are the entries of paths that do not exist, as the user
// wrote them: never nil, since replies list them as an array.
func (r *Request) MissingPaths() []string {
	return append([]string{}, r.Missing...)
}
