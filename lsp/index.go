package lsp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/matcher"
	"github.com/structls/structls/matcher/index"
	"github.com/structls/structls/workspace"
)

// Background parsing (issue 14): once initialized (and the configuration
// pulled), the server parses every file of the workspace into the parse
// cache with package index, so that the first structural query finds its
// trees ready. It runs again over the files that change (watched-file
// events, didSave) and over every folder when the folders change or the
// setting is turned on. Requests pause it (index.Gate), the user may cancel
// it from its progress ("Indexing N files"), and the backgroundParse setting
// turns it off. A query that comes first parses what is not cached yet
// in its languages and paths, the files its pattern cannot match included,
// and caches those trees while the cache has room (pushing none out), so
// the next query finds them whatever the state of indexing; the run then
// passes over those files unread while they are unchanged. The cache is
// keyed by content, so both give the same trees.
//
// Open documents: the cache is told of every version (SetDocument), so that
// a version's first parse reparses the previous version's tree
// incrementally, and frees that tree on didClose.

// indexer is the server's background parsing state.
type indexer struct {
	gate  index.Gate         // requests hold it busy
	wake  chan struct{}      // a run is wanted (buffered: one wake-up is enough)
	files *matcher.FileTrees // which content each file on disk had when its tree was cached

	mu      sync.Mutex
	whole   bool               // a run over every folder is wanted
	paths   []string           // files changed since the last run was taken
	running bool               // a run has been taken and has not ended
	cancel  context.CancelFunc // stops the run in progress; nil between runs
	runs    int                // runs finished, for tests

	testHookFirstFile func() // when set by a test, called once a run has parsed its first file
}

// newIndexer returns the indexer of a new server. Its first run, over
// every folder, is wanted from the start (startBackgroundParse starts it
// once the configuration is known), so that a query arriving before it
// starts already leaves the filling of the cache to it (pending).
func newIndexer() *indexer {
	return &indexer{wake: make(chan struct{}, 1), files: matcher.NewFileTrees(), whole: true}
}

// trees returns what queries keep between them: the parse cache and the
// stamps of the files whose trees it holds; and whether background parsing
// is filling the cache, so that a query leaves that to it.
func (s *Server) trees() matcher.Trees {
	settings := s.currentSettings()
	background := settings.BackgroundParseEnabled() && settings.EffectiveParseCacheBytes() > 0 && s.index.pending()
	return matcher.Trees{Cache: s.parseCache, Files: s.index.files, Background: background}
}

// want asks for a run over every folder (whole) or over paths.
func (ix *indexer) want(whole bool, paths ...string) {
	ix.mu.Lock()
	ix.whole = ix.whole || whole
	ix.paths = append(ix.paths, paths...)
	ix.mu.Unlock()
	select {
	case ix.wake <- struct{}{}:
	default:
	}
}

// take returns what the next run should cover, and forgets it.
func (ix *indexer) take() (whole bool, paths []string) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	whole, paths = ix.whole, ix.paths
	ix.whole, ix.paths = false, nil
	ix.running = whole || len(paths) > 0
	return whole, paths
}

// pending reports whether a run is wanted or under way.
func (ix *indexer) pending() bool {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.whole || len(ix.paths) > 0 || ix.running
}

// stop cancels the run in progress, if any.
func (ix *indexer) stop() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	if ix.cancel != nil {
		ix.cancel()
	}
}

// finishedRuns returns how many runs have ended, for tests.
func (ix *indexer) finishedRuns() int {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.runs
}

// startBackgroundParse starts the worker, after the first configuration
// pull: it parses every folder now, and runs again whenever asked.
func (s *Server) startBackgroundParse() {
	s.index.want(true)
	go func() {
		for {
			select {
			case <-s.index.wake:
			case <-s.ctx.Done():
				return
			}
			if whole, paths := s.index.take(); whole || len(paths) > 0 {
				s.runBackgroundParse(whole, paths)
			}
		}
	}()
}

