package hesitation

import (
	"cmp"
	"slices"
	"strings"
)

// CueClass is the kind of an uncertainty cue, after the CoNLL-2010 shared
// task classes.
type CueClass string

// Cue classes.
const (
	// CueHedge marks epistemic uncertainty of the writer: "probably",
	// "might", "I think", "似乎", "かもしれない".
	CueHedge CueClass = "hedge"
	// CueWeasel marks vague attribution or quantification: "some say",
	// "critics", "it is believed", "many", "有人認為", "一部の".
	CueWeasel CueClass = "weasel"
	// CuePeacock marks praise asserted without support: "famous",
	// "one of the finest", "舉世聞名", "屈指の".
	CuePeacock CueClass = "peacock"
)

// Cue is one uncertainty cue found in a text.
type Cue struct {
	// Text is the cue as written in the input.
	Text string `json:"text"`
	// Class is hedge, weasel or peacock.
	Class CueClass `json:"class"`
	// Strong is true for cues that make a sentence uncertain on their own;
	// weak cues ("may", "often", "通常") also occur in plain factual prose.
	Strong bool `json:"strong"`
	// Lang is the term list the cue came from: "en", "zh" or "ja".
	Lang string `json:"lang"`
	// Span is the byte range of the cue in the input.
	Span Span `json:"span"`
}

// Hedges returns the uncertainty cues in text, in order of position. Where
// cues overlap, the longest is kept ("may have" rather than "may"). It is a
// pure function, safe for concurrent use, and never fails.
func Hedges(text string) []Cue {
	return cuesOf(text, scanText(text))
}

// Uncertain reports whether sentence carries at least one strong
// uncertainty cue: the sentence-level decision of the CoNLL-2010 task 1
// ("is this sentence uncertain / weaselly?"). It is safe for concurrent use.
func Uncertain(sentence string) bool {
	for _, c := range Hedges(sentence) {
		if c.Strong {
			return true
		}
	}
	return false
}

// cuesOf builds the cues of text from its scan.
func cuesOf(text string, sc *scanned) []Cue {
	l := lex()
	s := sc.folded
	var out []Cue
	add := func(m match, class CueClass, strong bool, end int) {
		out = append(out, Cue{Text: text[m.start:end], Class: class, Strong: strong, Lang: m.term.lang, Span: Span{m.start, end}})
	}
	for _, m := range sc.byCat[catHedge] {
		if m.term.text == "may" && isMonthMay(text, s, m.start, m.end) {
			continue
		}
		add(m, CueHedge, m.term.strong, m.end)
	}
	for _, m := range sc.byCat[catWeasel] {
		add(m, CueWeasel, m.term.strong, m.end)
	}
	for _, m := range sc.byCat[catPeacock] {
		add(m, CuePeacock, m.term.strong, m.end)
	}
	for _, m := range sc.byCat[catQuantifier] {
		if vagueQuantifier(l, s, m) {
			add(m, CueWeasel, true, m.end)
		}
	}
	for _, m := range sc.byCat[catSuperFrame] {
		if end := superlativeEnd(l, s, m.end); end > 0 {
			add(m, CuePeacock, true, end)
		}
	}
	return dropContained(out)
}

// dropContained sorts cues by position and removes cues that lie inside a
// longer cue.
func dropContained(cs []Cue) []Cue {
	if len(cs) < 2 {
		return cs
	}
	slices.SortFunc(cs, func(a, b Cue) int {
		if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
			return c
		}
		if c := cmp.Compare(b.Span.End, a.Span.End); c != 0 {
			return c
		}
		if a.Strong != b.Strong {
			if a.Strong {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Class, b.Class)
	})
	out := cs[:0]
	maxEnd := -1
	for _, c := range cs {
		if c.Span.End <= maxEnd {
			continue
		}
		out = append(out, c)
		maxEnd = c.Span.End
	}
	return out
}

// vagueQuantifier applies the English quantifier rules: "some", "many",
// "several", "certain" are weasel words when they refer vaguely to a group,
// but not as measures ("as many as", "some 40,000", "several times") nor
// "certain" as an adjective of certainty ("for certain", "I am certain").
func vagueQuantifier(l *lexicon, s []byte, m match) bool {
	prev := prevWord(s, m.start)
	next := nextWord(s, m.end)
	if l.quantNotAfter[prev] || l.quantNotBefore[next] {
		return false
	}
	if only := l.quantNotAfterOnly[m.term.text]; only[prev] {
		return false
	}
	if next != "" && '0' <= next[0] && next[0] <= '9' {
		return false
	}
	if m.term.text == "certain" && (next == "that" || next == "." || next == "," || next == "") {
		return false
	}
	return true
}

// superlativeEnd returns the end of a superlative head within three words
// after a frame ("one of [the] [world's] most"), or 0 if there is none.
func superlativeEnd(l *lexicon, s []byte, i int) int {
	for k := 0; k < 3; k++ {
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		w := nextWord(s, i)
		if w == "" {
			return 0
		}
		end := j + len(w)
		if l.superHeads[w] || (len(w) >= 5 && strings.HasSuffix(w, "est") && !l.estNot[w]) {
			return end
		}
		if w == "." || w == ";" || w == ":" {
			return 0
		}
		i = end
	}
	return 0
}

// isMonthMay reports whether "may" at [start, end) is the month: written
// "May" inside a sentence, or followed by a number ("May 5", "may 2001").
func isMonthMay(orig string, s []byte, start, end int) bool {
	next := nextWord(s, end)
	if next != "" && '0' <= next[0] && next[0] <= '9' {
		return true
	}
	if orig[start] != 'M' {
		return false
	}
	j := start
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '"' || s[j-1] == '\'' || s[j-1] == '(') {
		j--
	}
	if j == 0 {
		return false
	}
	switch s[j-1] {
	case '.', '!', '?', '\n', ':', '-', '*', '>':
		return false
	}
	return true
}

// hedged reports whether the scanned text holds at least one hedge-class
// cue, applying the same rules as Hedges, without building the cue list.
func hedged(text string, sc *scanned) bool {
	for _, m := range sc.byCat[catHedge] {
		if m.term.text != "may" || !isMonthMay(text, sc.folded, m.start, m.end) {
			return true
		}
	}
	return false
}
