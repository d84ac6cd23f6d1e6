package mcp

import (
	"fmt"
	"strings"

	"github.com/structls/structls/workspace"
)

// A job's reply: its state, its matches from skip on that fit in the cap,
// and once it has ended, how it ended.

// failure is the error a failed job ended with, as a tool error.
func (j *job) failure() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// summary is the job's structuredContent, without paging.
func (j *job) summary() jobSummary {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.summaryLocked()
}

func (j *job) summaryLocked() jobSummary {
	return jobSummary{JobID: j.id, State: j.state, Progress: j.progress, Matches: len(j.matches) + j.dropped,
		Candidates: j.tail.Candidates, FilesEvaluated: j.tail.FilesEvaluated, EvaluationErrors: len(j.tail.EvaluationErrors),
		Partial: j.tail.Partial, Timeout: j.tail.Timeout, Cancelled: j.tail.Cancelled}
}

// page renders the job's state and its matches from skip on that fit.
func (j *job) page(skip int) (string, jobSummary) {
	j.mu.Lock()
	defer j.mu.Unlock()
	sum := j.summaryLocked()
	sum.Skip = skip
	p := newPage()
	head := fmt.Sprintf("X-Ray job %s: %s", j.id, j.state)
	if j.state == jobRunning {
		head += fmt.Sprintf(" (%s; %d matches so far)", orStarting(j.progress), len(j.matches))
	}
	p.head(head + "\n\n")
	var headings workspace.FileHeadings
	file := ""
	start := min(skip, len(j.matches))
	shown := 0
	for _, m := range j.matches[start:] {
		var b strings.Builder
		h := headings
		if m.path != file {
			h.Write(&b, m.path)
		}
		b.WriteString(m.text)
		if !p.add(b.String()) {
			break
		}
		headings, file = h, m.path
		shown++
	}
	sum.Shown = shown
	var notes []string
	if len(j.matches) == 0 && j.state != jobRunning {
		notes = append(notes, "No matches found")
	}
	if j.err != nil {
		notes = append(notes, "Failed: "+j.err.Error())
	}
	if j.state != jobRunning {
		notes = append(notes, j.tailNotes()...)
	}
	next := start + shown
	more := ""
	switch {
	case next < len(j.matches):
		more = fmt.Sprintf("Showing matches %d-%d of %d; for the rest call job_status {job_id: %q} with", start+1, next, len(j.matches), j.id)
	case j.state == jobRunning:
		more = fmt.Sprintf("The job is still running; for the matches found next call job_status {job_id: %q} with", j.id)
	}
	if more != "" {
		sum.NextSkip = &next
	}
	return p.finish(notes, more, next), sum
}

// tailNotes describes the end of a finished run: its counts, flags,
// evaluation errors (at most 20), cell errors and warnings.
func (j *job) tailNotes() []string {
	t := j.tail
	notes := []string{fmt.Sprintf("%d matches; %d of %d candidate files evaluated; %d evaluation errors; %d files with metadata.",
		len(j.matches)+j.dropped, t.FilesEvaluated, t.Candidates, len(t.EvaluationErrors), len(t.FileMetadata))}
	switch {
	case t.Cancelled:
		notes = append(notes, "Cancelled: the matches are those found before the run was stopped (partial).")
	case t.Timeout:
		notes = append(notes, "Timeout: files not evaluated by timeout_seconds were left out (partial).")
	case t.MaxFilesReached:
		notes = append(notes, "max_results reached: only the first candidate files were evaluated (partial).")
	}
	if j.dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d matches past %d MB were counted but not kept: narrow the driver or the evaluator.", j.dropped, maxJobTextBytes>>20))
	}
	for i, e := range t.EvaluationErrors {
		if i == 20 {
			notes = append(notes, fmt.Sprintf("… and %d more evaluation errors", len(t.EvaluationErrors)-20))
			break
		}
		notes = append(notes, fmt.Sprintf("- %s: %s: %s", e.Path, e.ErrorType, workspace.FirstLine(e.ErrorMessage)))
	}
	for _, c := range t.CellErrors {
		notes = append(notes, "Cell error: "+string(c))
	}
	for _, w := range t.Warnings {
		notes = append(notes, "Note: "+w)
	}
	return notes
}

// orStarting says "starting" for a job that has reported no progress yet.
func orStarting(s string) string {
	if s == "" {
		return "starting"
	}
	return s
}
