package capture

import (
	"strings"

	"github.com/innate-mcp/innate-mcp/runlog"
	"github.com/innate-mcp/innate-mcp/terms"
)

// The weight of each correction cue: the chance, alone, that the message
// corrects the agent. Only the cues that say so outright reach the
// threshold alone; the rest need company.
const (
	wReject       = 0.75 // "that's wrong", "not what I asked"
	wBlame        = 0.70 // "you broke", "why did you"
	wSame         = 0.70 // "same error", "nothing changed"
	wReverse      = 0.65 // "revert", "undo"
	wStillFailure = 0.75 // "still" and a failure in one sentence
	wRepeat       = 0.55 // "I told you", "as I said"
	wOpener       = 0.55 // a sentence opened by "no," or "nope"
	wClarify      = 0.50 // "I mean", "what I meant"
	wDislike      = 0.40 // "I don't like", "too much"
	wInsteadAgent = 0.45 // "instead" next to something the agent's turn names, as "don't" is
	wNegateAgent  = 0.45 // "don't" before something the agent's turn names
	wFailureClaim = 0.45 // a failure after the agent said it fixed or changed something
	wInstead      = 0.30 // "instead" alone
	wFailure      = 0.25 // a failure alone: may be a new problem
	wStill        = 0.15 // "still", "again" alone

	praiseFactor   = 0.7 // approval in the message
	questionFactor = 0.7 // every sentence a question, with no outright cue
)

// plainWeight is the weight of the cue classes that count wherever they
// stand, with no condition on their neighbours.
var plainWeight = map[string]float64{
	clsReject: wReject, clsBlame: wBlame, clsSame: wSame, clsReverse: wReverse,
	clsRepeat: wRepeat, clsClarify: wClarify, clsDislike: wDislike,
}

// correction scores message as a correction of the agent's previous turn.
func correction(message, previousAgent string, toks []token, ms []match) (float64, []string) {
	if strings.TrimSpace(previousAgent) == "" {
		return 0, nil
	}
	if len(toks) == 0 {
		return 0, nil
	}
	var ev evidence
	sent := sentenceOf(toks)
	stillIn := map[int]match{}
	damageIn := map[int]bool{}
	for _, m := range ms {
		if m.cue.class == clsDamage {
			damageIn[sent[m.from]] = true
		}
	}
	failIn := map[int]match{}
	var agentTerms map[string]struct{}
	agent := func() map[string]struct{} {
		if agentTerms == nil {
			agentTerms = terms.Distinct(tail(previousAgent, maxScan))
		}
		return agentTerms
	}
	praise := false
	filler := make([]bool, len(toks))
	for _, m := range ms {
		if m.cue.class == clsFiller {
			mark(filler, m.from, m.to)
		}
	}
	for _, m := range ms {
		text := span(message, toks, m.from, m.to)
		if w, ok := plainWeight[m.cue.class]; ok {
			ev.add(m.cue.class, w, text)
			if m.cue.class == clsBlame && damageIn[sent[m.from]] {
				ev.add("blames-damage", w, text)
			}
			continue
		}
		switch m.cue.class {
		case clsOpener:
			if m.from == 0 && !joined(message, toks[m.to-1].end) {
				ev.add(clsOpener, wOpener, text)
			}
		case clsStill:
			if _, ok := stillIn[sent[m.from]]; !ok {
				stillIn[sent[m.from]] = m
			}
			ev.add(clsStill, wStill, text)
		case clsFailure:
			if _, ok := failIn[sent[m.from]]; !ok {
				failIn[sent[m.from]] = m
			}
			ev.add(clsFailure, wFailure, text)
		case clsInstead:
			// One "instead" is one piece of evidence: next to something
			// the agent's turn names it weighs more, not twice.
			if t, ok := overlaps(around(message, toks, m, 6, 6), agent()); ok {
				ev.add("instead-of-agent", wInsteadAgent, text+" … "+t)
			} else {
				ev.add(clsInstead, wInstead, text)
			}
		case clsNegate:
			// CJK negations are imperative by their form and may close
			// the clause ("npmを使わないで"), so they look both ways.
			cjk := toks[m.from].kind == kindCJK
			if !cjk && !imperative(toks, filler, m.from) {
				continue
			}
			before := 0
			if cjk {
				before = 5
			}
			if t, ok := overlaps(around(message, toks, m, before, 5), agent()); ok {
				ev.add("negates-agent", wNegateAgent, text+" … "+t)
			}
		case clsPraise:
			praise = praise || !overlapsOther(ms, m)
		case clsNegated:
			// A negated statement about something the agent's turn names
			// ("these colours have not been used", "no se han cargado")
			// reports what the agent did as not working: a failure, which
			// after the agent claimed a change is a correction.
			if overlapsClass(ms, m, clsFailure, clsSame, clsReject, clsDislike, clsNeutral) || questionSentence(toks, sent, m.from) ||
				overlapsClass(ms, m, clsNegate) && imperative(toks, filler, m.from) {
				continue // counted as what it is part of, an imperative, or a question
			}
			if _, ok := overlaps(around(message, toks, m, 6, 6), agent()); ok {
				if _, seen := failIn[sent[m.from]]; !seen {
					failIn[sent[m.from]] = m
				}
				ev.add(clsFailure, wFailure, text)
			}
		}
	}
	// Output the user pasted that shows a failure (a runner's summary, a
	// traceback, a compiler's error line, as runlog reads a command's
	// output) reports the agent's work as not working, whatever words go
	// with it.
	if len(failIn) == 0 {
		if line, ok := runlog.Errored(message); ok {
			failIn[sent[len(sent)-1]] = match{}
			ev.add(clsFailure, wFailure, clipRunes(strings.TrimSpace(line), 60))
		}
	}
	for s := 0; s <= sent[len(sent)-1] && len(stillIn) > 0; s++ {
		st, ok1 := stillIn[s]
		f, ok2 := failIn[s]
		if ok1 && ok2 && f.from != st.from {
			ev.add("still-failing", wStillFailure, span(message, toks, min(st.from, f.from), max(st.to, f.to)))
			break
		}
	}
	if len(failIn) > 0 && claims(previousAgent) {
		ev.add("fails-after-claim", wFailureClaim, "agent claimed a change")
	}
	score := ev.score()
	outright := ev.has(clsReject, clsBlame, clsSame, clsReverse, clsRepeat, "still-failing")
	if praise && !outright {
		score *= praiseFactor
	}
	// A question is not a correction unless it rejects what was done:
	// "why did you use npm there?" asks; "why did you use npm? I said
	// pnpm" and "why did you remove the tests?" reject. A reproach of a
	// choice alone does not; one of an act that destroyed work does.
	rejects := ev.has(clsReject, clsSame, clsReverse, clsRepeat, "still-failing", "instead-of-agent", "negates-agent", "blames-damage")
	if !rejects && allQuestions(toks) {
		score *= questionFactor
	}
	return round3(score), ev.cues
}

