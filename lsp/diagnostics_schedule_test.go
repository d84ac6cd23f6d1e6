package lsp

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/structls/structls/workspace"
)

// fakeDocs is a tiny overlay for the scheduler tests: the newest version of
// each open document.
type fakeDocs struct {
	mu   sync.Mutex
	docs map[string]*workspace.Document
}

func (f *fakeDocs) set(uri string, version int32) *workspace.Document {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.docs == nil {
		f.docs = map[string]*workspace.Document{}
	}
	d := &workspace.Document{URI: uri, Version: version}
	f.docs[uri] = d
	return d
}

func (f *fakeDocs) close(uri string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.docs, uri)
}

func (f *fakeDocs) current(uri string) *workspace.Document {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.docs[uri]
}

// waitFor polls cond until it holds; the deadline only keeps a hang from
// blocking the test run.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// TestSchedulerCoalescesChangesDuringACheck checks that changes made while
// a check runs cause exactly one more check, at the newest version, and
// never a second check of the same document at the same time.
func TestSchedulerCoalescesChangesDuringACheck(t *testing.T) {
	docs := &fakeDocs{}
	release := make(chan struct{})
	var mu sync.Mutex
	var checked []int32
	running := 0
	check := func(ctx context.Context, d *workspace.Document) {
		mu.Lock()
		running++
		if running > 1 {
			t.Errorf("two checks of %s at once", d.URI)
		}
		checked = append(checked, d.Version)
		first := len(checked) == 1
		mu.Unlock()
		if first {
			<-release
		}
		mu.Lock()
		running--
		mu.Unlock()
	}
	s := newCheckScheduler(context.Background(), time.Millisecond, docs.current, check)
	docs.set("file:///a.go", 1)
	s.changed("file:///a.go")
	waitFor(t, "the first check", func() bool { mu.Lock(); defer mu.Unlock(); return len(checked) == 1 })
	for v := int32(2); v <= 5; v++ {
		docs.set("file:///a.go", v)
		s.changed("file:///a.go")
	}
	waitFor(t, "the changes to be noted", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.docs["file:///a.go"].again
	})
	close(release)
	waitFor(t, "the second check", func() bool { mu.Lock(); defer mu.Unlock(); return len(checked) == 2 })
	time.Sleep(20 * time.Millisecond) // room for a wrong third check to show up
	mu.Lock()
	defer mu.Unlock()
	if len(checked) != 2 || checked[1] != 5 {
		t.Errorf("checked versions %v; want [1 5]", checked)
	}
}

// TestSchedulerChecksAtOnceThenDebouncesABurst checks the timing policy on
// a stopped clock: the first change after a quiet spell is checked at once;
// changes following it within the delay wait for the delay to pass, and
// are then checked once, at the newest version.
func TestSchedulerChecksAtOnceThenDebouncesABurst(t *testing.T) {
	docs := &fakeDocs{}
	var mu sync.Mutex
	var checked []int32
	s := newCheckScheduler(context.Background(), time.Hour, docs.current, func(_ context.Context, d *workspace.Document) {
		mu.Lock()
		defer mu.Unlock()
		checked = append(checked, d.Version)
	})
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { return clock }
	checks := func() []int32 { mu.Lock(); defer mu.Unlock(); return slices.Clone(checked) }
	idle := func() bool { s.mu.Lock(); defer s.mu.Unlock(); return !s.docs["file:///a.go"].running }

	docs.set("file:///a.go", 1)
	s.changed("file:///a.go")
	waitFor(t, "the first change to be checked at once", func() bool { return len(checks()) == 1 })
	waitFor(t, "the first check to end", idle)
	for v := int32(2); v <= 10; v++ {
		docs.set("file:///a.go", v)
		s.changed("file:///a.go")
	}
	time.Sleep(20 * time.Millisecond) // room for a wrong early check to show up
	if got := checks(); !slices.Equal(got, []int32{1}) {
		t.Fatalf("checked %v during a burst; want only [1] until the delay has passed", got)
	}
	s.mu.Lock()
	s.docs["file:///a.go"].timer.Reset(0) // the delay passes
	s.mu.Unlock()
	waitFor(t, "the burst to be checked", func() bool { return len(checks()) == 2 })
	waitFor(t, "the second check to end", idle)

	clock = clock.Add(2 * time.Hour)
	docs.set("file:///a.go", 11)
	s.changed("file:///a.go")
	waitFor(t, "the change after a quiet spell to be checked at once", func() bool { return len(checks()) == 3 })
	if got := checks(); !slices.Equal(got, []int32{1, 10, 11}) {
		t.Errorf("checked %v; want [1 10 11]", got)
	}
}

