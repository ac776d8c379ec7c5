package capture

import "strings"

// Directive returns what a correction tells the agent to do or avoid from
// now on: its sentences that direct (a directive, a negated imperative, a
// replacement, or an imperative verb at their start), each without the
// correction's framing before it ("No,", "I told you to", "I said",
// "please"), verbatim and joined by a space. "" when no sentence directs:
// a question ("why did you use npm?"), a complaint ("still the same
// error"), a report. Pure.
func Directive(message string) string {
	toks := tokenize(message)
	ms := lex().find(toks)
	out := ""
	for _, s := range sentences(toks) {
		if s[1] < len(toks) && toks[s[1]].kind == kindQuery {
			continue // a question asks; it does not direct
		}
		k := s[0]
		for k < s[1] {
			if toks[k].kind == kindComma {
				k++
				continue
			}
			end := framingAt(toks, ms, k)
			if end <= k {
				break
			}
			k = end
		}
		if k >= s[1] || !directs(toks, ms, k, s[1]) {
			continue
		}
		if out != "" {
			out += " "
		}
		out += sentenceText(message, toks, k, s[1])
	}
	return out
}

// sentenceText is the text of the tokens [from, to) of a sentence, to the
// sentence's end: what follows the last token ("migrations/", a closing
// backtick) is kept, the sentence mark and white space are not.
func sentenceText(message string, toks []token, from, to int) string {
	start, end := toks[from].start, len(message)
	if to < len(toks) {
		end = toks[to].start
	}
	for start > 0 && strings.ContainsRune("`'\"", rune(message[start-1])) {
		start--
	}
	return strings.TrimRight(message[start:end], " \t\r\n.!。！")
}

// framingAt is the end of the longest cue framing a correction without
// saying what to do that starts at token i ("I told you to", "what I
// meant", a bare "No," that a comma follows), or i.
func framingAt(toks []token, ms []match, i int) int {
	end := i
	for _, m := range ms {
		if m.from != i || m.to <= end {
			continue
		}
		switch m.cue.class {
		case clsRepeat, clsClarify:
			end = m.to
		case clsOpener:
			if m.to == len(toks) || toks[m.to].kind >= kindComma {
				end = m.to
			}
		}
	}
	return end
}

// directs reports whether tokens [from, to) direct the agent: a directive
// or a negated imperative or a replacement anywhere in them, or a verb of
// the agent's work at their start.
func directs(toks []token, ms []match, from, to int) bool {
	for _, m := range ms {
		if m.from < from || m.from >= to {
			continue
		}
		switch m.cue.class {
		case clsDirective, clsNegate, clsInstead:
			return true
		case clsVerb:
			if m.from == from {
				return true
			}
		}
	}
	return false
}