// runBackgroundParse parses every folder (whole) or the paths into the
// cache, with progress the user may cancel, unless the backgroundParse
// setting is off or the cache is.
func (s *Server) runBackgroundParse(whole bool, paths []string) {
	defer func() {
		s.index.mu.Lock()
		s.index.cancel, s.index.running = nil, false
		s.index.runs++
		s.index.mu.Unlock()
	}()
	settings := s.currentSettings()
	if !settings.BackgroundParseEnabled() || settings.EffectiveParseCacheBytes() == 0 {
		return
	}
	folders, docs, _ := s.snapshotParts()
	if len(folders) == 0 {
		return
	}
	snap := workspace.NewSnapshot(folders, settings, docs)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.index.mu.Lock()
	s.index.cancel = cancel
	s.index.mu.Unlock()
	if !s.currentSettings().BackgroundParseEnabled() { // turned off before stop could see this run
		return
	}
	// The progress starts with the first file parsed, not before: a run held
	// back from the start by a request shows nothing while it waits.
	var wd *workDone
	started := false
	opts := index.Options{
		Gate: &s.index.gate,
		Progress: func(done, total int) {
			if !started {
				started = true
				if s.index.testHookFirstFile != nil {
					s.index.testHookFirstFile()
				}
				wd = s.startProgress(indexingTitle(total), nil, cancel)
			}
			wd.report(done, total)
		},
	}
	if !whole {
		opts.Paths = paths
	}
	res, err := index.Run(ctx, snap, s.trees(), opts)
	summary := fmt.Sprintf("%d of %d files parsed", res.Done, res.Files)
	switch {
	case errors.Is(err, context.Canceled):
		summary = "cancelled: the next query parses what it needs"
	case err != nil:
		s.log.Debug("background parsing failed", zap.Error(err))
		summary = "failed: the next query parses what it needs"
	case res.Full:
		summary += "; the parse cache is full (raise the parseCacheMB setting to keep more)"
	}
	wd.end(summary)
}

// backgroundParseSettingChanged follows the backgroundParse setting: turned
// off, the run in progress stops; turned on, every folder is parsed.
func (s *Server) backgroundParseSettingChanged(before, after workspace.Settings) {
	switch on := after.BackgroundParseEnabled(); {
	case !on:
		s.index.stop()
	case !before.BackgroundParseEnabled():
		s.index.want(true)
	}
}

// documentChanged tells the parse cache the new text of an open document,
// so its next parse is incremental; nil doc (closed) frees its tree.
func (s *Server) documentChanged(uri string, doc *workspace.Document) {
	if doc == nil {
		s.parseCache.CloseDocument(uri)
		return
	}
	if l := lang.ForPath(doc.Path); doc.Path != "" && l != nil {
		s.parseCache.SetDocument(uri, l.Grammar(), doc.Content)
	} else {
		s.parseCache.SetDocument(uri, nil, nil)
	}
}

// watchedFileChanged tells the parse cache's file stamps that a file
// changed on disk, whatever its stamp says, and asks for a file created or
// changed to be parsed again (a deleted file's trees age out of the cache
// by themselves).
func (s *Server) watchedFileChanged(uri string, changeType int) {
	path, err := workspace.URIToPath(uri)
	if err != nil {
		return
	}
	s.index.files.Forget(path)
	if changeType != int(protocol.FileChangeTypeDeleted) {
		s.filesChanged(path)
	}
}

// filesChanged forgets what the stamps of the changed files (absolute
// paths) said and asks for the files to be parsed again.
func (s *Server) filesChanged(paths ...string) {
	if len(paths) > 0 {
		s.index.files.Forget(paths...)
		s.index.want(false, paths...)
	}
}

// testHookServe, when set by a test, is given each new server as Serve
// starts it, so the test can read its counters.
var testHookServe func(*Server)

// plural returns one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// indexingTitle is the title of the background parse's progress.
func indexingTitle(files int) string {
	return fmt.Sprintf("Indexing %d %s", files, plural(files, "file", "files"))
}

// IsIndexingTitle reports whether a progress title is the background
// parse's ("Indexing N files"): for clients and benchmarks that wait for
// indexing to end.
func IsIndexingTitle(title string) bool {
	var files int
	var unit string
	_, err := fmt.Sscanf(title, "Indexing %d %s", &files, &unit)
	return err == nil && title == indexingTitle(files)
}