// TestSchedulerCancelsAnOutdatedCheck checks that a change cancels the
// running check of the version before it (its result could not be
// published), and that the newest version is checked after.
func TestSchedulerCancelsAnOutdatedCheck(t *testing.T) {
	docs := &fakeDocs{}
	started := make(chan int32, 2)
	cancelled := make(chan int32, 2)
	check := func(ctx context.Context, d *workspace.Document) {
		started <- d.Version
		if d.Version == 1 {
			<-ctx.Done()
			cancelled <- d.Version
		}
	}
	s := newCheckScheduler(context.Background(), time.Millisecond, docs.current, check)
	docs.set("file:///a.go", 1)
	s.changed("file:///a.go")
	if v := <-started; v != 1 {
		t.Fatalf("first check of version %d; want 1", v)
	}
	docs.set("file:///a.go", 2)
	s.changed("file:///a.go")
	receive := func(ch chan int32, what string) int32 {
		t.Helper()
		select {
		case v := <-ch:
			return v
		case <-time.After(20 * time.Second):
			t.Fatalf("no check %s", what)
			return 0
		}
	}
	if v := receive(cancelled, "cancelled"); v != 1 {
		t.Errorf("the check of version %d was cancelled; want version 1's", v)
	}
	if v := receive(started, "started after the change"); v != 2 {
		t.Errorf("checked version %d after the change; want 2", v)
	}
}

// TestSchedulerBoundsConcurrentChecks changes many documents at once (as a
// rules reload does): no more checks run at once than the scheduler has
// slots, and every document is checked.
func TestSchedulerBoundsConcurrentChecks(t *testing.T) {
	docs := &fakeDocs{}
	var mu sync.Mutex
	running, most, done := 0, 0, 0
	release := make(chan struct{})
	check := func(ctx context.Context, d *workspace.Document) {
		mu.Lock()
		running++
		most = max(most, running)
		mu.Unlock()
		<-release
		mu.Lock()
		running--
		done++
		mu.Unlock()
	}
	s := newCheckScheduler(context.Background(), time.Millisecond, docs.current, check)
	s.slots = make(chan struct{}, 2)
	const n = 10
	for i := range n {
		uri := fmt.Sprintf("file:///f%d.go", i)
		docs.set(uri, 1)
		s.changed(uri)
	}
	waitFor(t, "two checks to start", func() bool { mu.Lock(); defer mu.Unlock(); return running == 2 })
	close(release)
	waitFor(t, "every document to be checked", func() bool { mu.Lock(); defer mu.Unlock(); return done == n })
	if most != 2 {
		t.Errorf("%d checks ran at once; want at most 2 (the slots)", most)
	}
}

// TestSchedulerForgetsClosedDocuments checks that a closed document's
// pending check never runs and a running one is cancelled.
func TestSchedulerForgetsClosedDocuments(t *testing.T) {
	docs := &fakeDocs{}
	cancelled := make(chan struct{})
	started := make(chan struct{}, 1)
	check := func(ctx context.Context, d *workspace.Document) {
		started <- struct{}{}
		<-ctx.Done()
		close(cancelled)
	}
	s := newCheckScheduler(context.Background(), time.Millisecond, docs.current, check)
	docs.set("file:///a.go", 1)
	s.changed("file:///a.go")
	<-started
	docs.close("file:///a.go")
	s.forget("file:///a.go")
	select {
	case <-cancelled:
	case <-time.After(20 * time.Second):
		t.Fatal("the running check of a closed document was not cancelled")
	}

	never := newCheckScheduler(context.Background(), time.Hour, docs.current, func(context.Context, *workspace.Document) {
		t.Error("a check ran for a document closed before its delay ended")
	})
	docs.set("file:///b.go", 1)
	never.changed("file:///b.go")
	never.forget("file:///b.go")
	if len(never.docs) != 0 {
		t.Errorf("closed documents still scheduled: %v", never.docs)
	}
}

// TestPublishQueueNeverSendsStaleVersions checks the queue's guarantees:
// a publication of an older version is dropped when offered and when about
// to be sent, only the newest publication per document waits, and a clear
// of a closed document is dropped once the document is open again.
func TestPublishQueueNeverSendsStaleVersions(t *testing.T) {
	docs := &fakeDocs{}
	var sent []publication
	q := newPublishQueue(docs.current, func(p publication) { sent = append(sent, p) })
	drain := func() {
		for p, ok := q.next(); ok; p, ok = q.next() {
			q.send(p)
		}
	}
	v1 := docs.set("file:///a.go", 1)
	v2 := docs.set("file:///a.go", 2)
	if q.offer(publication{uri: "file:///a.go", doc: v1}) {
		t.Error("a publication of version 1 was queued after version 2 arrived")
	}
	first := []protocol.Diagnostic{{Message: protocol.String("first")}}
	second := []protocol.Diagnostic{{Message: protocol.String("second")}}
	if !q.offer(publication{uri: "file:///a.go", doc: v2, diagnostics: first}) {
		t.Fatal("a publication of the newest version was refused")
	}
	q.offer(publication{uri: "file:///a.go", doc: v2, diagnostics: second})
	drain()
	if len(sent) != 1 || sent[0].diagnostics[0].Message != protocol.String("second") {
		t.Errorf("sent %+v; want only the newest publication of version 2", sent)
	}

	sent = nil
	q.offer(publication{uri: "file:///a.go", doc: v2})
	docs.set("file:///a.go", 3) // arrives between queueing and sending
	drain()
	if len(sent) != 0 {
		t.Errorf("sent %+v after version 3 arrived; want nothing", sent)
	}

	docs.close("file:///a.go")
	if !q.offer(publication{uri: "file:///a.go"}) {
		t.Fatal("the clear of a closed document was refused")
	}
	docs.set("file:///a.go", 1) // reopened before the clear was sent
	drain()
	if len(sent) != 0 {
		t.Errorf("sent %+v; a clear must not reach a document opened again", sent)
	}
}
