package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// progressThreshold is the number of objects above which a terminal gets
// a progress line without -progress.
const progressThreshold = 1000

// showProgress decides whether a run of total objects shows progress.
func showProgress(force, terminal bool, total int) bool {
	return force || terminal && total > progressThreshold
}

// progress writes how many objects have been checked to stderr while a
// run lasts: on a terminal as one line rewritten ten times a second,
// elsewhere as a line a second, and finally the count, the time taken and
// the throughput. A disabled progress writes nothing; all its methods are
// safe for concurrent use.
type progress struct {
	w        io.Writer
	total    int
	terminal bool
	start    time.Time
	done     atomic.Int64

	stop    chan struct{}
	stopped sync.WaitGroup
}

// newProgress returns a progress for total objects, enabled as
// showProgress says.
func newProgress(w io.Writer, total int, force bool) *progress {
	terminal := isTerminal(w)
	if !showProgress(force, terminal, total) {
		return nil
	}
	p := &progress{w: w, total: total, terminal: terminal, start: time.Now(), stop: make(chan struct{})}
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
			p.print(false)
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
	p.print(true)
}

func (p *progress) print(final bool) {
	done := p.done.Load()
	elapsed := time.Since(p.start)
	rate := float64(done) / elapsed.Seconds()
	var line string
	if final {
		line = fmt.Sprintf("checked %d objects in %.2fs (%.0f objects/s)", done, elapsed.Seconds(), rate)
	} else {
		line = fmt.Sprintf("checked %d/%d objects (%.0f objects/s)", done, p.total, rate)
	}
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
