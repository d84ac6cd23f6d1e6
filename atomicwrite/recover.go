package atomicwrite

import (
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/structls/structls/internal/english"
	"github.com/structls/structls/workspace"
)

// textState is what a name of an interrupted apply holds.
type textState int

const (
	missing   textState = iota
	oldText             // the file's text before the apply
	newText             // the apply's new text
	otherText           // neither: edited since, or not a regular file
)

// recoveredFile is one file of an interrupted apply, as found.
type recoveredFile struct {
	entry              journalEntry
	dir                *os.File // nil when the directory cannot be opened
	problem            string
	name, temp, backup textState
}

// inspect looks at the three names of a journal entry, through a handle on
// its directory opened below the folder's root without following a symlink.
func inspect(e journalEntry) *recoveredFile {
	rf := &recoveredFile{entry: e}
	if !validName(e.Name) || !validName(e.Temp) || !validName(e.Backup) ||
		!workspace.IsTempName(e.Temp) || !workspace.IsTempName(e.Backup) {
		rf.problem = "the journal names files it cannot have made"
		return rf
	}
	dir, err := workspace.OpenDirBeneath(e.Root, e.Dir)
	if err != nil {
		rf.problem = fmt.Sprintf("its directory cannot be opened: %v", err)
		return rf
	}
	rf.dir = dir
	rf.name, rf.temp, rf.backup = rf.state(e.Name), rf.state(e.Temp), rf.state(e.Backup)
	return rf
}

// validName reports whether name is one plain file name.
func validName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.Contains(name, "/")
}

func (rf *recoveredFile) state(name string) textState {
	sum, _, err := hashAt(rf.dir, name)
	switch {
	case os.IsNotExist(err):
		return missing
	case err != nil:
		return otherText
	case hex.EncodeToString(sum[:]) == rf.entry.Old:
		return oldText
	case hex.EncodeToString(sum[:]) == rf.entry.New:
		return newText
	}
	return otherText
}

// holding returns the temporary name holding the text in the state want, or "".
func (rf *recoveredFile) holding(want textState) string {
	switch want {
	case rf.temp:
		return rf.entry.Temp
	case rf.backup:
		return rf.entry.Backup
	}
	return ""
}

func (rf *recoveredFile) rel() string {
	return path.Join(rf.entry.Dir, rf.entry.Name)
}

// settle brings every file of an interrupted apply to the same state: the
// new text when every file holds it already, else the old text (the new
// text instead when some old text is gone); then it removes the temporary
// names. A file edited since keeps its text. It returns what it did, and
// whether the apply is settled (else its journal is kept, to try again).
func settle(files []*recoveredFile) (string, bool) {
	allNew, canUndo, canFinish := true, true, true
	for _, f := range files {
		switch {
		case f.dir == nil:
		case f.name == newText:
			canUndo = canUndo && f.holding(oldText) != ""
		case f.name == oldText:
			allNew = false
			canFinish = canFinish && f.holding(newText) != ""
		default:
			allNew = false
		}
	}
	finish := allNew || (!canUndo && canFinish)
	if !finish && !canUndo {
		return fmt.Sprintf("an apply of %s in %s was interrupted (the process was killed), and some of its files hold the new text, others the old one, and neither text survives for all: check the files (their other texts are in the .NAME.structls-* files beside them)",
			english.Count(len(files), "file", "files"), files[0].entry.Root), false
	}
	want := oldText // the text every file ends with
	if finish {
		want = newText
	}
	var problems []string
	for _, f := range files {
		if f.dir == nil || f.name == want || (f.name != oldText && f.name != newText) {
			continue
		}
		if err := unix.Renameat(int(f.dir.Fd()), f.holding(want), int(f.dir.Fd()), f.entry.Name); err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", f.rel(), err))
			continue
		}
		f.name = want
	}
	for _, f := range files {
		switch {
		case f.problem != "":
			problems = append(problems, fmt.Sprintf("%s: %s", f.rel(), f.problem))
			continue
		case f.name == otherText || f.name == missing:
			problems = append(problems, fmt.Sprintf("%s changed since, left as it is", f.rel()))
		}
		f.removeTemps()
	}
	what := "undid (every file holds its old text again)"
	if finish {
		what = "finished (every file holds its new text)"
	}
	note := fmt.Sprintf("structls %s an apply of %s in %s that was interrupted (the process was killed)", what, english.Count(len(files), "file", "files"), files[0].entry.Root)
	if len(problems) > 0 {
		note += "; " + strings.Join(problems, "; ")
	}
	return note, true
}

// removeTemps removes the temporary names of the entry: they hold the
// apply's old or new text, or a new text cut short by the kill. (Only a
// regular file is removed: the journal named it, structls made it.)
func (rf *recoveredFile) removeTemps() {
	for _, name := range []string{rf.entry.Temp, rf.entry.Backup} {
		var st unix.Stat_t
		if unix.Fstatat(int(rf.dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			_ = unix.Unlinkat(int(rf.dir.Fd()), name, 0)
		}
	}
}
