package capture

import "strings"

// The weight of each rule cue, and the factors that limit a rule to the
// current step. A rule is anchored by a standing scope, "always"/"never"
// directing rather than describing, or the project's convention; a
// directive counts when it is near its anchor, and a directive alone is an
// instruction for the task at hand.
const (
	wAgain      = 0.60 // "never again", "don't ever", "不要再"
	wScope      = 0.55 // "from now on", "going forward", "in the future"
	wConvention = 0.45 // "in this repo we", "we use"
	wAdverb     = 0.35 // "always", "never", "at all", directing rather than describing
	wDirective  = 0.30 // "do not", "make sure", "please", or an imperative verb
	wRemember   = 0.25 // "remember to", "keep in mind"

	// near is how many tokens may separate a directive from its anchor.
	near = 8

	unanchoredFactor = 0.4  // no scope, adverb or convention: a one-off instruction
	undirectedFactor = 0.6  // an anchor with no directive near it: may describe, not direct
	transientFactor  = 0.35 // "for now", "this time"
	ruleQueryFactor  = 0.4  // the sentence is a question
)

// ruleSentence is the evidence of one sentence for a rule.
type ruleSentence struct {
	from, to  int      // token range
	ev        evidence // anchors, and directives near them
	directive string   // a directive anywhere in the sentence
	transient bool
	question  bool
	// conventionVerb: a convention holds a verb of the agent's work ("we
	// use"), which directs once another anchor stands with it ("in this
	// repo we use …", "we use … never …"); alone it may describe the
	// stack ("we use Go 1.26").
	conventionVerb bool
	anchors        int
}

