package rewrite

import (
	"github.com/structls/structls/workspace"
)

// FileChange is an edit of one file computed outside this package (the
// rules engine's fixes): the file, its text as it was read, and the
// replacements, which must not overlap.
type FileChange struct {
	File    workspace.File
	Content []byte
	Edits   []TextEdit
}

// TextEdit replaces the bytes [Start, End) with Text.
type TextEdit struct {
	Start, End int
	Text       string
}

// PlanChanges makes a preview plan of changes computed elsewhere, so that
// they are applied exactly as structls.astEdit's previews are: refused if a
// file changed since it was read, written atomically. searched is the
// number of files the changes were looked for in.
func PlanChanges(snap *workspace.Snapshot, changes []FileChange, searched int, enc workspace.Encoding) *Plan {
	var files []*fileEdits
	for _, c := range changes {
		fe := &fileEdits{file: c.File}
		for _, e := range c.Edits {
			fe.edits = append(fe.edits, edit{start: e.Start, end: e.End, after: []byte(e.Text)})
		}
		fe.finish(snap, c.Content, nil, enc, false)
		files = append(files, fe)
	}
	return newPlan(files, planSummary{searched: searched})
}
