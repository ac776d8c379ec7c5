package capture

import "strings"

// The weight of each rule cue, and the factors that limit a rule to the
// current step. A rule is anchored by a standing scope, "always"/"never"
// governing a directive, or the project's convention; a directive alone is
// an instruction for the task at hand.
const (
	wAgain      = 0.60 // "never again", "don't ever", "不要再"
	wScope      = 0.55 // "from now on", "going forward", "in the future"
	wConvention = 0.45 // "in this repo we", "we use"
	wAdverb     = 0.35 // "always", "never", "at all", directing rather than describing
	wDirective  = 0.30 // "do not", "make sure", "use", "please"
	wRemember   = 0.25 // "remember to", "keep in mind"

	unanchoredFactor = 0.4  // no scope, adverb or convention: a one-off instruction
	transientFactor  = 0.35 // "for now", "this time"
	ruleQueryFactor  = 0.4  // the sentence is a question
)

// ruleSentence is the evidence of one sentence for a rule.
type ruleSentence struct {
	from, to  int // token range
	ev        evidence
	anchored  bool
	transient bool
	question  bool
}

func (s *ruleSentence) factor() float64 {
	f := 1.0
	if !s.anchored {
		f *= unanchoredFactor
	}
	if s.transient {
		f *= transientFactor
	}
	if s.question {
		f *= ruleQueryFactor
	}
	return f
}

// rule scores message as the statement of a standing rule and returns the
// sentence, or pair of adjacent sentences, that states it best.
func rule(message string, toks []token, ms []match) (float64, string, []string) {
	sents := sentences(toks)
	if len(sents) == 0 {
		return 0, "", nil
	}
	rs := make([]ruleSentence, len(sents))
	of := make([]int, len(toks))
	for i, s := range sents {
		rs[i].from, rs[i].to = s[0], s[1]
		rs[i].question = s[1] < len(toks) && toks[s[1]].kind == kindQuery
		for k := s[0]; k < s[1]; k++ {
			of[k] = i
		}
	}
	// Tokens covered by an anchor or a describer, so that a directive is
	// not the anchor's own word counted twice ("never" is both) and an
	// adverb after "it is" or "the page" is seen to describe.
	anchor := make([]bool, len(toks))
	described := make([]bool, len(toks))
	for _, m := range ms {
		switch m.cue.class {
		case clsScope, clsAgain, clsConvention:
			mark(anchor, m.from, m.to)
		case clsDescriber:
			mark(described, m.from, m.to)
		}
	}
	for _, m := range ms {
		if toks[m.from].isBreak() {
			continue
		}
		s := &rs[of[m.from]]
		text := span(message, toks, m.from, m.to)
		switch m.cue.class {
		case clsAgain:
			s.ev.add(clsAgain, wAgain, text)
			s.anchored = true
		case clsScope:
			s.ev.add(clsScope, wScope, text)
			s.anchored = true
		case clsConvention:
			s.ev.add(clsConvention, wConvention, text)
			s.anchored = true
		case clsAdverb:
			if anchor[m.from] || describes(toks, described, m.from, m.to) {
				continue
			}
			mark(anchor, m.from, m.to)
			s.ev.add(clsAdverb, wAdverb, text)
			s.anchored = true
		case clsTransient:
			if !anchor[m.from] {
				s.transient = true
			}
		}
	}
	for _, m := range ms {
		if toks[m.from].isBreak() {
			continue
		}
		s := &rs[of[m.from]]
		switch m.cue.class {
		case clsDirective:
			if !anyMasked(anchor, m.from, m.to) {
				s.ev.add(clsDirective, wDirective, span(message, toks, m.from, m.to))
			}
		case clsRemember:
			s.ev.add(clsRemember, wRemember, span(message, toks, m.from, m.to))
		}
	}
	best, bestScore := -1, 0.0
	pair := false
	for i := range rs {
		if len(rs[i].ev.weights) == 0 {
			continue
		}
		if sc := rs[i].ev.score() * rs[i].factor(); sc > bestScore {
			best, bestScore, pair = i, sc, false
		}
		if i+1 < len(rs) && len(rs[i+1].ev.weights) > 0 && (rs[i].anchored || rs[i+1].anchored) {
			var ev evidence
			for _, s := range rs[i : i+2] {
				for k, w := range s.ev.weights {
					ev.add(k, w, "")
				}
			}
			both := ruleSentence{anchored: true, transient: rs[i].transient || rs[i+1].transient,
				question: rs[i].question && rs[i+1].question}
			if sc := ev.score() * both.factor(); sc > bestScore+0.05 {
				best, bestScore, pair = i, sc, true
			}
		}
	}
	if best < 0 {
		return 0, "", nil
	}
	from, to := rs[best].from, rs[best].to
	cues := rs[best].ev.cues
	if pair {
		to = rs[best+1].to
		cues = append(append([]string(nil), cues...), rs[best+1].ev.cues...)
	}
	return round3(bestScore), strings.TrimSpace(span(message, toks, from, to)), cues
}

// describes reports whether the adverb at toks[from:to] describes how
// something behaves ("it always fails", "the page should never scroll",
// "always be visible") rather than directing the agent: a describer among
// the two words before it, in its clause, or "be" after it.
func describes(toks []token, described []bool, from, to int) bool {
	for k := from - 1; k >= 0 && k >= from-2; k-- {
		if toks[k].kind != kindWord && toks[k].kind != kindCJK {
			break
		}
		if described[k] {
			return true
		}
	}
	return to < len(toks) && toks[to].norm == "be"
}

func mark(set []bool, from, to int) {
	for k := from; k < to; k++ {
		set[k] = true
	}
}
