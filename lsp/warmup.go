package lsp

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/lang"
	"github.com/structls/structls/parsecache"
	"github.com/structls/structls/warmup"
	"github.com/structls/structls/workspace"
)

// Background parsing (issue 14): once initialized (and the configuration
// pulled), the server parses every file of the workspace into the parse
// cache with package warmup, so that the first structural query finds its
// trees ready. It runs again over the files that change (watched-file
// events, didSave) and over every folder when the folders change or the
// setting is turned on. Requests pause it (warmup.Gate), the user may cancel
// it from its progress ("Indexing N files"), and the backgroundParse setting
// turns it off. A query that comes first parses what is not cached yet
// in its languages and paths, the files its pattern cannot match included,
// and caches those trees while the cache has room (pushing none out), so
// the next query finds them whatever the state of background parsing; the run then
// passes over those files unread while they are unchanged. The cache is
// keyed by content, so both give the same trees.
//
// Open documents: the cache is told of every version (SetDocument), so that
// a version's first parse reparses the previous version's tree
// incrementally, and frees that tree on didClose.

// warmer is the server's background parsing state.
type warmer struct {
	gate  warmup.Gate           // requests hold it busy
	wake  chan struct{}         // a run is wanted (buffered: one wake-up is enough)
	files *parsecache.FileTrees // which content each file on disk had when its tree was cached

	mu      sync.Mutex
	whole   bool               // a run over every folder is wanted
	paths   []string           // files changed since the last run was taken
	running bool               // a run has been taken and has not ended
	cancel  context.CancelFunc // stops the run in progress; nil between runs
	runs    int                // runs finished, for tests

	testHookFirstFile func() // when set by a test, called once a run has parsed its first file
}

// newWarmer returns the warmer of a new server. Its first run, over
// every folder, is wanted from the start (startBackgroundParse starts it
// once the configuration is known), so that a query arriving before it
// starts already leaves the filling of the cache to it (pending).
func newWarmer() *warmer {
	return &warmer{wake: make(chan struct{}, 1), files: parsecache.NewFileTrees(), whole: true}
}

// trees returns what queries keep between them: the parse cache and the
// stamps of the files whose trees it holds; and whether background parsing
// is filling the cache, so that a query leaves that to it.
func (s *Server) trees() parsecache.Trees {
	settings := s.currentSettings()
	background := settings.BackgroundParseEnabled() && settings.EffectiveParseCacheBytes() > 0 && s.warmer.pending()
	return parsecache.Trees{Cache: s.parseCache, Files: s.warmer.files, Background: background}
}

// want asks for a run over every folder (whole) or over paths.
func (w *warmer) want(whole bool, paths ...string) {
	w.mu.Lock()
	w.whole = w.whole || whole
	w.paths = append(w.paths, paths...)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// take returns what the next run should cover, and forgets it.
func (w *warmer) take() (whole bool, paths []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	whole, paths = w.whole, w.paths
	w.whole, w.paths = false, nil
	w.running = whole || len(paths) > 0
	return whole, paths
}

// pending reports whether a run is wanted or under way.
func (w *warmer) pending() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.whole || len(w.paths) > 0 || w.running
}

// stop cancels the run in progress, if any.
func (w *warmer) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cancel != nil {
		w.cancel()
	}
}

// finishedRuns returns how many runs have ended, for tests.
func (w *warmer) finishedRuns() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.runs
}

// startBackgroundParse starts the worker, after the first configuration
// pull: it parses every folder now, and runs again whenever asked.
func (s *Server) startBackgroundParse() {
	s.warmer.want(true)
	go func() {
		for {
			select {
			case <-s.warmer.wake:
			case <-s.ctx.Done():
				return
			}
			if whole, paths := s.warmer.take(); whole || len(paths) > 0 {
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
		s.warmer.mu.Lock()
		s.warmer.cancel, s.warmer.running = nil, false
		s.warmer.runs++
		s.warmer.mu.Unlock()
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
	s.warmer.mu.Lock()
	s.warmer.cancel = cancel
	s.warmer.mu.Unlock()
	if !s.currentSettings().BackgroundParseEnabled() { // turned off before stop could see this run
		return
	}
	// The progress starts with the first file parsed, not before: a run held
	// back from the start by a request shows nothing while it waits.
	var wd *workDone
	started := false
	opts := warmup.Options{
		Gate: &s.warmer.gate,
		Progress: func(done, total int) {
			if !started {
				started = true
				if s.warmer.testHookFirstFile != nil {
					s.warmer.testHookFirstFile()
				}
				wd = s.startProgress(warmupTitle(total), nil, cancel)
			}
			wd.report(done, total)
		},
	}
	if !whole {
		opts.Paths = paths
	}
	res, err := warmup.Run(ctx, snap, s.trees(), opts)
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
		s.warmer.stop()
	case !before.BackgroundParseEnabled():
		s.warmer.want(true)
	}
}

// parseDocument tells the parse cache the new text of an open document,
// so its next parse is incremental; nil doc (closed) frees its tree.
func (s *Server) parseDocument(uri string, doc *workspace.Document) {
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
	s.warmer.files.Forget(path)
	if changeType != int(protocol.FileChangeTypeDeleted) {
		s.filesChanged(path)
	}
}

// filesChanged forgets what the stamps of the changed files (absolute
// paths) said and asks for the files to be parsed again.
func (s *Server) filesChanged(paths ...string) {
	if len(paths) > 0 {
		s.warmer.files.Forget(paths...)
		s.warmer.want(false, paths...)
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

// warmupTitle is the title of the background parse's progress. The user
// reads "Indexing"; in the code "index" names only workspace/symbol's
// index (outline.Index).
func warmupTitle(files int) string {
	return fmt.Sprintf("Indexing %d %s", files, plural(files, "file", "files"))
}

// IsWarmupTitle reports whether a progress title is the background
// parse's ("Indexing N files"): for clients and benchmarks that wait for
// it to end.
func IsWarmupTitle(title string) bool {
	var files int
	var unit string
	_, err := fmt.Sscanf(title, "Indexing %d %s", &files, &unit)
	return err == nil && title == warmupTitle(files)
}
