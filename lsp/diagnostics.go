package lsp

import (
	"context"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/zap"

	"github.com/structls/structls/rules"
	"github.com/structls/structls/workspace"
)

// Live diagnostics: every open document is checked against the ast-grep
// rules of its workspace folder (diagnostics_rules.go) as it changes, on the
// overlay, and the findings reach the client one of two ways, never both
// (both would show each finding twice in VS Code, which keeps pulled and
// pushed diagnostics apart):
//
//   - pull (LSP 3.17 textDocument/diagnostic), when the client declares
//     textDocument.diagnostic: the server declares diagnosticProvider and
//     checks a document when the client asks (diagnostics_pull.go). This is
//     what rust-analyzer does for its own diagnostics and ruff's server does.
//   - push (textDocument/publishDiagnostics) otherwise: each change is
//     checked in the background (diagnostics_schedule.go: debounced,
//     coalesced, never stale) and the result published with its version;
//     closing a document clears its diagnostics.
//
// Either way the newest report per document is kept, for the quick fixes
// (codeaction.go) and for a pull that finds nothing changed.

// diagnosticSource is the source of every diagnostic structls reports.
const diagnosticSource = "structls"

// diagnostics is the live diagnostics state of a session.
type diagnostics struct {
	scheduler *checkScheduler
	queue     *publishQueue
	reportIDs atomic.Uint64 // numbers the reports (the pull model's result ids)

	mu        sync.Mutex
	known     map[string]*workspace.Document // the open documents, as documentChanged last told
	reports   map[string]*documentReport     // the newest report of each open document
	published map[string]*documentReport     // the report last queued for publication, per document
}

// documentReport is the outcome of checking one version of a document
// against one generation of its folder's rules.
type documentReport struct {
	doc         *workspace.Document
	id          uint64 // unique in the session
	generation  uint64 // of the rules (rulesState.generation) it was checked with
	enc         workspace.Encoding
	findings    []rules.Finding
	diagnostics []protocol.Diagnostic
	fixes       []diagnosticFix // every fix of every shown finding, in scan order
}

// diagnosticFix is one fix of a finding, in the document's positions.
type diagnosticFix struct {
	finding    int // the index of the finding's diagnostic in the report
	ruleID     string
	title      string          // the fix's own title ("" for a rule with a single fix)
	diagnostic workspace.Range // the range of the diagnostic it fixes
	edit       workspace.Range
	bytes      workspace.ByteRange // edit, in bytes
	before     string              // the text it replaces
	text       string
}

// startDiagnostics sets up the diagnostics of a new session.
func (s *Server) startDiagnostics() {
	d := &diagnostics{known: map[string]*workspace.Document{}, reports: map[string]*documentReport{},
		published: map[string]*documentReport{}}
	d.queue = newPublishQueue(s.overlay.Get, s.sendDiagnostics)
	d.scheduler = newCheckScheduler(s.ctx, diagnosticsDelay, s.overlay.Get, s.checkAndPublish)
	s.diag = d
	s.rules = newRulesState(s.projectLoaded)
	go d.queue.run(s.ctx)
}

// pullsDiagnostics reports whether the client pulls diagnostics itself.
func (s *Server) pullsDiagnostics() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps.pullDiagnostics
}

// diagnoseDocument follows one change of the overlay (documentChanged, on
// the read loop, in order): a new or changed document is scheduled for a
// check, a closed one forgotten and, when the server pushes, its
// diagnostics cleared.
func (s *Server) diagnoseDocument(u string, doc *workspace.Document) {
	push := !s.pullsDiagnostics()
	d := s.diag
	d.mu.Lock()
	defer d.mu.Unlock()
	if doc != nil {
		d.known[u] = doc
		if push {
			d.scheduler.changed(u)
		}
		return
	}
	if d.known[u] == nil {
		return // closed without being open
	}
	delete(d.known, u)
	delete(d.reports, u)
	delete(d.published, u)
	d.scheduler.forget(u)
	if push {
		d.queue.offer(publication{uri: u})
	}
}

// refreshDiagnostics re-checks every open document, after the rules changed:
// a pushing server checks them again, a pulling client is asked to pull
// again (when it can be asked).
func (s *Server) refreshDiagnostics() {
	if s.pullsDiagnostics() {
		s.mu.Lock()
		can := s.caps.diagnosticRefresh
		s.mu.Unlock()
		if can {
			go func() {
				if err := s.client.DiagnosticRefresh(s.ctx); err != nil && s.ctx.Err() == nil {
					s.log.Debug("workspace/diagnostic/refresh failed", zap.Error(err))
				}
			}()
		}
		return
	}
	for u := range s.overlay.Documents() {
		s.diag.scheduler.changed(u)
	}
}

// checkAndPublish checks one version of a document and queues its
// diagnostics for publication (dropped there if the document moved on). A
// report is published once: a second check of the same version and rules
// (a debounce timer firing as its check began) sends nothing.
func (s *Server) checkAndPublish(ctx context.Context, doc *workspace.Document) {
	report := s.reportFor(ctx, doc)
	if report == nil || report.generation != s.rules.projects.Generation() {
		return // cancelled, or the rules changed meanwhile: the check that follows publishes
	}
	d := s.diag
	d.mu.Lock()
	again := d.published[doc.URI] == report
	if !again && d.known[doc.URI] != nil {
		d.published[doc.URI] = report
	}
	d.mu.Unlock()
	if !again {
		d.queue.offer(publication{uri: doc.URI, doc: doc, diagnostics: report.diagnostics})
	}
}

// reportFor returns the report of this version of the document: the kept
// one when it is of this version and of the current rules, else a new
// check's, which is kept if the document has not moved on. It returns nil
// when the check was cancelled.
func (s *Server) reportFor(ctx context.Context, doc *workspace.Document) *documentReport {
	generation := s.rules.projects.Generation()
	d := s.diag
	d.mu.Lock()
	kept := d.reports[doc.URI]
	d.mu.Unlock()
	if kept != nil && kept.doc == doc && kept.generation == generation {
		return kept
	}
	report, err := s.checkDocument(ctx, doc, generation)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Debug("checking a document failed", zap.String("uri", doc.URI), zap.Error(err))
		}
		return nil
	}
	d.mu.Lock()
	if s.overlay.Get(doc.URI) == doc {
		d.reports[doc.URI] = report
	}
	d.mu.Unlock()
	return report
}

// sendDiagnostics sends one publication (from the publish queue's goroutine).
func (s *Server) sendDiagnostics(p publication) {
	params := &protocol.PublishDiagnosticsParams{URI: uri.URI(p.uri), Diagnostics: []protocol.Diagnostic{}}
	if p.doc != nil {
		params.Version = protocol.NewOptional(p.doc.Version)
		if p.diagnostics != nil {
			params.Diagnostics = p.diagnostics
		}
	}
	if err := s.client.PublishDiagnostics(s.ctx, params); err != nil && s.ctx.Err() == nil {
		s.log.Debug("publishing diagnostics failed", zap.String("uri", p.uri), zap.Error(err))
	}
}