// claims reports whether the agent's turn says it changed or fixed
// something, so that a failure reported now is a failure of its work.
func claims(previousAgent string) bool {
	toks := tokenize(tail(previousAgent, 1200))
	for _, m := range lex().find(toks) {
		if m.cue.class == clsClaim {
			return true
		}
	}
	return false
}

// joined reports whether the word ending at byte end is joined to the next
// by a hyphen or underscore ("Non-Critical" opens with no refusal).
func joined(text string, end int) bool {
	return end < len(text) && (text[end] == '-' || text[end] == '_')
}

// overlapsOther reports whether a cue of another class shares a token with
// m ("funciona" inside "no funciona").
func overlapsOther(ms []match, m match) bool {
	for _, o := range ms {
		if o.cue.class != m.cue.class && o.from < m.to && m.from < o.to {
			return true
		}
	}
	return false
}

// imperative reports whether the word at toks[i] opens a clause, after
// nothing but fillers ("please", "and", "just"): the mood of "don't touch
// the seeds", not of "I don't have a licence".
func imperative(toks []token, filler []bool, i int) bool {
	for i > 0 && filler[i-1] && toks[i-1].kind == kindWord {
		i--
	}
	return startsSentence(toks, i)
}

// around returns the content terms of up to before words before a match
// and after words after it, within its sentence.
func around(message string, toks []token, m match, before, after int) map[string]struct{} {
	near := windowTerms(message, toks, m.to, after)
	if before > 0 {
		for t := range windowTerms(message, toks, m.from, -before) {
			near[t] = struct{}{}
		}
	}
	return near
}

// questionSentence reports whether the sentence of token i ends with a
// question mark.
func questionSentence(toks []token, sent []int, i int) bool {
	for k := i; k < len(toks); k++ {
		if sent[k] != sent[i] {
			return false
		}
		if toks[k].kind == kindQuery {
			return true
		}
	}
	return false
}

// allQuestions reports whether every sentence of toks ends with a question
// mark.
func allQuestions(toks []token) bool {
	n := 0
	for _, s := range sentences(toks) {
		n++
		if s[1] >= len(toks) || toks[s[1]].kind != kindQuery {
			return false
		}
	}
	return n > 0
}

// tail returns at most the last n bytes of s, cut on a rune boundary.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := len(s) - n
	for i < len(s) && (s[i]&0xC0) == 0x80 {
		i++
	}
	return s[i:]
}

// round3 rounds a score to three decimals, so that figures are stable.
func round3(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }
