package workspace

import (
	"fmt"
	"maps"
	"sync"
)

// Document is one version of an editor buffer. Documents are immutable: a
// change makes a new Document, so a snapshot holding the old one keeps seeing
// exactly the text it was taken with.
type Document struct {
	URI        string // as the client sent it
	Path       string // clean absolute path for file:// URIs, "" otherwise
	LanguageID string
	Version    int32
	Content    []byte
}

func newDocument(uri, languageID string, version int32, content []byte) *Document {
	path, _ := URIToPath(uri) // non-file URIs keep Path == ""
	return &Document{URI: uri, Path: path, LanguageID: languageID, Version: version,
		Content: content}
}

// TextChange is one content change of a didChange notification. A nil Range
// replaces the whole text.
type TextChange struct {
	Range *Range
	Text  string
}

// Overlay holds the open documents, keyed by URI. Its methods are called in
// the order the client sent the notifications; readers take a copy with Documents.
//
// A document whose change could not be applied is out of sync: the overlay
// keeps its last good text (which searches go on using) and refuses
// incremental changes to it, since they would be applied to text the client
// no longer has, until a whole-document change or a new Open resyncs it.
type Overlay struct {
	mu        sync.Mutex
	docs      map[string]*Document
	outOfSync map[string]bool // URIs waiting for a whole-document change
}

// NewOverlay returns an empty overlay.
func NewOverlay() *Overlay {
	return &Overlay{docs: map[string]*Document{}, outOfSync: map[string]bool{}}
}

// Open records a newly opened document, replacing any earlier one with the same URI.
func (o *Overlay) Open(uri, languageID string, version int32, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.docs[uri] = newDocument(uri, languageID, version, []byte(text))
	delete(o.outOfSync, uri)
}

// MarkOutOfSync records that a change to the open document with the URI was
// lost (it could not even be decoded): incremental changes are refused
// until the client resends the whole text. Unknown URIs are ignored.
func (o *Overlay) MarkOutOfSync(uri string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.docs[uri]; ok {
		o.outOfSync[uri] = true
	}
}

// OutOfSync reports whether the document with the URI waits for a
// whole-document change.
func (o *Overlay) OutOfSync(uri string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.outOfSync[uri]
}

// Change applies content changes, in order, to an open document and stores
// the result as the given version. Ranges are read in enc. The changes are
// applied all or none: on an error the document keeps its text and version
// and is marked out of sync (see Overlay).
func (o *Overlay) Change(uri string, version int32, changes []TextChange, enc Encoding) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	doc, ok := o.docs[uri]
	if !ok {
		return fmt.Errorf("%s is not open: send didOpen first", uri)
	}
	content, err := applyChanges(doc.Content, changes, enc, o.outOfSync[uri])
	if err != nil {
		o.outOfSync[uri] = true
		return fmt.Errorf("%s (version %d): %w; the server keeps the text of version %d until the editor sends the whole document",
			uri, version, err, doc.Version)
	}
	delete(o.outOfSync, uri)
	o.docs[uri] = newDocument(uri, doc.LanguageID, version, content)
	return nil
}

// applyChanges applies changes in order to content and returns the new
// text. While outOfSync, a range change is refused until a whole-document
// change has come first.
func applyChanges(content []byte, changes []TextChange, enc Encoding, outOfSync bool) ([]byte, error) {
	for i, ch := range changes {
		if ch.Range == nil {
			content = []byte(ch.Text)
			outOfSync = false
			continue
		}
		if outOfSync {
			return nil, fmt.Errorf("change %d is incremental, but an earlier change was lost, so the text it applies to is unknown", i)
		}
		m := NewMapper(content)
		start, err := m.PositionOffset(ch.Range.Start, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
		end, err := m.PositionOffset(ch.Range.End, enc)
		if err != nil {
			return nil, fmt.Errorf("change %d: %w", i, err)
		}
		if end < start {
			return nil, fmt.Errorf("change %d: range end %v is before its start %v", i, ch.Range.End, ch.Range.Start)
		}
		next := make([]byte, 0, len(content)-(end-start)+len(ch.Text))
		next = append(append(append(next, content[:start]...), ch.Text...), content[end:]...)
		content = next
	}
	return content, nil
}

// Close forgets a document: from now on its file is read from disk.
func (o *Overlay) Close(uri string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.docs, uri)
	delete(o.outOfSync, uri)
}

// Get returns the open document with the URI, or nil.
func (o *Overlay) Get(uri string) *Document {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.docs[uri]
}

// Documents returns a copy of the URI → document map; the documents are shared
// (they are immutable).
func (o *Overlay) Documents() map[string]*Document {
	o.mu.Lock()
	defer o.mu.Unlock()
	return maps.Clone(o.docs)
}