func (s *ruleSentence) anchored() bool {
	return s.ev.has(clsAgain, clsScope, clsConvention, clsAdverb)
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
	// Tokens covered by an anchor, a describer or a filler: a directive
	// is not the anchor's own word counted twice ("never" is both), an
	// adverb after "it is" or "the page" describes, and a verb after
	// "please" or "and" is still in the imperative.
	anchor := make([]bool, len(toks))
	described := make([]bool, len(toks))
	filler := make([]bool, len(toks))
	var anchors []match
	for _, m := range ms {
		switch m.cue.class {
		case clsScope, clsAgain, clsConvention:
			mark(anchor, m.from, m.to)
		case clsDescriber:
			mark(described, m.from, m.to)
		case clsFiller:
			mark(filler, m.from, m.to)
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
			anchors = append(anchors, m)
			s.anchors++
		case clsScope:
			if describes(toks, described, m.from, m.to) {
				continue
			}
			s.ev.add(clsScope, wScope, text)
			anchors = append(anchors, m)
			s.anchors++
		case clsConvention:
			s.ev.add(clsConvention, wConvention, text)
			anchors = append(anchors, m)
			s.anchors++
			s.conventionVerb = s.conventionVerb || m.cue.directs()
		case clsAdverb:
			if anchor[m.from] || describes(toks, described, m.from, m.to) || overlapsClass(ms, m, clsStill, clsSame, clsReject) {
				continue
			}
			mark(anchor, m.from, m.to)
			s.ev.add(clsAdverb, wAdverb, text)
			anchors = append(anchors, m)
			s.anchors++
		case clsTransient:
			if !anchor[m.from] {
				s.transient = true
			}
		}
	}
	for _, m := range ms {
		if toks[m.from].isBreak() || anyMasked(anchor, m.from, m.to) {
			continue
		}
		s := &rs[of[m.from]]
		text := span(message, toks, m.from, m.to)
		switch m.cue.class {
		case clsVerb:
			if joined(message, toks[m.to-1].end) || !imperative(toks, filler, m.from) && !after(anchors, m.from) {
				continue
			}
			fallthrough
		case clsDirective:
			if s.directive == "" {
				s.directive = text
			}
			if nearAnchor(anchors, of, m) {
				s.ev.add(clsDirective, wDirective, text)
			}
		case clsRemember:
			s.ev.add(clsRemember, wRemember, text)
		}
	}
	for i := range rs {
		if rs[i].conventionVerb && rs[i].anchors >= 2 && !rs[i].ev.has(clsDirective) {
			rs[i].ev.add(clsDirective, wDirective, "the convention's verb")
		}
	}
	best, bestScore, pair := -1, 0.0, false
	for i := range rs {
		if sc := rs[i].score(); sc > bestScore {
			best, bestScore, pair = i, sc, false
		}
		if i+1 < len(rs) {
			if sc := pairScore(&rs[i], &rs[i+1]); sc > bestScore+0.05 {
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
	if !rs[best].anchored() && (!pair || !rs[best+1].anchored()) {
		cues = append(append([]string(nil), cues...), clsDirective+": "+rs[best].directive)
	}
	return round3(bestScore), strings.TrimSpace(span(message, toks, from, to)), cues
}

// score is the sentence's own evidence for a rule.
func (s *ruleSentence) score() float64 {
	f := 1.0
	if s.transient {
		f *= transientFactor
	}
	if s.question {
		f *= ruleQueryFactor
	}
	if !s.anchored() {
		if s.directive == "" {
			return 0
		}
		return wDirective * unanchoredFactor * f
	}
	if !s.ev.has(clsDirective, clsAgain) {
		f *= undirectedFactor
	}
	return s.ev.score() * f
}

// pairScore is the evidence of two adjacent sentences read together, when
// one has an anchor and the other a directive that the anchor's own
// sentence lacks ("Don't use the layout. We are not using it anywhere.").
func pairScore(a, b *ruleSentence) float64 {
	if a.anchored() == b.anchored() {
		return 0
	}
	anch, dir := a, b
	if b.anchored() {
		anch, dir = b, a
	}
	if dir.directive == "" || anch.ev.has(clsDirective) {
		return 0
	}
	var ev evidence
	for k, w := range anch.ev.weights {
		ev.add(k, w, "")
	}
	ev.add(clsDirective, wDirective, "")
	f := 1.0
	if a.transient || b.transient {
		f *= transientFactor
	}
	if anch.question {
		f *= ruleQueryFactor
	}
	return ev.score() * f
}

// nearAnchor reports whether m is within near tokens of an anchor of its
// own sentence.
func nearAnchor(anchors []match, of []int, m match) bool {
	for _, a := range anchors {
		if of[a.from] != of[m.from] {
			continue
		}
		if m.from >= a.to && m.from-a.to <= near || a.from >= m.to && a.from-m.to <= near {
			return true
		}
	}
	return false
}

// after reports whether an anchor ends right before token i ("never
// update", "always use").
func after(anchors []match, i int) bool {
	for _, a := range anchors {
		if a.to == i {
			return true
		}
	}
	return false
}

// describes reports whether the adverb or scope at toks[from:to] describes how
// something behaves ("it always fails", "the page should never scroll",
// "always be visible") rather than directing the agent: a describer among
// the two words before it, in its clause, or "to be" after it.
func describes(toks []token, described []bool, from, to int) bool {
	for k := from - 1; k >= 0 && k >= from-2; k-- {
		if toks[k].kind != kindWord && toks[k].kind != kindCJK {
			break
		}
		if described[k] {
			return true
		}
	}
	return to < len(toks) && copulas[toks[to].norm]
}

// copulas are the infinitives of "to be" that, after an adverb, make it
// describe a state ("always be visible", "toujours être", "immer sein").
var copulas = map[string]bool{"be": true, "etre": true, "ser": true, "estar": true, "sein": true, "byt": true, "ficar": true}

// overlapsClass reports whether a cue of one of the classes shares a token
// with m ("immer" inside "immer noch", still rather than always).
func overlapsClass(ms []match, m match, classes ...string) bool {
	for _, o := range ms {
		for _, c := range classes {
			if o.cue.class == c && o.from < m.to && m.from < o.to {
				return true
			}
		}
	}
	return false
}

func mark(set []bool, from, to int) {
	for k := from; k < to; k++ {
		set[k] = true
	}
}
