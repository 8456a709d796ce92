package store

import (
	"os"
	"sync/atomic"
)

// writeback is how many bytes of a spool file accumulate before their
// asynchronous writeback is started.
const writeback = 4 << 20

// dirtyWindow bounds how far the writeback of a spool file may trail its
// writer: once more than this has been handed to the disk and not yet
// written, the writeback goroutine waits for the older part (never the
// capture, which only sets a target). A variable so tests can shrink it.
var dirtyWindow int64 = 64 << 20

// keepCached is how much of a file's start is never released from the page
// cache: the heads the digest reads once the command has ended.
const keepCached int64 = 1 << 20

// A writebacker starts the writeback of a file being appended to on a
// goroutine of its own, in steps of writeback bytes, so that the fsync at
// commit finds little left to do. The writer only moves a target
// (advance): sync_file_range(SYNC_FILE_RANGE_WRITE) waits for room in the
// disk's request queue, tens of milliseconds on a busy disk, and called on
// the capture's path it stopped the pipeline for that long (the framer
// waited, so the reader did, so the command did). Writeback changes no
// guarantee: the commit's fsync still makes the bytes durable.
//
// Once a range is on disk (waited for) and the live parse has read it, its
// pages are released from the page cache (POSIX_FADV_DONTNEED drops clean
// pages only), so the spool's next writes reuse them: on this machine (a VM
// whose free memory goes back to its host) a write into fresh page-cache
// pages cost about 2 ms of CPU per MiB in the copy's first touch, into
// pages just released 0.4 ms, and a flood of 1 GiB then occupies the
// dirty window's pages instead of 1 GiB of cache. Releasing changes no byte:
// a later read of a released range reads it from disk.
type writebacker struct {
	f      *os.File
	target atomic.Int64 // offset up to which the file has been written
	// read, when set, is the offset up to which the file's pages have been
	// read by the one reader that reads it while it is written (the live
	// parse); pages written to disk and read are released (see release).
	read  *atomic.Int64
	wake  chan struct{} // a target moved (capacity 1: moves coalesce)
	stop  chan struct{}
	done  chan struct{}
	woken int64 // the target at the last wake (the writer's)
	// Calls made, for tests: ranges whose writeback was started, ranges
	// waited for, bytes released.
	starts, waits, released atomic.Int64
}

// newWritebacker starts the writeback goroutine of f. With read set, the
// pages of f that are on disk and have been read up to read are released
// from the page cache as the writeback goes on.
func newWritebacker(f *os.File, read *atomic.Int64) *writebacker {
	w := &writebacker{f: f, read: read, wake: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

// advance says f has been written up to end. It never waits, and wakes
// the goroutine only once a step's worth has been written since the last
// wake: a wake per frame (every 256 KiB) cost more CPU in the scheduler
// than the writeback calls themselves.
func (w *writebacker) advance(end int64) {
	w.target.Store(end)
	if end-w.woken < writeback {
		return
	}
	w.woken = end
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// close stops the goroutine without waiting for the call it may be in (a
// wait for old ranges on a slow disk): f may be synced or closed at once,
// as the goroutine reaches f only through its descriptor's reference
// (syncRange), and whatever is left unwritten is the commit's fsync's.
func (w *writebacker) close() {
	if w != nil {
		close(w.stop)
	}
}

func (w *writebacker) run() {
	defer close(w.done)
	var started, waited int64
	released := keepCached
	for {
		select {
		case <-w.stop:
			return
		case <-w.wake:
		}
		end := w.target.Load()
		if end-started < writeback {
			continue
		}
		startWriteback(w.f, started, end-started)
		w.starts.Add(1)
		started = end
		if old := started - dirtyWindow; old > waited {
			waitWriteback(w.f, waited, old-waited)
			w.waits.Add(1)
			waited = old
		}
		if w.read != nil {
			if upto := min(waited, w.read.Load()); upto > released {
				releasePages(w.f, released, upto-released)
				w.released.Add(upto - released)
				released = upto
			}
		}
	}
}
