package syntax

import (
	"os"
	"runtime/debug"
	"sync/atomic"
)

// A server's Go heap is mostly its parse cache, trees that live as long as
// the server. At the collector's default pacing (GOGC 100) the heap may
// grow by as much again as it holds before the next collection, so the
// garbage a few queries leave behind is allowed to reach the size of the
// cache: with the whole Go standard library cached (0.8 GiB), three warm
// queries of 13,566 matches each (about 200 MB of garbage apiece) took the
// heap from 882 to 1,427 MiB uncollected, and the process's peak RSS to
// 1,365,440-1,566,392 kB in ten runs (bench/warm); paced, 1,198,848 and
// 1,229,380 kB, in the same time.
//
// gcPacer instead allows about gcHeadroom of garbage over what the cache
// holds: GOGC = 100 × gcHeadroom / cached bytes, but never under
// minGCPercent nor over the default 100, so a small cache leaves the
// collector as it is. The extra collections cost little, as the cached
// trees are pointer-free slices the collector does not scan.
type gcPacer struct {
	on      bool
	percent atomic.Int32 // the GOGC last set; 0 before the first
}

// gcHeadroom is the garbage allowed over the cache (a variable for tests).
var gcHeadroom int64 = 256 << 20

const minGCPercent = 25

// PaceGC makes the cache set the process's GOGC from the bytes it holds
// (see gcPacer), as a long-lived server wants; a user's own GOGC
// environment variable wins. There is one collector per process, so only
// one cache of a process should pace it. Call it before the cache is used.
func (c *Cache) PaceGC() {
	c.pacer.on = os.Getenv("GOGC") == ""
}

// update paces the collector for a cache now holding cached bytes. It is
// cheap when the percentage does not change, as on most calls.
func (p *gcPacer) update(cached int64) {
	if !p.on {
		return
	}
	percent := int32(100)
	if cached > 0 {
		percent = int32(max(minGCPercent, min(100, 100*gcHeadroom/cached)))
	}
	if p.percent.Swap(percent) != percent {
		debug.SetGCPercent(int(percent))
	}
}
