// Package atomicwrite writes an edit plan (package rewrite) to the files on
// disk, for clients that cannot apply a WorkspaceEdit themselves: every file
// checked against what the preview saw, replaced atomically, with a journal
// that the next run uses to finish or undo an apply that was killed midway
// (docs/safety.md).
package atomicwrite

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// WriteFiles applies the plan p to the files on disk, for clients that cannot
// apply a WorkspaceEdit themselves (the CLI, bare agents). What it
// guarantees, per file, per apply and after a kill (docs/safety.md):
//
//   - Nothing is written unless every file passes: p.Check against the
//     snapshot, then, on disk, the file must still hold the previewed text,
//     be a regular file inside a workspace folder reached without a
//     symlink, and be writable, and its replacement must be able to keep
//     its owner, group and mode (setuid, setgid and sticky bits included).
//   - Every file operation goes through a handle on the file's directory
//     opened below the folder's root without following a symlink
//     (workspace.Snapshot.OpenDir): a directory swapped for a symlink
//     meanwhile can never send a byte outside the workspace.
//   - Each file's new text goes to a temporary file beside it
//     (".NAME.structls-RANDOM"), made durable, then swapped with the file
//     in one atomic rename (RENAME_EXCHANGE), so a file is always whole,
//     old or new, and the old file itself (its inode, owner and mode) is
//     kept until the whole edit is in place. Just before and just after its
//     swap a file is checked again (its stamp, and its hash when the stamp
//     moved): a save made meanwhile refuses that file and puts the files
//     replaced before it back, so a save is never lost to an apply.
//   - A journal of the apply is durable before the first swap (journal.go);
//     a run killed midway is finished or undone, and its temporary files
//     removed, by the next structls run in the workspace (Recover).
func WriteFiles(ctx context.Context, p *rewrite.Plan, snap *workspace.Snapshot) error {
	return osWriter.write(ctx, p, snap)
}

// writing serialises WriteFiles in the process: two plans touching one file
// must not both pass their checks and then both replace it.
var writing sync.Mutex

// fileWriter writes plans. beforeReplace, set by tests only, runs just
// before each file is replaced (after its check); an error it returns is
// that replacement's failure.
type fileWriter struct {
	beforeReplace func(rel string) error
}

var osWriter fileWriter

func (w fileWriter) write(ctx context.Context, p *rewrite.Plan, snap *workspace.Snapshot) error {
	writing.Lock()
	defer writing.Unlock()
	Recover(FolderRoots(snap.Folders)) // an apply killed in another process is made whole before this one looks
	if stale := p.Check(snap); len(stale) > 0 {
		return &rewrite.StaleError{Files: stale}
	}
	dirs := dirHandles{}
	defer dirs.close()
	files := p.Files()
	pending := make([]pendingWrite, 0, len(files))
	for i := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		pw, err := checkFile(snap, dirs, &files[i])
		var stale *rewrite.StaleError
		switch {
		case errors.As(err, &stale):
			return err
		case err != nil:
			return fmt.Errorf("the edit was not applied, nothing was written: %w", err)
		}
		pending = append(pending, pw)
	}
	if len(pending) == 0 {
		return nil
	}
	j, err := startJournal(snap, pending)
	if err != nil {
		return fmt.Errorf("the edit was not applied, nothing was written: %w", err)
	}
	// From here on every temporary file (and old file kept aside) is removed
	// at the end; the journal goes last, once they are gone.
	defer func() {
		clean := true
		for i := range pending {
			clean = pending[i].removeTemps() && clean
		}
		j.finish(clean)
	}()
	for i := range pending {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := pending[i].writeTemp(); err != nil {
			return fmt.Errorf("the edit was not applied, nothing was written: %w", err)
		}
	}
	if err := syncFilesystems(dirs.all()); err != nil { // the new texts are on disk before any swap
		return fmt.Errorf("the edit was not applied, nothing was written: flushing the new texts to disk: %w", err)
	}
	for i := range pending { // from here on ctx is not heeded: the edit is made whole or undone
		if err := w.replace(&pending[i]); err != nil {
			return rollBack(pending[:i], pending[i].file.Rel, err)
		}
	}
	// A save that opened a file before its swap and wrote after it went to
	// the old file, kept aside until now: look once more before dropping them.
	for i := range pending {
		if err := pending[i].unchanged(pending[i].kept(), false); err != nil {
			return rollBack(pending, pending[i].file.Rel, err)
		}
	}
	return nil
}

// replace checks the file once more and swaps its new text in.
func (w fileWriter) replace(pw *pendingWrite) error {
	if err := pw.unchanged(pw.name, true); err != nil {
		return err
	}
	if w.beforeReplace != nil {
		if err := w.beforeReplace(pw.file.Rel); err != nil {
			return err
		}
	}
	return pw.swap()
}

// rollBack puts back the files replaced before the file rel failed with
// cause, and says what became of the edit.
func rollBack(done []pendingWrite, rel string, cause error) error {
	var kept []string
	for i := len(done) - 1; i >= 0; i-- {
		if err := done[i].undo(); err != nil {
			kept = append(kept, fmt.Sprintf("%s (%v)", done[i].file.Rel, err))
		}
	}
	var moved *movedError
	if len(kept) > 0 {
		return fmt.Errorf("the edit was applied only in part: replacing %s: %w; of the files replaced before it these could not be put back and hold the new text: %s; check them, then preview the edit again",
			rel, cause, strings.Join(kept, ", "))
	}
	if errors.As(cause, &moved) {
		return &rewrite.StaleError{Files: []rewrite.StaleFile{{Path: rel, Reason: moved.reason + " (kept as it is now)"}}}
	}
	return fmt.Errorf("the edit was not applied: replacing %s: %w; the %s put back, so nothing changed", rel, cause, english.Count(len(done), "file replaced before it was", "files replaced before it were"))
}

// movedError is a file that changed on disk between its check and its
// replacement: the apply must not overwrite it.
type movedError struct{ reason string }

func (e *movedError) Error() string { return e.reason }

// dirHandles are the directories of a plan's files, each opened once
// below its folder's root (workspace.Snapshot.OpenDir).
type dirHandles map[string]*os.File

func (d dirHandles) open(snap *workspace.Snapshot, f *rewrite.PlannedFile) (*os.File, error) {
	key := fmt.Sprintf("%d\x00%s", f.Folder, path.Dir(f.Rel))
	if h := d[key]; h != nil {
		return h, nil
	}
	h, err := snap.OpenDir(f.Folder, path.Dir(f.Rel))
	if err != nil {
		return nil, err
	}
	d[key] = h
	return h, nil
}

func (d dirHandles) all() []*os.File {
	out := make([]*os.File, 0, len(d))
	for _, h := range d {
		out = append(out, h)
	}
	return out
}

func (d dirHandles) close() {
	for _, h := range d {
		h.Close()
	}
}

// FolderRoots are the real paths of the folders (what Recover takes).
func FolderRoots(folders []workspace.Folder) []string {
	roots := make([]string, len(folders))
	for i, f := range folders {
		roots[i] = f.Real
	}
	return roots
}
