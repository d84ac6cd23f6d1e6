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

// Work-done progress for long commands. Once a command has run
// progressDelay, the server shows its progress: VS Code sends no
// workDoneToken with executeCommand, so the server creates one
// (window/workDoneProgress/create) when the client supports it, reports
// Begin {cancellable} → Report (at most every reportInterval; a percentage
// only once the total is known) → End, and maps
// window/workDoneProgress/cancel back to the work's cancel function.

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

// workDone is one piece of reported work. Progress starts only once the
// work has run progressDelay (as gopls does): a fast query shows no bar at
// all. A nil *workDone reports nothing.
type workDone struct {
	s      *Server
	title  string
	token  protocol.ProgressToken // the client's, or nil until created
	cancel context.CancelFunc
	timer  *time.Timer

	mu      sync.Mutex // orders begin, reports and end
	state   progressState
	key     string
	last    time.Time
	lastPct uint32
	count   fileCount
}

// fileCount is the files-done figure a progress shows. Reports come from
// several workers and may cross, so it keeps the most done reported. A new
// non-zero total starts a new stage, whose count starts again (X-Ray counts
// the files its driver searched, with total 0, then the candidates it
// evaluates); a report of total 0 once a total is known is a worker's late
// report from before it.
type fileCount struct {
	done  int // the most files done reported in this stage
	total int // the stage's total: 0 while unknown
}

// add takes a report and says whether it is current (false: drop it).
func (c *fileCount) add(done, total int) bool {
	if total == 0 && c.total > 0 {
		return false
	}
	if total != c.total {
		c.done, c.total = 0, total
	}
	c.done = max(c.done, done)
	return true
}

// progressState is where a workDone stands.
type progressState int

const (
	progressPending progressState = iota // waiting for progressDelay
	progressBegun                        // Begin sent: reports and End follow
	progressEnded                        // the work is over
)

// progressDelay is how long work runs before its progress is shown.
const progressDelay = 200 * time.Millisecond

// startProgress prepares progress for work that cancel stops, to begin
// after progressDelay. It uses the client's token when the request carried
// one, otherwise creates one then, if the client supports progress; it
// returns nil when progress cannot be shown.
func (s *Server) startProgress(title string, token protocol.ProgressToken, cancel context.CancelFunc) *workDone {
	if token == nil {
		s.mu.Lock()
		supported := s.caps.workDoneProgress
		s.mu.Unlock()
		if !supported {
			return nil
		}
	}
	wd := &workDone{s: s, title: title, token: token, cancel: cancel}
	wd.timer = time.AfterFunc(progressDelay, wd.begin)
	return wd
}

// begin creates the token if needed and sends Begin, unless the work has
// ended meanwhile.
func (wd *workDone) begin() {
	token := wd.token
	if token == nil {
		s := wd.s
		s.progress.mu.Lock()
		s.progress.next++
		token = protocol.String(fmt.Sprintf("structls-%d", s.progress.next))
		s.progress.mu.Unlock()
		if err := s.client.WorkDoneProgressCreate(s.ctx, &protocol.WorkDoneProgressCreateParams{Token: token}); err != nil {
			return
		}
	}
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if wd.state != progressPending {
		return
	}
	wd.token, wd.key, wd.state = token, tokenKeyOf(token), progressBegun
	wd.s.progress.mu.Lock()
	wd.s.progress.cancels[wd.key] = wd.cancel
	wd.s.progress.mu.Unlock()
	yes := true
	wd.send(protocol.WorkDoneProgressBegin{Kind: "begin", Title: wd.title, Cancellable: &yes})
}

// report sends the files done (see fileCount), throttled; safe from many
// goroutines. A percentage goes with it only when total is known (not 0),
// and never goes backwards.
func (wd *workDone) report(done, total int) {
	if wd == nil {
		return
	}
	wd.mu.Lock()
	defer wd.mu.Unlock()
	if !wd.count.add(done, total) {
		return
	}
	now := time.Now()
	if wd.state != progressBegun || now.Sub(wd.last) < reportInterval && done != total {
		return
	}
	wd.last = now
	report := protocol.WorkDoneProgressReport{Kind: "report"}
	msg := fmt.Sprintf("%d files", wd.count.done)
	if total > 0 {
		msg = fmt.Sprintf("%d/%d files", wd.count.done, total)
		wd.lastPct = max(wd.lastPct, uint32(min(wd.count.done, total)*100/total))
		pct := wd.lastPct
		report.Percentage = &pct
	}
	report.Message = &msg
	wd.send(report)
}

// end closes the progress with a summary, if it has begun, and forgets its
// token; progress that has not begun never will.
func (wd *workDone) end(message string) {
	if wd == nil {
		return
	}
	wd.timer.Stop()
	wd.mu.Lock()
	defer wd.mu.Unlock()
	begun := wd.state == progressBegun
	wd.state = progressEnded
	if !begun {
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
