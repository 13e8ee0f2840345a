// Package progress reports long phases on a terminal: what runs, how far
// it is and how long is left, at most once per interval.
package progress

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// Reporter prints progress lines to W. The zero value of a nil *Reporter
// is silent, so callers need not check.
type Reporter struct {
	w        io.Writer
	interval time.Duration

	mu         sync.Mutex
	phase      string
	total      float64
	done       float64
	start      time.Time
	lastReport time.Time
}

// New returns a reporter writing to w at most once per interval.
func New(w io.Writer, interval time.Duration) *Reporter {
	return &Reporter{w: w, interval: interval}
}

// Phase starts a phase of total units of work.
func (r *Reporter) Phase(name string, total float64) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.phase, r.total, r.done = name, total, 0
	r.start = time.Now()
	r.lastReport = r.start
	fmt.Fprintf(r.w, "== %s\n", name)
}

// Advance records units of work done on what, printing a line when the
// interval has passed.
func (r *Reporter) Advance(units float64, what string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done += units
	now := time.Now()
	if now.Sub(r.lastReport) < r.interval {
		return
	}
	r.lastReport = now
	elapsed := now.Sub(r.start)
	line := fmt.Sprintf("   %s: %s", r.phase, what)
	if r.total > 0 && r.done > 0 {
		frac := min(r.done/r.total, 1)
		left := time.Duration(float64(elapsed) * (1 - frac) / frac)
		line += fmt.Sprintf(" | %3.0f%% | %s elapsed, ~%s left", 100*frac, elapsed.Round(time.Second), left.Round(time.Second))
	}
	fmt.Fprintln(r.w, line)
}

// Done ends the phase with its elapsed time.
func (r *Reporter) Done() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "   %s done in %s\n", r.phase, time.Since(r.start).Round(time.Millisecond))
}

// Note prints a line at once.
func (r *Reporter) Note(format string, args ...any) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, format+"\n", args...)
}
