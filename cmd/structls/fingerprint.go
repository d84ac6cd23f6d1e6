package main

import (
	"crypto/sha256"
	byteorder "encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"hash"
	"os"

	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/workspace"
)

// The fingerprint of an edit plan: what `structls edit` prints after its
// preview and `structls edit --apply --expect FINGERPRINT` checks, so an
// agent writes the very plan it was shown. A plan searched again at apply
// time can differ from the preview — a line added since (the preview said
// 20 replacements, the apply would write 21), a file changed — and is then
// refused with nothing written; the server's own check (applyEdit refuses a
// file changed since the preview) covers the moments between this new
// preview and the write.

// planFile is the part of a structls.astEdit file the fingerprint covers.
type planFile struct {
	Path         string                `json:"path"`
	URI          string                `json:"uri"`
	Version      *int32                `json:"version"`
	Replacements []rewrite.Replacement `json:"replacements"`
}

// planFingerprint hashes each file's path, the hash of its content (read
// now: the server's check refuses the apply if it changed since the
// preview) or its open version, and every replacement: where, what it
// replaces, with what.
func planFingerprint(files []planFile) (string, error) {
	h := sha256.New()
	for _, f := range files {
		writeField(h, []byte(f.Path))
		if f.Version != nil {
			writeField(h, []byte(fmt.Sprintf("version %d", *f.Version)))
		} else {
			path, err := workspace.URIToPath(f.URI)
			if err != nil {
				return "", err
			}
			content, err := os.ReadFile(path)
			if err != nil {
				return "", fmt.Errorf("reading %s for the plan's fingerprint: %w", f.Path, err)
			}
			sum := sha256.Sum256(content)
			writeField(h, sum[:])
		}
		for _, r := range f.Replacements {
			writeField(h, []byte(fmt.Sprintf("%d-%d", r.ByteRange.Start, r.ByteRange.End)))
			writeField(h, []byte(r.Before))
			writeField(h, []byte(r.After))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:10]), nil
}

// writeField writes a length-prefixed field, so no two plans hash alike by
// moving bytes between fields.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	byteorder.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}

// applyCommand is the command line that applies exactly the plan
// previewed: the same command with --apply --expect FINGERPRINT.
func applyCommand(fs *flag.FlagSet, args []string, fingerprint string) string {
	return commandLine(fs, "edit", args, "--apply", "--expect", fingerprint)
}
