package xray

import (
	"context"
	"fmt"
	"sync"

	"go.starlark.net/starlark"
)

// PrintFunc receives what an evaluator prints: the file it ran on (its
// path relative to its folder) and the text of one print call. It may be
// called from several goroutines, one call at a time.
type PrintFunc func(path, text string)

type printKey struct{}

// WithPrint returns ctx carrying where the evaluators of a search run with
// it print to. Without one, print does nothing: an evaluator's output is
// its return value, and print is for finding out why an evaluator does not
// do what its author meant.
func WithPrint(ctx context.Context, print PrintFunc) context.Context {
	return context.WithValue(ctx, printKey{}, print)
}

// The print output a search passes on is bounded, so that an evaluator
// printing in a loop over every file cannot flood a log: what passes the
// bounds is dropped, and said to be once.
const (
	maxPrintLinesPerFile = 100
	maxPrintBytesPerFile = 16 << 10
	maxPrintBytesPerRun  = 1 << 20
)

// printLog passes one run's print output on, within the bounds.
type printLog struct {
	send    PrintFunc
	mu      sync.Mutex
	bytes   int  // passed on in this run
	dropped bool // the run's bound was reached, and said to be
}

func newPrintLog(ctx context.Context) *printLog {
	send, _ := ctx.Value(printKey{}).(PrintFunc)
	return &printLog{send: send}
}

// forFile returns the thread's Print for one file's evaluation.
func (l *printLog) forFile(path string) func(*starlark.Thread, string) {
	if l == nil || l.send == nil {
		return func(*starlark.Thread, string) {}
	}
	lines, bytes, dropped := 0, 0, false
	return func(_ *starlark.Thread, msg string) {
		lines++
		if lines > maxPrintLinesPerFile || bytes+len(msg) > maxPrintBytesPerFile {
			if !dropped {
				dropped = true
				l.pass(path, fmt.Sprintf("(print output of this file past %d lines or %d KiB is dropped)", maxPrintLinesPerFile, maxPrintBytesPerFile>>10))
			}
			return
		}
		bytes += len(msg)
		l.pass(path, msg)
	}
}

// pass sends one line on, unless the run's bound is reached.
func (l *printLog) pass(path, msg string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.bytes+len(msg) > maxPrintBytesPerRun {
		if !l.dropped {
			l.dropped = true
			l.send(path, fmt.Sprintf("(print output of this run past %d MiB is dropped)", maxPrintBytesPerRun>>20))
		}
		return
	}
	l.bytes += len(msg)
	l.send(path, msg)
}
