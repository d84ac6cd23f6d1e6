package outline

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/structls/structls/internal/workers"
	"github.com/structls/structls/lang"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Symbol is one declaration found by workspace/symbol: an item or a member.
type Symbol struct {
	Name      string
	Container string // the owning item's name; "" at the top level
	Kind      string // Item.LSPKind
	Path      string // relative to its folder
	URI       string
	Range     workspace.Range // the name, in the index's encoding
	lower     string          // Name in lower case, for matching
}

// Index keeps the symbols of every workspace file between workspace/symbol
// queries. A file is read and parsed again only when its size or
// modification time changed (on disk) or its version did (open in the
// editor). When the client watches the files for the server (Trusted), a
// warm query does not even walk the folders or stat the files: the last
// walk holds until Invalidate says a watched file changed. An Index is safe
// for concurrent use.
type Index struct {
	mu      sync.Mutex
	enc     workspace.Encoding
	files   map[string]*indexedFile // by absolute path
	walked  []workspace.File        // the files of the last walk
	walkKey string                  // the folders that walk covered
	stale   bool                    // a watched file changed since that walk
}

// Invalidate tells the index that files changed on disk: the next query
// walks the folders and stats the files again.
func (ix *Index) Invalidate() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.stale = true
}

type indexedFile struct {
	stamp   fileStamp
	symbols []Symbol
}

// fileStamp tells whether a file changed since it was indexed.
type fileStamp struct {
	size, modNanos int64
	docVersion     int32
	open           bool
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{files: map[string]*indexedFile{}} }

// DefaultSymbolLimit caps a workspace/symbol reply.
const DefaultSymbolLimit = 200

// SymbolQuery is one workspace/symbol request.
type SymbolQuery struct {
	Query string
	Limit int // 0: DefaultSymbolLimit
	// Trusted says the client reports every change on disk (file
	// watchers), so the last walk and the files' stamps hold until
	// Invalidate; open documents are always checked.
	Trusted bool
}

// Symbols finds the symbols of every workspace folder whose name matches
// the query, best first: exact (ignoring case), then prefix, then
// substring, then subsequence matches; within a rank a case-exact match,
// then the shorter name, then path order. limitReached says some were cut.
func (ix *Index) Symbols(ctx context.Context, snap *workspace.Snapshot, q SymbolQuery, enc workspace.Encoding,
	progress workspace.ProgressFunc, cache *syntax.Cache) ([]Symbol, bool, error) {
	all, err := ix.refresh(ctx, snap, enc, q.Trusted, progress, cache)
	if err != nil {
		return nil, false, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = DefaultSymbolLimit
	}
	// Ranks: 0 exact, 1 exact but for case, 2 prefix, 3 substring, 4
	// subsequence. Subsequences are looked for only when the others do not
	// fill the reply, and a rank's symbols are sorted (shorter names first,
	// else path order) only when some of them are kept.
	needle := strings.ToLower(q.Query)
	var ranks [5][]*Symbol
	matched := 0
	for _, syms := range all {
		if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		for i := range syms {
			r := matchRank(syms[i].lower, needle, false)
			if r < 0 {
				continue
			}
			if r > 0 || syms[i].Name != q.Query {
				r++
			}
			ranks[r] = append(ranks[r], &syms[i])
			matched++
		}
	}
	if matched < limit {
		for _, syms := range all {
			for i := range syms {
				if matchRank(syms[i].lower, needle, true) == 3 {
					ranks[4] = append(ranks[4], &syms[i])
					matched++
				}
			}
		}
	}
	out := make([]Symbol, 0, min(matched, limit))
	for _, rank := range ranks {
		if len(out) == limit {
			break
		}
		sort.SliceStable(rank, func(i, j int) bool { return len(rank[i].Name) < len(rank[j].Name) })
		for _, sym := range rank[:min(len(rank), limit-len(out))] {
			out = append(out, *sym)
		}
	}
	return out, matched > len(out), nil
}

// matchRank ranks how needle (lower case) matches name (lower case): 0
// exact, 1 prefix, 2 substring, 3 subsequence (only when subsequence is
// set: then the others are not looked for), -1 no match. An empty needle
// matches everything as a prefix.
func matchRank(name, needle string, subsequence bool) int {
	if !subsequence {
		switch {
		case name == needle:
			return 0
		case strings.HasPrefix(name, needle):
			return 1
		case strings.Contains(name, needle):
			return 2
		}
		return -1
	}
	if strings.Contains(name, needle) {
		return -1 // ranked already
	}
	i := 0
	for j := 0; j < len(name) && i < len(needle); j++ {
		if name[j] == needle[i] {
			i++
		}
	}
	if i == len(needle) {
		return 3
	}
	return -1
}

