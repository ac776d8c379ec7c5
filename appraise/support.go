package appraise

import (
	"math"

	"github.com/innate-mcp/innate-mcp/terms"
)

// polarityWords are words of a candidate that carry a stance but no content
// a lesson could hold ("yes", "no"): they neither back nor undermine it.
// Read-only literal data.
var polarityWords = map[string]struct{}{"yes": {}, "no": {}, "true": {}, "false": {}}

// CandidateTerms returns the content terms of a candidate: its distinct
// lexical terms (package terms: stemmed, stop words dropped) without
// polarity words. It is safe for concurrent use.
func CandidateTerms(candidate string) map[string]struct{} {
	set := contentTerms(candidate)
	for w := range polarityWords {
		delete(set, w)
	}
	return set
}

// contentTerms is the set of lexical terms of text (package terms: stemmed,
// stop words dropped), without one-letter terms but with one-digit numbers,
// which tell dates and counts apart.
func contentTerms(text string) map[string]struct{} {
	set := make(map[string]struct{})
	for _, t := range terms.Tokens(text) {
		if len(t) >= 2 || t[0] >= '0' && t[0] <= '9' {
			set[t] = struct{}{}
		}
	}
	return set
}

// Support is how much of a candidate's content the backing lessons hold, in
// [0, 1]: the share of its content terms held by a backing lesson (each
// lesson counting with its weight in [0, 1]), times missDecay for every term
// no lesson holds (fractionally for partly held ones). The count of missing
// terms saturates at missCap (m·cap/(m+cap)), so that a long candidate is
// judged mostly by the share it has backed rather than by its length. A
// candidate whose every term the knowledge holds has support 1; each claim
// the knowledge does not hold costs footing. A candidate without content
// terms has support neutral. It is safe for concurrent use.
func Support(candidate map[string]struct{}, lessonTexts []string, weights []float64, missDecay, missCap, neutral float64) float64 {
	if len(candidate) == 0 {
		return neutral
	}
	held := make([]map[string]struct{}, len(lessonTexts))
	for i, t := range lessonTexts {
		held[i] = contentTerms(t)
	}
	var covered float64
	for t := range candidate {
		best := 0.0
		for i, h := range held {
			if _, ok := h[t]; ok && i < len(weights) {
				best = max(best, clamp01(weights[i]))
			}
		}
		covered += best
	}
	n := float64(len(candidate))
	missing := max(0, n-covered)
	if missCap > 0 {
		missing = missing * missCap / (missing + missCap)
	}
	return clamp01(covered / n * math.Pow(missDecay, missing))
}

func clamp01(x float64) float64 {
	if !(x > 0) { // also maps NaN to 0
		return 0
	}
	return min(x, 1)
}
