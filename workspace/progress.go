package workspace

// ProgressFunc is how every engine reports its progress: done files out of
// total, where total is the number of files (or candidates) found so far
// and may still grow while the walk runs. It is called from several
// goroutines and must be cheap; the caller throttles what it sends on.
type ProgressFunc func(done, total int)
