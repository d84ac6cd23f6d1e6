package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"sync"
	"time"

	"github.com/structls/structls/lsp/client"
)

// An X-Ray run may take minutes. It runs as a job: the call that starts it
// waits await_seconds, answering inline when the run is done by then, else
// with the job's id; job_status pages what the run has found so far, and
// cancel_job stops it, keeping what it found.

// Job states.
const (
	jobRunning   = "running"
	jobCompleted = "completed"
	jobFailed    = "failed"
	jobCancelled = "cancelled"
)

// maxJobs bounds the jobs kept; the oldest finished ones go first.
const maxJobs = 16

// maxJobTextBytes bounds the rendered matches one job keeps; matches past
// it are counted, not kept.
const maxJobTextBytes = 16 << 20

// job is one X-Ray run.
type job struct {
	id   string
	tool string
	done chan struct{} // closed when the run has ended
	stop chan struct{} // closed to stop the run
	once sync.Once

	mu       sync.Mutex
	state    string
	progress string
	forward  func(message string, pct, total float64) // the waiting call's progress, while it waits
	matches  []jobMatch
	kept     int // bytes of matches kept
	dropped  int // matches past maxJobTextBytes
	tail     xrayTail
	err      error
	started  time.Time
	ended    time.Time
}

// jobMatch is one match, rendered, with its file for the headings.
type jobMatch struct {
	path, text string
}

// cancel stops the run; what it found is kept.
func (j *job) cancel() { j.once.Do(func() { close(j.stop) }) }

// report records the run's progress and passes it on to a waiting call.
func (j *job) report(message string, pct, total float64) {
	j.mu.Lock()
	j.progress = message
	forward := j.forward
	j.mu.Unlock()
	if forward != nil {
		forward(message, pct, total)
	}
}

// addBatch keeps a batch of streamed matches, rendered.
func (j *job) addBatch(b client.PartialBatch) error {
	var matches []xrayMatch
	if err := json.Unmarshal(append(append([]byte{'['}, b.Matches...), ']'), &matches); err != nil {
		return err
	}
	j.add(matches)
	return nil
}

func (j *job) add(matches []xrayMatch) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, m := range matches {
		text := m.render()
		if j.kept+len(text) > maxJobTextBytes {
			j.dropped++
			continue
		}
		j.kept += len(text)
		j.matches = append(j.matches, jobMatch{path: m.Path, text: text})
	}
}

// finish records how the run ended.
func (j *job) finish(tail xrayTail, err error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.tail, j.err, j.ended = tail, err, time.Now()
	switch {
	case err != nil:
		j.state = jobFailed
	case tail.Cancelled:
		j.state = jobCancelled
	default:
		j.state = jobCompleted
	}
	close(j.done)
}

// jobs are the X-Ray jobs of a server.
type jobs struct {
	mu    sync.Mutex
	order []*job // oldest first
	byID  map[string]*job
}

func newJobs() *jobs { return &jobs{byID: map[string]*job{}} }

// start runs c on r as a new job.
func (js *jobs) start(r *root, tool string, c call) *job {
	id := make([]byte, 8)
	_, _ = rand.Read(id)
	j := &job{id: "xray-" + hex.EncodeToString(id), tool: tool, done: make(chan struct{}), stop: make(chan struct{}),
		state: jobRunning, started: time.Now()}
	js.mu.Lock()
	js.byID[j.id] = j
	js.order = append(js.order, j)
	js.evict()
	js.mu.Unlock()
	c.report, c.onBatch, c.stop = j.report, j.addBatch, j.stop
	go func() {
		var res xrayResult
		err := r.runInto(context.Background(), c, &res)
		if err == nil {
			j.add(res.Matches) // a batch of scans does not stream: its matches come in the reply
		}
		j.finish(res.xrayTail, err)
	}()
	return j
}

// evict drops the oldest finished jobs beyond maxJobs.
func (js *jobs) evict() {
	for i := 0; len(js.order) > maxJobs && i < len(js.order); {
		j := js.order[i]
		select {
		case <-j.done:
			delete(js.byID, j.id)
			js.order = append(js.order[:i], js.order[i+1:]...)
		default:
			i++
		}
	}
}

func (js *jobs) get(id string) (*job, bool) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j, ok := js.byID[id]
	return j, ok
}

// stopAll stops every running job and waits for them.
func (js *jobs) stopAll() {
	js.mu.Lock()
	all := append([]*job(nil), js.order...)
	js.mu.Unlock()
	for _, j := range all {
		j.cancel()
	}
	for _, j := range all {
		<-j.done
	}
}
