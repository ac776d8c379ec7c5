package main

import (
	"fmt"
	"io"
	"time"
)

// progress shows how far a long command has come on one terminal line,
// rewritten at most every progressEvery; it shows nothing when off.
type progress struct {
	w     io.Writer
	on    bool
	what  string // the command, and what it counts
	total int
	last  time.Time
	shown bool
}

// progressEvery is how often the progress line is rewritten.
const progressEvery = 200 * time.Millisecond

// newProgress returns the progress of a command over total things, shown
// on w when on, as "import: 12 of 300 lessons (4%)" for what "import" and
// unit "lessons".
func newProgress(w io.Writer, on bool, what, unit string, total int) *progress {
	return &progress{w: w, on: on && total > 0, what: what + ": %d of %d " + unit + " (%d%%)", total: total}
}

// report shows that done of the total are done.
func (p *progress) report(done int) {
	if !p.on || (time.Since(p.last) < progressEvery && done < p.total) {
		return
	}
	p.last = time.Now()
	p.shown = true
	fmt.Fprintf(p.w, "\r"+p.what, done, p.total, 100*done/p.total)
}

// end finishes the progress line.
func (p *progress) end() {
	if p.shown {
		fmt.Fprintln(p.w)
		p.shown = false
	}
}