// refresh brings the index up to date with the snapshot and returns the
// symbols of every file, in path order.
func (ix *Index) refresh(ctx context.Context, snap *workspace.Snapshot, enc workspace.Encoding, trusted bool, progress workspace.ProgressFunc,
	cache *syntax.Cache) ([][]Symbol, error) {
	key := foldersKey(snap.Folders)
	ix.mu.Lock()
	if ix.enc != enc {
		ix.enc, ix.files, ix.walked = enc, map[string]*indexedFile{}, nil
	}
	old, files := ix.files, ix.walked
	reuse := trusted && !ix.stale && files != nil && ix.walkKey == key
	ix.stale = false // changes reported from now on make the next query walk again
	ix.mu.Unlock()
	if reuse {
		files = withDocuments(snap, files)
	} else {
		var err error
		if files, err = outlineFiles(ctx, snap); err != nil {
			return nil, err
		}
	}
	out := make([]*indexedFile, len(files))
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range min(workers.Count(), max(1, len(files))) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(files) && ctx.Err() == nil; i = int(next.Add(1)) - 1 {
				out[i] = indexFile(ctx, snap, files[i], enc, cache, old, reuse)
				if progress != nil {
					progress(int(done.Add(1)), len(files))
				}
			}
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	fresh := make(map[string]*indexedFile, len(files))
	all := make([][]Symbol, 0, len(files))
	for i, f := range files {
		if out[i] != nil {
			fresh[f.Abs] = out[i]
			all = append(all, out[i].symbols)
		}
	}
	ix.mu.Lock()
	if ix.enc == enc {
		ix.files, ix.walked, ix.walkKey = fresh, files, key
	}
	ix.mu.Unlock()
	return all, nil
}

// outlineFiles walks every folder for the files in a language with an outline.
func outlineFiles(ctx context.Context, snap *workspace.Snapshot) ([]workspace.File, error) {
	resolved, err := snap.ResolvePaths(nil, false)
	if err != nil {
		return nil, err
	}
	walked, err := snap.Walk(ctx, resolved.Targets, workspace.WalkOptions{Gitignore: true, Hidden: true})
	if err != nil {
		return nil, err
	}
	var files []workspace.File
	for _, f := range walked {
		if l := lang.ForPath(f.Rel); l != nil && SpecFor(l.Name) != nil {
			files = append(files, f)
		}
	}
	return files, nil
}

// withDocuments returns the files of an earlier walk with this snapshot's
// open documents.
func withDocuments(snap *workspace.Snapshot, files []workspace.File) []workspace.File {
	out := make([]workspace.File, len(files))
	for i, f := range files {
		f.Doc = snap.Document(filepath.Join(snap.Folders[f.Folder].Path, filepath.FromSlash(f.Rel)))
		out[i] = f
	}
	return out
}

// foldersKey identifies a list of folders.
func foldersKey(folders []workspace.Folder) string {
	var b strings.Builder
	for _, f := range folders {
		b.WriteString(f.Real)
		b.WriteByte(0)
	}
	return b.String()
}

// indexFile returns the file's entry: the old one when its stamp still
// holds (or, trusted, when it was indexed from disk and is still not
// open), else a fresh one; nil when it cannot be read or parsed.
func indexFile(ctx context.Context, snap *workspace.Snapshot, f workspace.File, enc workspace.Encoding,
	cache *syntax.Cache, old map[string]*indexedFile, trusted bool) *indexedFile {
	var stamp fileStamp
	if f.Doc != nil {
		stamp = fileStamp{docVersion: f.Doc.Version, open: true}
	} else if e, ok := old[f.Abs]; ok && trusted && !e.stamp.open {
		return e
	} else {
		info, err := os.Stat(f.Abs)
		if err != nil {
			return nil
		}
		stamp = fileStamp{size: info.Size(), modNanos: info.ModTime().UnixNano()}
	}
	if e, ok := old[f.Abs]; ok && e.stamp == stamp {
		return e
	}
	content, err := snap.ReadFile(f, nil)
	if err != nil {
		return nil
	}
	entries, err := ExtractSource(ctx, lang.ForPath(f.Rel), content, cache)
	if err != nil {
		return nil
	}
	uri := f.URI()
	var symbols []Symbol
	var add func(items []Item, container string)
	add = func(items []Item, container string) {
		for _, it := range items {
			if it.IsImport {
				continue
			}
			symbols = append(symbols, Symbol{Name: it.Name, Container: container, Kind: it.LSPKind(), Path: f.Rel, URI: uri,
				Range: it.SelectionRange, lower: strings.ToLower(it.Name)})
			add(it.Members, it.Name)
		}
	}
	add(Items(entries, workspace.NewMapper(content), enc), "")
	return &indexedFile{stamp: stamp, symbols: symbols}
}
