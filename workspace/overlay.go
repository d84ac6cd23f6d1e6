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
type Overlay struct {
	mu   sync.Mutex
	docs map[string]*Document
}

// NewOverlay returns an empty overlay.
func NewOverlay() *Overlay { return &Overlay{docs: map[string]*Document{}} }

// Open records a newly opened document, replacing any earlier one with the same URI.
func (o *Overlay) Open(uri, languageID string, version int32, text string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.docs[uri] = newDocument(uri, languageID, version, []byte(text))
}

// Change applies content changes, in order, to an open document and stores
// the result as the given version. Ranges are read in enc.
func (o *Overlay) Change(uri string, version int32, changes []TextChange, enc Encoding) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	doc, ok := o.docs[uri]
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open (send didOpen first)", uri)
	}
	content := doc.Content
	for i, ch := range changes {
		if ch.Range == nil {
			content = []byte(ch.Text)
			continue
		}
		m := NewMapper(content)
		start, err := m.PositionOffset(ch.Range.Start, enc)
		if err != nil {
			return fmt.Errorf("change %d of %s: %w", i, uri, err)
		}
		end, err := m.PositionOffset(ch.Range.End, enc)
		if err != nil {
			return fmt.Errorf("change %d of %s: %w", i, uri, err)
		}
		if end < start {
			return fmt.Errorf("change %d of %s: range end %v is before its start %v", i, uri, ch.Range.End, ch.Range.Start)
		}
		next := make([]byte, 0, len(content)-(end-start)+len(ch.Text))
		next = append(append(append(next, content[:start]...), ch.Text...), content[end:]...)
		content = next
	}
	o.docs[uri] = newDocument(uri, doc.LanguageID, version, content)
	return nil
}

// Close forgets a document: from now on its file is read from disk.
func (o *Overlay) Close(uri string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	delete(o.docs, uri)
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
