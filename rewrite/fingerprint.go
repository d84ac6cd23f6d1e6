package rewrite

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
)

// The fingerprint of a plan names exactly what it would write: each file's
// path, the text the preview read (an open document's version, a closed
// file's content hash, both taken when the preview read them), and every
// replacement (where, what it replaces, with what). `structls edit` prints
// it after the preview and `structls edit --apply --expect FINGERPRINT`
// writes a plan searched again only when its fingerprint is the same, so
// an agent writes the very plan it was shown; the server's own check
// (Plan.Check) covers the moments between that second preview and the
// write. It is computed here, by the server, from what the preview saw,
// so a client needs neither the replacements nor the files to have it.
func fingerprint(files []*fileEdits) string {
	h := sha256.New()
	for _, f := range files {
		writeField(h, []byte(f.file.Rel))
		if f.version != nil {
			writeField(h, fmt.Appendf(nil, "version %d", *f.version))
		} else {
			writeField(h, f.hash[:])
		}
		for _, r := range f.replacements {
			writeField(h, fmt.Appendf(nil, "%d-%d", r.ByteRange.Start, r.ByteRange.End))
			writeField(h, []byte(r.Before))
			writeField(h, []byte(r.After))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:10])
}

// writeField writes a length-prefixed field, so no two plans hash alike by
// moving bytes between fields.
func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
