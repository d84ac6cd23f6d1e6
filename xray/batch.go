package xray

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"time"

	"github.com/structls/structls/engine"
	"github.com/structls/structls/workspace"
)

// Scan is one scan of a batch: code-indexer's repositories × scans matrix
// maps onto workspace folders × scans.
type Scan struct {
	Driver        string `json:"driver"`
	Evaluator     string `json:"evaluator,omitempty"`
	EvaluatorName string `json:"evaluatorName,omitempty"` // .structls/xray/NAME.star in each folder
	Target        string `json:"target,omitempty"`
	Name          string `json:"name,omitempty"`
}

// CellError is a batch cell (one folder, one scan) that could not run; the
// other cells still do.
type CellError struct {
	Folder    string `json:"folder"`
	ScanIndex int    `json:"scanIndex"`
	ScanName  string `json:"scanName,omitempty"`
	Message   string `json:"message"`
}

// MaxScans caps the scans of a batch.
const MaxScans = 50

// namedEvaluatorDir is where a folder keeps its named evaluators.
const namedEvaluatorDir = ".structls/xray"

var evaluatorNamePattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]*$`)

// validateScans checks a batch before any cell runs: inline evaluators
// are compiled, so bad code fails the whole request as a single query does.
func validateScans(q Query, limits Limits) error {
	switch {
	case q.Driver != "" || q.Evaluator != "" || q.Target != "":
		return invalidf("give either driver (with evaluator, target) or scans, not both: a batch's scans carry their own")
	case len(q.Scans) > MaxScans:
		return invalidf("a batch has at most %d scans (got %d)", MaxScans, len(q.Scans))
	case len(q.Paths) > 0:
		return invalidf("paths do not apply to a batch: its scans run over every workspace folder (use globs to narrow)")
	}
	for i, s := range q.Scans {
		switch {
		case s.Driver == "":
			return invalidf("scans[%d]: driver must not be empty", i)
		case s.Evaluator != "" && s.EvaluatorName != "":
			return invalidf("scans[%d]: give evaluator or evaluatorName, not both", i)
		case s.EvaluatorName != "" && !evaluatorNamePattern.MatchString(s.EvaluatorName):
			return invalidf("scans[%d]: evaluatorName %q must be a plain name (letters, digits, _ . -): the file %s/NAME.star", i, s.EvaluatorName, namedEvaluatorDir)
		}
		if s.Evaluator != "" {
			if _, err := Compile(s.Evaluator, limits); err != nil {
				return invalidf("scans[%d]: %v", i, err)
			}
		}
	}
	return nil
}

// searchBatch runs every scan over every folder, one cell at a time (each
// cell evaluates its files in parallel). Matches and evaluation errors are
// tagged with their cell; a cell that cannot run is a CellError.
func searchBatch(ctx context.Context, env engine.Env, q Query, set settings, limits Limits) (*Result, error) {
	snap, progress := env.Snapshot, env.Progress
	if err := validateScans(q, limits); err != nil {
		return nil, err
	}
	run, stop := context.WithTimeout(ctx, time.Duration(set.timeoutMs)*time.Millisecond)
	defer stop()
	res := emptyResult()
	res.CellErrors = []CellError{}
	total := len(snap.Folders) * len(q.Scans)
	output := 0 // about the bytes of the cells' output so far
	for f, folder := range snap.Folders {
		for i, scan := range q.Scans {
			if run.Err() != nil || res.OutputLimitReached {
				break
			}
			cell := q
			cell.Scans, cell.Driver, cell.Target, cell.Paths = nil, scan.Driver, scan.Target, []string{folder.URI}
			cell.Evaluator, cell.Format = scan.Evaluator, ""

			cellErr := func(msg string) {
				res.CellErrors = append(res.CellErrors, CellError{Folder: folder.Name, ScanIndex: i, ScanName: scan.Name, Message: msg})
			}
			if scan.EvaluatorName != "" {
				code, err := namedEvaluator(run, snap, folder, scan.EvaluatorName)
				if run.Err() != nil {
					break // stopped or out of time while reading it: not the cell's fault
				}
				if err != nil {
					cellErr(err.Error())
					continue
				}
				cell.Evaluator = code
			}
			cellEnv := env
			cellEnv.Progress = nil
			out, size, err := searchSized(run, cellEnv, cell, limits, nil)
			switch {
			case ctx.Err() != nil && !workspace.StoppedByUser(ctx):
				return nil, ctx.Err()
			case err != nil:
				cellErr(err.Error())
				continue
			}
			res.add(out, i, scan.Name, folder.Name)
			output += size
			if output > maxRunOutputKept && !res.OutputLimitReached {
				// Each cell is held whole: the next would add as much again.
				res.OutputLimitReached = true
				res.Warnings = append(res.Warnings, fmt.Sprintf("the output passed its limit of %d MiB after folder %s, scan %d; the cells after it did not run: narrow the scans' drivers or globs",
					maxRunOutputKept>>20, folder.Name, i))
			}
			if progress != nil {
				progress(f*len(q.Scans)+i+1, total)
			}
		}
	}
	res.Timeout = res.Timeout || errors.Is(run.Err(), context.DeadlineExceeded)
	res.Cancelled = workspace.StoppedByUser(ctx)
	res.Partial = res.Partial || res.Timeout || res.Cancelled || res.OutputLimitReached || len(res.CellErrors) > 0
	res.MatchCount = len(res.Matches)
	res.Matches = res.Matches[min(q.Skip, len(res.Matches)):]
	if set.text {
		res.Text = renderText(res, q.Skip)
	}
	return res, nil
}

// add merges one cell's result, tagging its matches and errors.
func (r *Result) add(cell *Result, scanIndex int, scanName, folder string) {
	for _, m := range cell.Matches {
		m.ScanIndex, m.ScanName, m.Folder = &scanIndex, scanName, folder
		r.Matches = append(r.Matches, m)
	}
	for _, e := range cell.EvaluationErrors {
		e.ScanIndex, e.Folder = &scanIndex, folder
		r.EvaluationErrors = append(r.EvaluationErrors, e)
	}
	r.FileMetadata = append(r.FileMetadata, cell.FileMetadata...)
	r.Warnings = append(r.Warnings, cell.Warnings...)
	r.Candidates += cell.Candidates
	r.FilesEvaluated += cell.FilesEvaluated
	r.Timeout = r.Timeout || cell.Timeout
	r.OutputLimitReached = r.OutputLimitReached || cell.OutputLimitReached
	r.MaxFilesReached = r.MaxFilesReached || cell.MaxFilesReached
	r.Partial = r.Partial || cell.Partial
}

// namedEvaluator reads NAME.star from the folder's .structls/xray/, through
// the snapshot (an unsaved buffer wins; nothing outside the folder is read).
func namedEvaluator(ctx context.Context, snap *workspace.Snapshot, folder workspace.Folder, name string) (string, error) {
	rel := path.Join(namedEvaluatorDir, name+".star")
	notFound := fmt.Errorf("evaluator %q not found: write it to %s in folder %s", name, rel, folder.Name)
	_, content, err := snap.ReadNamed(ctx, folder.URI+"/"+rel)
	var pathErr *workspace.PathError
	var readErr *workspace.ReadError
	switch {
	case errors.As(err, &readErr):
		return "", fmt.Errorf("evaluator %q: %s", name, readFailure(readErr.Err))
	case (errors.As(err, &pathErr) || errors.Is(err, workspace.ErrNotOneFile)) && exists(filepath.Join(folder.Path, filepath.FromSlash(rel))):
		// There, but a directory, a special file or a symbolic link out of the folder.
		return "", fmt.Errorf("evaluator %q: %s in folder %s is not a regular file inside the folder (a directory, or a symbolic link to outside it): make it one", name, rel, folder.Name)
	case errors.As(err, &pathErr), errors.Is(err, workspace.ErrNotOneFile):
		return "", notFound
	case err != nil:
		return "", err
	}
	if _, err := Compile(string(content), DefaultLimits); err != nil {
		return "", fmt.Errorf("evaluator %s in folder %s: %w", rel, folder.Name, err)
	}
	return string(content), nil
}

// exists reports whether there is a directory entry at path (a symbolic
// link is not followed).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
