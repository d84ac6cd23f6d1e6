package parsecache

import (
	sitter "github.com/structls/structls/third_party/go-tree-sitter"

	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Text is a file's content as a query reads it (Trees.Read).
type Text struct {
	Content []byte
	// Tree is the cached tree of Content when the file on disk was known
	// unchanged since it was cached (FileTrees): then the file was not
	// read, Content is the tree's Source, and there is nothing to parse.
	Tree  *syntax.Tree
	stamp workspace.FileStamp
}

// MaxKeptReadBuffer is the largest read buffer Read leaves a worker for its
// next file: a buffer grown for a large file goes to the collector with the
// file, instead of staying live (and weighing on the collector's goal) for
// the rest of the query.
const MaxKeptReadBuffer = 1 << 20

// Read is how every engine that parses reads a file: the cached tree of a
// file on disk unchanged since it was cached, and its text, without
// reading the file (FileTrees.Tree); else the file's text read into *buf
// (an open document's from the overlay; workspace.Snapshot.ReadFileStamp,
// whose errors it returns). *buf keeps the grown buffer for the next file
// when the text was read into it (not an open document's, not a cached
// tree's: both are shared); a nil buf reads into fresh memory. After
// parsing the text through the cache, the caller tells Remember, so the
// next query does not read the file.
func (t Trees) Read(snap *workspace.Snapshot, f workspace.File, lang *sitter.Language, buf *[]byte) (Text, error) {
	if tree := t.Files.Tree(snap, f, lang, t.Cache); tree != nil {
		return Text{Content: tree.Source, Tree: tree}, nil
	}
	var into []byte
	if buf != nil {
		into = *buf
	}
	content, stamp, err := snap.ReadFileStamp(f, into)
	if err != nil {
		return Text{}, err
	}
	if buf != nil && f.Doc == nil && cap(content) <= MaxKeptReadBuffer {
		*buf = content
	}
	return Text{Content: content, stamp: stamp}, nil
}

// Remember records that the file on disk f had text when it was read, now
// that text has been parsed in lang through the cache (FileTrees.Remember:
// only when the cache holds its tree and the stamp is settled).
func (t Trees) Remember(f workspace.File, text Text, lang *sitter.Language) {
	if text.Tree == nil {
		t.Files.Remember(f, text.stamp, lang, text.Content, t.Cache)
	}
}
