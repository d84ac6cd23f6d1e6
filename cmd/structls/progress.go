package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// progressAfter is how long a command runs before its progress shows: a
// quick run stays silent, as most are.
const progressAfter = time.Second

// progressTick is how often the progress line is redrawn.
const progressTick = 100 * time.Millisecond

// progressTokens numbers the workDoneTokens of this process's commands.
var progressTokens atomic.Int64

// progressLine shows the progress of one command on a terminal, on one
// line of stderr: the server's title, a bar once the total is known, and
// its "12/25 files". It draws nothing until the command has run
// progressAfter, and clears its line when the command ends, so that what
// stays on the screen is the output. The server reports the progress
// (lsp/progress.go) under the workDoneToken the command is sent with.
type progressLine struct {
	term  io.Writer // stderr, a terminal
	width int       // the terminal's columns
	token string    // the workDoneToken, as JSON
	after time.Duration

	mu      sync.Mutex
	start   time.Time
	title   string
	message string
	percent int    // -1 until the total is known
	drawn   bool   // a line is on the screen
	shown   string // the line drawn last
	stop    chan struct{}
	stopped chan struct{}
}

// newProgressLine returns the progress line of a command whose stderr is
// stderr, or nil (no progress) when stderr is not a terminal, the
// terminal is dumb, or the output is for a program (--json).
func newProgressLine(stderr io.Writer, forProgram bool) *progressLine {
	f, ok := stderr.(*os.File)
	if forProgram || !ok || !isTerminal(f) || os.Getenv("TERM") == "dumb" {
		return nil
	}
	width := 80
	if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
		width = int(ws.Col)
	}
	token, _ := json.Marshal(fmt.Sprintf("structls-cli-%d-%d", os.Getpid(), progressTokens.Add(1)))
	return &progressLine{term: stderr, width: width, token: string(token), after: progressAfter, percent: -1}
}

// tokenString is the workDoneToken to send the command with.
func (p *progressLine) tokenString() string {
	var s string
	_ = json.Unmarshal([]byte(p.token), &s)
	return s
}

// notify takes a notification from the server: the $/progress of the
// command's token update the line.
func (p *progressLine) notify(method string, params json.RawMessage) {
	if method != "$/progress" {
		return
	}
	var msg struct {
		Token json.RawMessage
		Value struct {
			Kind, Title, Message string
			Percentage           *int
		}
	}
	if json.Unmarshal(params, &msg) != nil || string(msg.Token) != p.token {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch msg.Value.Kind {
	case "begin":
		p.title = msg.Value.Title
	case "report":
		p.message = msg.Value.Message
		if msg.Value.Percentage != nil {
			p.percent = *msg.Value.Percentage
		}
	}
}

// begin starts the clock and the redrawing.
func (p *progressLine) begin() {
	p.mu.Lock()
	p.start = time.Now()
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	p.mu.Unlock()
	go func() {
		defer close(p.stopped)
		tick := time.NewTicker(progressTick)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				return
			case now := <-tick.C:
				p.draw(now)
			}
		}
	}()
}

// end stops the redrawing and clears the line.
func (p *progressLine) end() {
	close(p.stop)
	<-p.stopped
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearLocked()
}

// draw redraws the line as of now, once the command has run p.after and
// the server has said what it does.
func (p *progressLine) draw(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Sub(p.start) < p.after || p.title == "" {
		return
	}
	text := p.text()
	if p.drawn && text == p.shown {
		return
	}
	fmt.Fprintf(p.term, "\r%s\x1b[K", text)
	p.drawn, p.shown = true, text
}

// text is the line: "Structural search [#####-----] 12/25 files", or
// without a known total "Searching… 1234 files", cut to the terminal.
func (p *progressLine) text() string {
	line := p.title + "…"
	if p.message != "" {
		line += " " + p.message
	}
	if p.percent >= 0 {
		bar := min(30, p.width-utf8.RuneCountInString(p.title)-len(p.message)-6)
		if bar >= 10 {
			full := bar * min(p.percent, 100) / 100
			line = fmt.Sprintf("%s [%s%s] %s", p.title, strings.Repeat("#", full), strings.Repeat("-", bar-full), p.message)
		}
	}
	if most := p.width - 1; utf8.RuneCountInString(line) > most { // the last column would wrap on some terminals
		line = string([]rune(line)[:most])
	}
	return line
}

// clearLocked erases the line, if one is drawn.
func (p *progressLine) clearLocked() {
	if p.drawn {
		io.WriteString(p.term, "\r\x1b[K")
		p.drawn = false
	}
}

// guard returns out, which the command's output goes to, made to clear
// the progress line before each write when out is the same terminal (the
// next tick draws the line again, below what was written).
func (p *progressLine) guard(out io.Writer) io.Writer {
	if p == nil {
		return out
	}
	if f, ok := out.(*os.File); !ok || !isTerminal(f) {
		return out
	}
	return guardedWriter{p: p, out: out}
}

type guardedWriter struct {
	p   *progressLine
	out io.Writer
}

func (g guardedWriter) Write(b []byte) (int, error) {
	g.p.mu.Lock()
	defer g.p.mu.Unlock()
	g.p.clearLocked()
	return g.out.Write(b)
}
