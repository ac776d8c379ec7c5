package clip

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// mark is what stands for text left out.
const mark = "…"

// Excerpt returns s when it fits in n bytes. Otherwise it returns the
// passage of s that holds the most of the terms a caller looks for, in at
// most n bytes: a window of whole lines (a line longer than the budget is
// read sentence by sentence, and a sentence longer than the window is cut
// with Bytes), marked "…" where text before or after it was left out.
//
// match reports which of the wanted terms a piece of text holds, one entry
// per occurrence. Among windows the one holding the most distinct terms
// wins; then one that opens a passage (a heading, a list item, a
// paragraph), then the one with the most occurrences, then the earliest.
// When the best window does not start at the top of s, the first line (a
// rule's heading or statement, more often than not) is kept before it if
// it takes at most a quarter of the budget and costs no term and no cut
// line.
//
// The result is at most n bytes (empty when n is smaller than "…") and the
// same for the same input. When match holds nothing, it is the start of s
// in whole lines.
func Excerpt(s string, n int, match func(text string) []string) string {
	if len(s) <= n {
		return s
	}
	if n < len(mark) {
		return ""
	}
	// Room for a mark before and after the window ("…\n", "\n…").
	const reserve = 2 * (len(mark) + 1)
	if n < 8*reserve {
		return Bytes(strings.TrimSpace(s), n-len(mark))
	}
	us := split(s, n-reserve)
	for i := range us {
		if !us[i].blank {
			us[i].terms = match(us[i].text)
		}
	}
	first, last := -1, -1
	for i, u := range us {
		if !u.blank {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		return Bytes(strings.TrimSpace(s), n-len(mark))
	}
	x := newExcerpter(us, match, last)
	best := x.best(first, n-reserve)
	if best.from == first {
		return x.render(best, first)
	}
	// The first line, when short, before the best window after it.
	headEnd := first
	for headEnd+1 < len(us) && us[headEnd+1].line == us[first].line {
		headEnd++
	}
	head := us[first].text
	if headEnd != first || len(head) > n/4 || headEnd+1 > last {
		return x.render(best, first)
	}
	alt := x.best(headEnd+1, n-reserve-len(head)-1)
	alt.terms = append(append([]string(nil), us[first].terms...), alt.terms...)
	if distinct(alt.terms) < distinct(best.terms) || alt.clipped != "" && best.clipped == "" {
		return x.render(best, first)
	}
	gap := "\n"
	if alt.from > headEnd+1 && !onlyBlank(us[headEnd+1:alt.from]) {
		gap = "\n" + mark + "\n"
	}
	return head + gap + x.render(alt, alt.from)
}

// unit is a line of the text, or a sentence of a line too long for the
// budget.
type unit struct {
	text  string
	sep   string // what joins it to the unit before: "\n" or " "
	line  int    // the line it belongs to
	blank bool
	opens bool     // it opens a passage: a heading, a list item, a paragraph
	terms []string // the wanted terms it holds
}

// split cuts s into units: lines without trailing white space, and the
// sentences of lines longer than n.
func split(s string, n int) []unit {
	var us []unit
	fence, prevBlank := false, true
	for li, line := range strings.Split(s, "\n") {
		line = strings.TrimRightFunc(line, unicode.IsSpace)
		if line == "" {
			us = append(us, unit{sep: "\n", line: li, blank: true})
			prevBlank = true
			continue
		}
		trimmed := strings.TrimLeftFunc(line, unicode.IsSpace)
		isFence := strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")
		opens := !fence && (prevBlank || isFence || opensPassage(trimmed))
		if isFence {
			fence = !fence
		}
		prevBlank = false
		if len(line) <= n {
			us = append(us, unit{text: line, sep: "\n", line: li, opens: opens})
			continue
		}
		for k, sen := range sentences(line) {
			u := unit{text: sen, sep: " ", line: li}
			if k == 0 {
				u.sep, u.opens = "\n", opens
			}
			us = append(us, u)
		}
	}
	return us
}

// opensPassage reports whether a line, without its indentation, is a
// Markdown heading or list item.
func opensPassage(t string) bool {
	switch {
	case strings.HasPrefix(t, "#"), strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && (t[i+1] == ' ' || t[i+1] == '\t')
}

// sentences splits a line after each ".", "!" or "?" followed by a space,
// and after each "。", "！" or "？"; the spaces between sentences go.
func sentences(line string) []string {
	var out []string
	start := 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		end := i + size
		cut := false
		switch r {
		case '.', '!', '?':
			cut = end < len(line) && line[end] == ' '
		case '。', '！', '？':
			cut = end < len(line)
		}
		i = end
		if cut {
			out = append(out, line[start:end])
			for i < len(line) && line[i] == ' ' {
				i++
			}
			start = i
		}
	}
	if start < len(line) {
		out = append(out, line[start:])
	}
	return out
}

// window is a candidate excerpt: units from..to (inclusive), or the start
// of unit from cut to fit when clipped is set.
type window struct {
	from, to int
	clipped  string
	terms    []string
}

// excerpter chooses and renders windows over the units of one text.
type excerpter struct {
	us    []unit
	match func(string) []string
	last  int // the last unit that is not blank
	// offset[k] is the length of units 0..k-1 joined, each with its
	// separator.
	offset []int
}

func newExcerpter(us []unit, match func(string) []string, last int) *excerpter {
	x := &excerpter{us: us, match: match, last: last, offset: make([]int, len(us)+1)}
	for k, u := range us {
		x.offset[k+1] = x.offset[k] + len(u.sep) + len(u.text)
	}
	return x
}

// best returns the best window of at most n bytes that starts at or after
// unit from. It slides over the units once: the end of the longest window
// that fits never moves back as its start moves on.
func (x *excerpter) best(from, n int) window {
	count := map[string]int{}
	kinds, hits := 0, 0
	add := func(u unit, d int) {
		for _, t := range u.terms {
			count[t] += d
			switch {
			case d > 0 && count[t] == 1:
				kinds++
			case d < 0 && count[t] == 0:
				kinds--
			}
			hits += d
		}
	}
	var best window
	bestKey := [3]int{-1, -1, -1}
	consider := func(w window, key [3]int) {
		if key[0] > bestKey[0] || key[0] == bestKey[0] && (key[1] > bestKey[1] || key[1] == bestKey[1] && key[2] > bestKey[2]) {
			best, bestKey = w, key
		}
	}
	lo, hi := from, from-1 // the units counted
	for i := from; i <= x.last; i++ {
		for ; lo < i; lo++ {
			if lo <= hi {
				add(x.us[lo], -1)
			}
		}
		hi = max(hi, lo-1)
		u := x.us[i]
		if u.blank {
			continue
		}
		opens := 0
		if u.opens {
			opens = 1
		}
		if len(u.text) > n {
			// Nothing is counted: unit i alone does not fit.
			c := Bytes(u.text, n-len(mark))
			ts := x.match(c)
			consider(window{from: i, to: i, clipped: c, terms: ts}, [3]int{distinct(ts), opens, len(ts)})
			continue
		}
		for hi < x.last && x.size(i, hi+1) <= n {
			hi++
			add(x.us[hi], 1)
		}
		to := hi
		for x.us[to].blank {
			to--
		}
		consider(window{from: i, to: to}, [3]int{kinds, opens, hits})
	}
	if best.clipped == "" {
		for j := best.from; j <= best.to; j++ {
			best.terms = append(best.terms, x.us[j].terms...)
		}
	}
	return best
}

// size is the length of units i..j joined.
func (x *excerpter) size(i, j int) int {
	return x.offset[j+1] - x.offset[i] - len(x.us[i].sep)
}

// render joins a window's units, with a mark before it when text between
// unit top and the window was left out, and after it when text follows.
func (x *excerpter) render(w window, top int) string {
	var b strings.Builder
	if w.from > top {
		b.WriteString(mark)
		b.WriteString(x.us[w.from].sep)
	}
	if w.clipped != "" {
		b.WriteString(w.clipped)
		return b.String()
	}
	for j := w.from; j <= w.to; j++ {
		if j > w.from {
			b.WriteString(x.us[j].sep)
		}
		b.WriteString(x.us[j].text)
	}
	if w.to < x.last {
		b.WriteString(x.us[w.to+1].sep)
		b.WriteString(mark)
	}
	return b.String()
}

// distinct counts the distinct strings of ts.
func distinct(ts []string) int {
	seen := make(map[string]struct{}, len(ts))
	for _, t := range ts {
		seen[t] = struct{}{}
	}
	return len(seen)
}

func onlyBlank(us []unit) bool {
	for _, u := range us {
		if !u.blank {
			return false
		}
	}
	return true
}
