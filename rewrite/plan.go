package rewrite

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/workspace"
)

// Plan is a previewed edit: the wire preview, and for each file what the
// preview saw (the open document's version, a hash of the text) and the new
// text. A plan is immutable; Check (and package atomicwrite, which writes
// plans) compares it with a later snapshot so that it is never applied onto
// text that changed since.
type Plan struct {
	result  *Result
	files   []PlannedFile
	created time.Time
	size    int64 // bytes held, for the Store's budget
}

// PlannedFile is one file of a plan: where it is, what the preview saw, and
// its new text.
type PlannedFile struct {
	Folder  int    // index into the snapshot's folders
	Root    string // that folder's real path, to notice the folders changed
	Rel     string // as in the preview
	URI     string
	Abs     string            // symlink-free absolute path: what atomicwrite.WriteFiles writes
	DocPath string            // the path open documents are keyed by
	Version *int32            // the open document's version at preview time, nil for a file read from disk
	Hash    [sha256.Size]byte // of the text the preview saw
	Content []byte            // the new text
}

// planSummary is what a preview reports besides the files.
type planSummary struct {
	searched     int
	parseErrors  []matcher.ParseIssue
	warnings     []string
	limitReached bool
	text         bool
}

func newPlan(files []*fileEdits, sum planSummary) *Plan {
	res := &Result{ID: newID(), Files: []FileEdit{}, FilesSearched: sum.searched, ParseErrors: sum.parseErrors,
		Warnings: sum.warnings, LimitReached: sum.limitReached}
	p := &Plan{result: res, created: time.Now()}
	for _, fe := range files {
		uri := fe.file.URI()
		res.Files = append(res.Files, FileEdit{Path: fe.file.Rel, URI: uri, Version: fe.version, Replacements: fe.replacements})
		res.TotalReplacements += len(fe.replacements)
		res.Skipped += fe.skipped
		p.files = append(p.files, PlannedFile{Folder: fe.file.Folder, Root: fe.root, Rel: fe.file.Rel, URI: uri, Abs: fe.file.Abs, DocPath: fe.docPath,
			Version: fe.version, Hash: fe.hash, Content: fe.content})
		p.size += int64(len(fe.content))
		for _, r := range fe.replacements {
			p.size += int64(len(r.Before) + len(r.After))
		}
	}
	res.FilesTouched = len(res.Files)
	if res.TotalReplacements > 0 {
		res.Fingerprint = fingerprint(files)
	}
	if sum.text {
		res.Text = renderText(res, files)
	}
	p.size += int64(len(res.Text))
	return p
}

// newID returns a random preview id.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "edit-" + hex.EncodeToString(b[:])
}

// ID returns the preview's id.
func (p *Plan) ID() string { return p.result.ID }

// Result returns the wire preview (shared: do not modify it).
func (p *Plan) Result() *Result { return p.result }

// Files returns the plan's files in the preview's order (shared: do not
// modify them).
func (p *Plan) Files() []PlannedFile { return p.files }

// StaleFile is a file of a plan whose text changed since the preview.
type StaleFile struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// StaleError refuses to apply a plan some of whose files changed since the
// preview; nothing was written. The LSP layer answers it with
// ContentModified (-32801).
type StaleError struct{ Files []StaleFile }

func (e *StaleError) Error() string {
	parts := make([]string, len(e.Files))
	for i, f := range e.Files {
		parts[i] = fmt.Sprintf("%s (%s)", f.Path, f.Reason)
	}
	return fmt.Sprintf("the edit was not applied, nothing was written: %s changed since the preview: %s; preview the edit again",
		english.Count(len(e.Files), "file", "files"), strings.Join(parts, ", "))
}

// Check compares every file of the plan with the snapshot — an open
// document by its version (and text), a file on disk by the hash of its
// content — and returns those that changed since the preview, in the
// preview's order; none means the plan may be applied.
func (p *Plan) Check(snap *workspace.Snapshot) []StaleFile {
	var stale []StaleFile
	for _, f := range p.files {
		if reason := f.changed(snap); reason != "" {
			stale = append(stale, StaleFile{Path: f.Rel, Reason: reason})
		}
	}
	return stale
}

// changed says how the file differs from what the preview saw, "" if not.
func (f *PlannedFile) changed(snap *workspace.Snapshot) string {
	if f.Folder >= len(snap.Folders) || snap.Folders[f.Folder].Real != f.Root {
		return "the workspace folders changed since the preview"
	}
	if doc := snap.Document(f.DocPath); doc != nil {
		switch {
		case f.Version != nil && doc.Version != *f.Version:
			return fmt.Sprintf("the open document is at version %d, the preview saw version %d", doc.Version, *f.Version)
		case sha256.Sum256(doc.Content) != f.Hash:
			return "the open document's text differs from the previewed file"
		}
		return ""
	}
	content, err := snap.ReadFile(workspace.File{Folder: f.Folder, Abs: f.Abs, Rel: f.Rel}, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "deleted since the preview"
	case err != nil:
		return fmt.Sprintf("cannot be read: %v", err)
	case sha256.Sum256(content) != f.Hash:
		return "changed on disk since the preview"
	}
	return ""
}

// Only returns a plan making just one replacement of this one: the index-th
// of the file with the URI ("apply this replacement only"). It has its own
// id and the same staleness checks; the text rendering is left out.
func (p *Plan) Only(uri string, index int) (*Plan, error) {
	for i, f := range p.files {
		if f.URI != uri {
			continue
		}
		edit := p.result.Files[i]
		if index < 0 || index >= len(edit.Replacements) {
			return nil, fmt.Errorf("edit %s has %s in %s, not one numbered %d", p.ID(), english.Count(len(edit.Replacements), "replacement", "replacements"), f.Rel, index)
		}
		original := revert(f.Content, edit.Replacements)
		if sha256.Sum256(original) != f.Hash {
			return nil, fmt.Errorf("edit %s: the text of %s cannot be rebuilt from the preview (a bug): preview again", p.ID(), f.Rel)
		}
		r := edit.Replacements[index]
		one := f
		one.Content = slices.Concat(original[:r.ByteRange.Start], []byte(r.After), original[r.ByteRange.End:])
		edit.Replacements = []Replacement{r}
		res := &Result{ID: newID(), Files: []FileEdit{edit}, TotalReplacements: 1, FilesTouched: 1,
			FilesSearched: p.result.FilesSearched, ParseErrors: []matcher.ParseIssue{}, Warnings: []string{}}
		return &Plan{result: res, files: []PlannedFile{one}, created: time.Now(),
			size: int64(len(one.Content) + len(r.Before) + len(r.After))}, nil
	}
	return nil, fmt.Errorf("edit %s does not change %s", p.ID(), uri)
}

// revert rebuilds a file's text before the replacements from its text after them.
func revert(after []byte, replacements []Replacement) []byte {
	var out []byte
	pos, shift := 0, 0 // pos: offset in after; shift: after offsets minus before offsets so far
	for _, r := range replacements {
		start := r.ByteRange.Start + shift
		out = append(append(out, after[pos:start]...), r.Before...)
		pos = start + len(r.After)
		shift += len(r.After) - (r.ByteRange.End - r.ByteRange.Start)
	}
	return append(out, after[pos:]...)
}
