package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// progressDelay is how long a run lasts before a terminal gets a
// progress line without -progress.
const progressDelay = time.Second

// progress writes how many objects have been checked to stderr while a
// run lasts: on a terminal, once the run has lasted progressDelay, as one
// line rewritten ten times a second, and finally the count, the time taken
// and the throughput; with -progress on anything else, as a line a second
// and the final line. A nil progress writes nothing; all its methods are
// safe for concurrent use.
type progress struct {
	w        io.Writer
	terminal bool
	force    bool
	start    time.Time
	done     atomic.Int64
	shown    atomic.Bool

	stop    chan struct{}
	stopped sync.WaitGroup
}

// newProgress returns a progress on w, or nil when w is not a terminal
// and force is not set.
func newProgress(w io.Writer, force bool) *progress {
	terminal := isTerminal(w)
	if !force && !terminal {
		return nil
	}
	p := &progress{w: w, terminal: terminal, force: force, start: time.Now(), stop: make(chan struct{})}
	interval := time.Second
	if terminal {
		interval = 100 * time.Millisecond
	}
	p.stopped.Add(1)
	go p.loop(interval)
	return p
}

func (p *progress) loop(interval time.Duration) {
	defer p.stopped.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
			if p.force || time.Since(p.start) >= progressDelay {
				p.print(false)
			}
		}
	}
}

// add counts n more checked objects.
func (p *progress) add(n int) {
	if p != nil {
		p.done.Add(int64(n))
	}
}

// finish stops the updates and writes the final line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	close(p.stop)
	p.stopped.Wait()
	if p.force || p.shown.Load() {
		p.print(true)
	}
}

func (p *progress) print(final bool) {
	done := p.done.Load()
	elapsed := time.Since(p.start)
	rate := float64(done) / elapsed.Seconds()
	line := fmt.Sprintf("checked %d objects (%.0f objects/s)", done, rate)
	if final {
		line = fmt.Sprintf("checked %d objects in %.2fs (%.0f objects/s)", done, elapsed.Seconds(), rate)
	}
	p.shown.Store(true)
	switch {
	case p.terminal && final:
		fmt.Fprintf(p.w, "\r\033[K%s\n", line)
	case p.terminal:
		fmt.Fprintf(p.w, "\r\033[K%s", line)
	default:
		fmt.Fprintln(p.w, line)
	}
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
