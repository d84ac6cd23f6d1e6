// Package lsp is the protocol boundary of structls: the only package that
// speaks LSP (go.lsp.dev/protocol and jsonrpc2). It decodes requests, keeps
// the workspace state in step with the client's notifications, runs the
// engines on snapshots and encodes their results. Engines never see a
// protocol type.
//
// One file per LSP feature: handler.go (the message chain), lifecycle.go,
// textsync.go, config.go, watch.go, progress.go, command.go (and one file per
// command), inprocess.go (a server and its client, lsp/client, joined in one
// process: the CLI, the MCP server and the tests).
package lsp

import (
	"context"
	"io"
	"runtime"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/zap"

	"github.com/structls/structls/outline"
	"github.com/structls/structls/rewrite"
	"github.com/structls/structls/syntax"
	"github.com/structls/structls/workspace"
)

// Options configure a server.
type Options struct {
	Logger  *zap.Logger      // server log (stderr or a file); nil: no log
	Level   *zap.AtomicLevel // its level, changed by the logLevel setting; may be nil
	Version string           // reported in serverInfo
	// Parse is how this server's parses use memory (the parse budget, the
	// arenas kept from file to file), set on the context all its work
	// derives from (syntax.WithParseOptions); the zero value is a
	// long-lived server's defaults. A one-shot command that must stay
	// small sets less.
	Parse syntax.ParseOptions
	// ConfigAnywhere lets structls.scan's config name an sgconfig.yml
	// outside the workspace folders: for the command line, whose user
	// names it (-c), and the shared server of that user's command lines.
	// An editor or an agent, whose arguments may come from a repository
	// anyone wrote, gets a config inside the folders only.
	ConfigAnywhere bool
}

// serverState is the lifecycle position of the server.
type serverState int

const (
	stateNew         serverState = iota // before initialize: requests get ServerNotInitialized
	stateInitialized                    // initialize answered
	stateShutdown                       // shutdown answered: only exit is accepted
)

// Server is one LSP session. All of its state lives here; the mutex placed
// before a group of fields guards that group.
type Server struct {
	log   *zap.Logger
	level *zap.AtomicLevel
	opts  Options

	conn     jsonrpc2.Conn
	client   protocol.Client
	inflight inflightCalls
	running  sync.WaitGroup // commands in flight; shutdown waits for them
	requests chan struct{}  // semaphore bounding concurrent requests

	// ctx lives as long as the connection; cancelled on exit so no work outlives it.
	ctx    context.Context
	cancel context.CancelFunc

	overlay    *workspace.Overlay
	progress   *progressTracker
	parseCache *syntax.Cache  // flat trees kept between queries
	warmer     *warmer        // background parsing into parseCache (warmup.go)
	edits      *rewrite.Store // rewrite previews waiting to be applied
	diag       *diagnostics   // live diagnostics of the open documents
	rules      *rulesState    // each folder's ast-grep rules, for the diagnostics
	symbols    *outline.Index // workspace/symbol's index of every file's symbols
	notes      chan note      // window/logMessage notes, in the order they were made

	stateMu sync.Mutex
	state   serverState

	initializedOnce sync.Once     // the initialized notification is acted on once
	exitCh          chan struct{} // closed by the exit notification

	watchMu  sync.Mutex // serialises file watcher (re)registrations
	watching bool       // the watchers are registered

	mu           sync.Mutex
	folders      []workspace.Folder
	initSettings workspace.Settings // from initializationOptions.structls
	settings     workspace.Settings // initSettings overlaid by workspace/configuration
	enc          workspace.Encoding
	caps         clientCaps
	configReady  chan struct{}   // closed once the first configuration pull is done
	settingNotes map[string]bool // settings problems already shown to the user
}

// clientCaps are the client capabilities the server acts on.
type clientCaps struct {
	workDoneProgress      bool
	configuration         bool
	dynamicWatchedFiles   bool
	relativePatterns      bool
	workspaceFolderEvents bool
	applyEdit             bool // workspace.applyEdit: the client applies WorkspaceEdits itself
	documentChanges       bool // workspace.workspaceEdit.documentChanges: versioned edits
	changeAnnotations     bool // workspace.workspaceEdit.changeAnnotationSupport
	codeActionResolve     bool // textDocument.codeAction.resolveSupport lists "edit"
	pullDiagnostics       bool // textDocument.diagnostic: the client pulls diagnostics
	diagnosticRefresh     bool // workspace.diagnostics.refreshSupport
	hierarchicalSymbols   bool // textDocument.documentSymbol.hierarchicalDocumentSymbolSupport
}

