package atomicwrite

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/structls/structls/workspace"
)

// The journal of an apply. Before the first file is swapped, WriteFiles
// makes durable a list of every file of the edit: where it is (folder root,
// directory, name), its temporary names, and the hashes of its old and new
// text. The writing process holds a lock (flock) on the journal until it is
// done, then removes it. A journal whose lock is free was left by a killed
// process: Recover, run by the next structls session opening the workspace
// and by every apply, finishes or undoes it and removes its temporary files.
//
// Journals live in the user's cache directory (os.UserCacheDir, then
// structls/applies/KEY, KEY a hash of the real path of the workspace folder
// of the edit's first file), not in the workspace: nothing appears in the
// user's tree (no untracked file, no search hit), and a folder whose root is
// not writable can still be edited.

// journalVersion is the format of the journal files.
const journalVersion = 1

type journalFile struct {
	Version int            `json:"version"`
	Entries []journalEntry `json:"entries"`
}

// journalEntry is one file of an apply.
type journalEntry struct {
	Root   string `json:"root"` // the workspace folder's real path
	Dir    string `json:"dir"`  // the slash path of the file's directory below it
	Name   string `json:"name"`
	Temp   string `json:"temp"`
	Backup string `json:"backup"`
	Old    string `json:"old"` // hex SHA-256 of the old text
	New    string `json:"new"` // and of the new text
}

// journal is the journal of the apply under way.
type journal struct {
	f    *os.File // locked until the apply ends
	path string
}

// journalDir is where the journals of applies in the folder at root live.
func journalDir(root string) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory to keep the apply's journal in (%w): set XDG_CACHE_HOME or HOME", err)
	}
	key := sha256.Sum256([]byte(root))
	return filepath.Join(cache, "structls", "applies", hex.EncodeToString(key[:8])), nil
}

// startJournal writes the journal of the pending files durably: to a
// ".tmp" file first, renamed into place once whole, so that a journal
// Recover reads is always complete.
func startJournal(snap *workspace.Snapshot, pending []pendingWrite) (*journal, error) {
	jf := journalFile{Version: journalVersion}
	for _, pw := range pending {
		jf.Entries = append(jf.Entries, journalEntry{Root: snap.Folders[pw.file.Folder].Real, Dir: path.Dir(pw.file.Rel), Name: pw.name,
			Temp: pw.temp, Backup: pw.backup, Old: hex.EncodeToString(pw.file.Hash[:]), New: hex.EncodeToString(pw.newHash[:])})
	}
	data, err := json.Marshal(jf)
	if err != nil {
		return nil, err
	}
	dir, err := journalDir(jf.Entries[0].Root)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating the apply's journal: %w", err)
	}
	name := filepath.Join(dir, randomSuffix())
	f, err := os.OpenFile(name+".tmp", os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the apply's journal: %w", err)
	}
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(name+".tmp", name+".journal")
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		f.Close()
		os.Remove(name + ".tmp")
		os.Remove(name + ".journal")
		return nil, fmt.Errorf("writing the apply's journal in %s: %w", dir, err)
	}
	return &journal{f: f, path: name + ".journal"}, nil
}

// finish ends the apply's journal: it is removed when every temporary file
// is gone (clean), else left for the next run's Recover.
func (j *journal) finish(clean bool) {
	if clean {
		os.Remove(j.path)
		os.Remove(filepath.Dir(j.path)) // when no other apply of the folder is under way
	}
	j.f.Close() // releases the lock
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// Recover finishes or undoes the applies a killed process left in the
// folders with these real roots, and removes their temporary files; it
// returns a note for each. An apply whose every file holds its new text is
// finished; any other is undone, each file put back to its old text (the
// very file it was: same inode, owner and mode), so all files of one apply
// end in the same state. A file whose text is neither the apply's old nor
// its new one (edited since) is left as it is. Journals of applies still
// running in another process (locked) are left alone.
func Recover(roots []string) []string {
	var notes []string
	for _, root := range roots {
		dir, err := journalDir(root)
		if err != nil {
			return notes // no cache directory: no apply could have left a journal
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			file := filepath.Join(dir, e.Name())
			switch {
			case strings.HasSuffix(e.Name(), ".tmp"):
				removeUnlocked(file) // a journal never completed: killed before any temporary file was made
			case strings.HasSuffix(e.Name(), ".journal"):
				if note := recoverJournal(file); note != "" {
					notes = append(notes, note)
				}
			}
		}
	}
	return notes
}

// removeUnlocked removes the file unless a live process holds its lock.
func removeUnlocked(file string) {
	f, err := os.Open(file)
	if err != nil {
		return
	}
	defer f.Close()
	if unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
		os.Remove(file)
	}
}

// recoverJournal recovers the apply of one journal, unless it is still
// running; it returns what it did.
func recoverJournal(file string) string {
	f, err := os.OpenFile(file, os.O_RDWR, 0)
	if err != nil {
		return "" // removed meanwhile by its apply
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		return "" // its apply is still running
	}
	if still, err := os.Stat(file); err != nil || !sameFile(f, still) {
		return "" // its apply ended and removed it before the lock was ours
	}
	var jf journalFile
	if err := json.NewDecoder(f).Decode(&jf); err != nil || jf.Version != journalVersion {
		os.Remove(file)
		return fmt.Sprintf("removed an unreadable apply journal %s (%v)", file, err)
	}
	files := make([]*recoveredFile, len(jf.Entries))
	for i, e := range jf.Entries {
		files[i] = inspect(e)
		if files[i].dir != nil {
			defer files[i].dir.Close()
		}
	}
	note, settled := settle(files)
	if settled {
		os.Remove(file)
	}
	return note
}

func sameFile(f *os.File, info os.FileInfo) bool {
	mine, err := f.Stat()
	return err == nil && os.SameFile(mine, info)
}
