package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"time"

	"go.lsp.dev/protocol"
)

// Work-done progress for long commands. VS Code sends no workDoneToken with
// executeCommand, so the server creates one (window/workDoneProgress/create)
// when the client supports it, reports Begin {cancellable} → Report (at most
// every reportInterval) → End, and maps window/workDoneProgress/cancel back
// to the work's cancel function.

// reportInterval throttles progress reports.
const reportInterval = 150 * time.Millisecond

// progressTracker maps live tokens to the cancel function of their work.
type progressTracker struct {
	mu      sync.Mutex
	next    int
	cancels map[string]context.CancelFunc
}

func newProgressTracker() *progressTracker {
	return &progressTracker{cancels: map[string]context.CancelFunc{}}
}

// tokenKey canonicalises a JSON progress token (number or string) for lookup.
func tokenKey(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return "s:" + s
	}
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		return "n:" + strconv.FormatFloat(n, 'f', -1, 64)
	}
	return string(raw)
}

func tokenKeyOf(t protocol.ProgressToken) string {
	raw, err := protocol.Marshal(t)
	if err != nil {
		return ""
	}
	return tokenKey(raw)
}

func (p *progressTracker) cancel(key string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.cancels[key]; ok {
		c()
	}
}

// workDone is one piece of reported work. A nil *workDone reports nothing.
type workDone struct {
	s     *Server
	token protocol.ProgressToken
	key   string

	mu   sync.Mutex
	last time.Time
}

// startProgress begins progress for work that cancel stops. It uses the
// client's token when the request carried one, otherwise creates one if the
// client supports progress; it returns nil when progress cannot be shown.
func (s *Server) startProgress(ctx context.Context, title string, token protocol.ProgressToken, cancel context.CancelFunc) *workDone {
	if token == nil {
		s.mu.Lock()
		supported := s.caps.workDoneProgress
		s.mu.Unlock()
		if !supported {
			return nil
		}
		s.progress.mu.Lock()
		s.progress.next++
		token = protocol.String(fmt.Sprintf("structls-%d", s.progress.next))
		s.progress.mu.Unlock()
		if err := s.client.WorkDoneProgressCreate(ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
			return nil
		}
	}
	wd := &workDone{s: s, token: token, key: tokenKeyOf(token)}
	s.progress.mu.Lock()
	s.progress.cancels[wd.key] = cancel
	s.progress.mu.Unlock()
	yes := true
	wd.send(protocol.WorkDoneProgressBegin{Kind: "begin", Title: title, Cancellable: &yes})
	return wd
}

// report sends "done/total files", throttled; safe from many goroutines.
func (wd *workDone) report(done, total int) {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	now := time.Now()
	if now.Sub(wd.last) < reportInterval && done != total {
		wd.mu.Unlock()
		return
	}
	wd.last = now
	wd.mu.Unlock()
	msg := fmt.Sprintf("%d/%d files", done, total)
	pct := uint32(0)
	if total > 0 {
		pct = uint32(done * 100 / total)
	}
	wd.send(protocol.WorkDoneProgressReport{Kind: "report", Message: &msg, Percentage: &pct})
}

// end closes the progress with a summary and forgets its token.
func (wd *workDone) end(message string) {
	if wd == nil {
		return
	}
	wd.s.progress.mu.Lock()
	delete(wd.s.progress.cancels, wd.key)
	wd.s.progress.mu.Unlock()
	wd.send(protocol.WorkDoneProgressEnd{Kind: "end", Message: &message})
}

func (wd *workDone) send(value any) {
	raw, err := protocol.Marshal(value)
	if err != nil {
		return
	}
	_ = wd.s.client.Progress(wd.s.ctx, &protocol.ProgressParams{Token: wd.token, Value: raw})
}