// Serve runs one session over rwc until the client sends exit or closes the
// stream, and returns the process exit code the LSP specification asks for:
// 0 after shutdown, 1 otherwise.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) int {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	s := &Server{
		log:         opts.Logger,
		level:       opts.Level,
		opts:        opts,
		requests:    make(chan struct{}, 2*runtime.GOMAXPROCS(0)),
		overlay:     workspace.NewOverlay(),
		parseCache:  syntax.NewCache(workspace.DefaultParseCacheMB << 20),
		warmer:      newWarmer(),
		symbols:     outline.NewIndex(),
		progress:    newProgressTracker(),
		exitCh:      make(chan struct{}),
		configReady: make(chan struct{}),
		notes:       make(chan note, maxQueuedNotes),
	}
	s.parseCache.PaceGC()
	s.edits = rewrite.NewStore(rewrite.DefaultStoreLimits, s.logDroppedEdit)
	s.ctx, s.cancel = context.WithCancel(syntax.WithParseOptions(ctx, opts.Parse))
	defer s.cancel()
	if testHookServe != nil {
		testHookServe(s)
	}
	s.conn = jsonrpc2.NewConn(newHeaderStream(rwc, s.log), jsonrpc2.WithPreempter(s))
	s.client = protocol.ClientDispatcher(s.conn)
	s.startDiagnostics()
	s.conn.Go(s.ctx, s.handle)
	go s.sendNotes()

	select {
	case <-s.exitCh:
	case <-s.conn.Done():
	}
	s.cancel() // stop any work still running before the connection drains
	s.closeConn(rwc)
	if s.currentState() == stateShutdown {
		return 0
	}
	return 1
}

// closeWait bounds how long Serve waits for the connection to wind down
// after exit. The read loop may be blocked on a stream that cannot be
// interrupted (stdin that the client keeps open): Serve then returns anyway,
// so the process ends within a second of exit, as clients expect.
const closeWait = 500 * time.Millisecond

// closeConn closes the stream and waits, at most closeWait, for the
// connection to finish.
func (s *Server) closeConn(rwc io.Closer) {
	_ = rwc.Close() // unblocks the read loop where the stream allows it
	closed := make(chan struct{})
	go func() {
		_ = s.conn.Close()
		close(closed)
	}()
	select {
	case <-closed:
		if err := s.conn.Err(); err != nil {
			s.log.Debug("connection ended", zap.Error(err))
		}
	case <-time.After(closeWait):
		s.log.Debug("the input stream is still open after exit; ending the session without it")
	}
}

func (s *Server) currentState() serverState {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	return s.state
}

func (s *Server) setState(st serverState) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.state = st
}

// snapshotParts captures, in message order, what a request must see: the
// folders and the open documents. Settings are read later, once the
// configuration pull has finished (see settingsForRequest).
func (s *Server) snapshotParts() ([]workspace.Folder, map[string]*workspace.Document, workspace.Encoding) {
	s.mu.Lock()
	folders, enc := append([]workspace.Folder(nil), s.folders...), s.enc
	s.mu.Unlock()
	return folders, s.overlay.Documents(), enc
}

// note is one window/logMessage waiting to be sent.
type note struct {
	typ protocol.MessageType
	msg string
}

// maxQueuedNotes bounds the notes waiting for the client; past it, notes
// reach only the server log.
const maxQueuedNotes = 256

// logMessage shows a note in the client's output panel. Notes are queued and
// sent by one goroutine, so they arrive in the order they were made and the
// caller (often the read loop) never waits on the client. A note reaches the
// server log only at debug level: at the default level a session writes
// nothing to stderr (Neovim shows every stderr line as an error).
func (s *Server) logMessage(typ protocol.MessageType, msg string) {
	s.log.Debug("logMessage", zap.String("message", msg))
	select {
	case s.notes <- note{typ, msg}:
	default:
		s.log.Debug("logMessage dropped: the client is not reading", zap.String("message", msg))
	}
}

// sendNotes sends the queued notes, in order, until the session ends.
func (s *Server) sendNotes() {
	for {
		select {
		case n := <-s.notes:
			_ = s.client.LogMessage(s.ctx, &protocol.LogMessageParams{Type: n.typ, Message: n.msg})
		case <-s.ctx.Done():
			return
		}
	}
}
