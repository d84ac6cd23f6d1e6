package mcp

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// slowFiles is a workspace of n files each holding the driver's needle.
func slowFiles(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("f%03d.py", i)] = fmt.Sprintf("def f%d():\n    return 'needle'\n", i)
	}
	return files
}

// slowEvaluator burns some steps on each file, then returns more matches
// than a streamed batch holds (1,024), so the matches of every file reach
// the job while the run goes on.
const slowEvaluator = `x = 0
for i in range(300000):
    x += i
return {"matches": [{"line_number": 2, "n": j} for j in range(1100)], "value": None}`

// TestXRayInline answers within await_seconds, with the matches inline.
func TestXRayInline(t *testing.T) {
	h := start(t, map[string]string{"a.py": "def a():\n    return 'needle'\n", "b.py": "def b():\n    pass\n"}, harnessOptions{})
	r := h.ok("xray_search", map[string]any{"pattern": "needle"})
	if r.summary["state"] != "completed" || r.summary["matches"] != float64(1) || !strings.Contains(r.text, "# a.py\n2|    return 'needle'") {
		t.Errorf("%v\n%s", r.summary, r.text)
	}
	r = h.ok("xray_explore", map[string]any{"pattern": "needle", "max_debug_nodes": 5})
	if !strings.Contains(r.text, "  ast:\n") || !strings.Contains(r.text, "return_statement") {
		t.Errorf("explore: %s", r.text)
	}
	r = h.ok("xray_search_batch", map[string]any{"scans": []map[string]any{{"driver_regex": "needle", "name": "n"}, {"driver_regex": "pass"}}})
	if r.summary["matches"] != float64(2) || !strings.Contains(r.text, "scan: 0 n") {
		t.Errorf("batch: %v\n%s", r.summary, r.text)
	}
	r = h.call("xray_search", map[string]any{"pattern": "needle", "evaluator_code": "return {"})
	if !r.isError {
		t.Errorf("an evaluator that does not compile: %q", r.text)
	}
}

// waitFor polls cond until it holds, failing the test after a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within a minute", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestXRayJobPollCancel starts a long run as a job, polls it until it has
// partial results, cancels it, and finds what it found kept, marked
// cancelled.
func TestXRayJobPollCancel(t *testing.T) {
	h := start(t, slowFiles(400), harnessOptions{})
	r := h.ok("xray_search", map[string]any{"pattern": "needle", "evaluator_code": slowEvaluator, "await_seconds": 0})
	id, _ := r.summary["job_id"].(string)
	if id == "" || r.summary["state"] != "running" || !strings.Contains(r.text, "job_status") {
		t.Fatalf("no job: %v %q", r.summary, r.text)
	}
	var status reply
	waitFor(t, "partial results", func() bool {
		status = h.ok("job_status", map[string]any{"job_id": id})
		return status.summary["matches"].(float64) >= 1100
	})
	if status.summary["state"] != "running" {
		t.Fatalf("the job ended before it could be cancelled (make the run longer): %v", status.summary)
	}
	if !strings.Contains(status.text, "2|    return 'needle'\n  n=0\n") || status.nextSkip() < 0 {
		t.Errorf("a running job's page shows no match or no skip: %v\n%.300s", status.summary, status.text)
	}
	r = h.ok("cancel_job", map[string]any{"job_id": id})
	found := r.summary["matches"].(float64)
	if r.summary["state"] != "cancelled" || r.summary["cancelled"] != true || found < 1100 ||
		r.summary["filesEvaluated"].(float64) >= r.summary["candidates"].(float64) {
		t.Fatalf("after cancel_job: %v", r.summary)
	}
	// What was found stays, and pages to the end.
	pages := pageAll(t, h, "job_status", map[string]any{"job_id": id})
	n := 0
	for _, p := range pages {
		n += lines(p.text, "2|")
	}
	if float64(n) != found {
		t.Errorf("paged %d matches, the job has %v", n, found)
	}
	if last := pages[len(pages)-1].text; !strings.Contains(last, "Cancelled:") {
		t.Errorf("the last page does not say the run was cancelled: %q", last[max(0, len(last)-500):])
	}
}

// TestProgressNotifications sends a progress token with a long run and
// receives MCP progress notifications for it.
func TestProgressNotifications(t *testing.T) {
	h := start(t, slowFiles(400), harnessOptions{})
	r := h.callCtx(context.Background(), "xray_search", map[string]any{"pattern": "needle", "evaluator_code": slowEvaluator,
		"max_results": 8, "await_seconds": 120}, "tok-1")
	if r.isError || r.summary["state"] != "completed" {
		t.Fatalf("%v %q", r.summary, r.text)
	}
	if n := h.progressCount("tok-1"); n == 0 {
		t.Error("no progress notification for the call's token")
	}
	if n := h.progressCount("tok-other"); n != 0 {
		t.Errorf("%d notifications for a token never sent", n)
	}
}

// TestCancellationStopsTheWork cancels a call (notifications/cancelled)
// while it runs: the run stops, it does not go on to the end.
func TestCancellationStopsTheWork(t *testing.T) {
	h := start(t, slowFiles(400), harnessOptions{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		params := map[string]any{"pattern": "needle", "evaluator_code": slowEvaluator, "await_seconds": 120}
		_, err := h.cs.CallTool(ctx, callParams("xray_search", params, "tok-cancel"))
		if err == nil {
			t.Error("a cancelled call returned no error")
		}
	}()
	waitFor(t, "progress", func() bool { return h.progressCount("tok-cancel") > 0 })
	cancel()
	<-done
	var j *job
	waitFor(t, "job", func() bool {
		h.srv.jobs.mu.Lock()
		defer h.srv.jobs.mu.Unlock()
		if len(h.srv.jobs.order) > 0 {
			j = h.srv.jobs.order[0]
		}
		return j != nil
	})
	select {
	case <-j.done:
	case <-time.After(time.Minute):
		t.Fatal("the run did not stop within a minute of the cancellation")
	}
	sum := j.summary()
	if sum.State != jobCancelled || sum.FilesEvaluated >= sum.Candidates {
		t.Errorf("after notifications/cancelled: %+v", sum)
	}
}

// TestXRayHugeLineIsCut checks a match whose line alone is over the cap
// (a minified file) is cut on its page, which then moves on.
func TestXRayHugeLineIsCut(t *testing.T) {
	h := start(t, map[string]string{"min.js": "var a = '" + strings.Repeat("x", 100_000) + "needle';\n", "z.js": "needle();\n"}, harnessOptions{})
	pages := pageAll(t, h, "xray_search", map[string]any{"pattern": "needle", "await_seconds": 60})
	if len(pages) != 2 || !strings.Contains(pages[0].text, "cut: this entry alone is over 50 KB") || !strings.Contains(pages[1].text, "1|needle();") {
		t.Errorf("%d pages; first ends %q", len(pages), pages[0].text[max(0, len(pages[0].text)-300):])
	}
}
