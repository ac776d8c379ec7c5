// Package capture reads a user's message to a coding agent, with the
// agent's turn before it, and tells whether the message corrects the agent
// ("no, use pnpm, not npm", "still the same error", "revert that", "non pas
// du tout.") and whether it states a standing rule ("from now on…", "never
// update the seeds", "in this repo we…"), with the rule's own words.
//
// It works from general cues, kept per language as data under cues/
// (English, French, Spanish, Portuguese, German, Czech, Chinese, Japanese):
// an explicit rejection, a reversal of what the agent did, a reproach of
// its act, "still" with a failure, the request repeated, a failure reported
// after the agent claimed a fix, a negation whose object is something the
// agent's turn mentions; for rules, a standing time scope or "always" and
// "never" governing a directive to the agent, not describing the product,
// and not limited to the current step ("for now", "this time"). No list is
// learnt from an evaluation set.
//
// Precision comes first: a false correction teaches a wrong lesson, so one
// weak cue never suffices. Everything here is pure, deterministic and safe
// for concurrent use.
package capture

import (
	"github.com/innate-mcp/innate-mcp/terms"
)

// Default thresholds on the scores of a Result.
const (
	// CorrectionThreshold is the CorrectionScore from which a message is a
	// correction.
	CorrectionThreshold = 0.5
	// RuleThreshold is the RuleScore from which a message states a rule.
	RuleThreshold = 0.5
)

// Result is what Read finds in one user message.
type Result struct {
	// Correction reports whether the message corrects the agent's previous
	// turn: CorrectionScore ≥ CorrectionThreshold.
	Correction bool `json:"correction"`
	// CorrectionScore is the strength of the evidence, from 0 to 1.
	CorrectionScore float64 `json:"correction_score"`
	// Rule reports whether the message states a standing rule:
	// RuleScore ≥ RuleThreshold.
	Rule bool `json:"rule"`
	// RuleText is the sentence or two of the message that state the rule,
	// verbatim and trimmed; it is set, with RuleScore, for the best candidate
	// even below the threshold, and empty when no sentence has a rule cue.
	RuleText string `json:"rule_text,omitempty"`
	// RuleScore is the strength of the evidence for a rule, from 0 to 1.
	RuleScore float64 `json:"rule_score"`
	// Cues are the cues that count, as "class: words as written", in the
	// order found; correction cues first, then those of the rule.
	Cues []string `json:"cues,omitempty"`
}

// Read reads message, the user's turn, given previousAgent, the end of the
// agent's turn before it ("" for the first message of a chat, which corrects
// nothing). It is a pure function.
func Read(message, previousAgent string) Result {
	toks := tokenize(message)
	ms := lex().find(toks)
	var r Result
	r.CorrectionScore, r.Cues = correction(message, previousAgent, toks, ms)
	var ruleCues []string
	r.RuleScore, r.RuleText, ruleCues = rule(message, toks, ms)
	r.Cues = append(r.Cues, ruleCues...)
	r.Correction = r.CorrectionScore >= CorrectionThreshold
	r.Rule = r.RuleScore >= RuleThreshold
	return r
}

// evidence accumulates independent cues as a noisy-or: each cue is a
// chance that the message is what is sought, and a class counts once, at
// its strongest.
type evidence struct {
	weights map[string]float64
	cues    []string
}

func (e *evidence) add(name string, w float64, text string) {
	if e.weights == nil {
		e.weights = make(map[string]float64)
	}
	if old, ok := e.weights[name]; ok && old >= w {
		return
	}
	if _, ok := e.weights[name]; !ok {
		e.cues = append(e.cues, name+": "+text)
	}
	e.weights[name] = w
}

func (e *evidence) has(names ...string) bool {
	for _, n := range names {
		if _, ok := e.weights[n]; ok {
			return true
		}
	}
	return false
}

func (e *evidence) score() float64 {
	miss := 1.0
	for _, w := range e.weights {
		miss *= 1 - w
	}
	return 1 - miss
}

// span is the text of tokens [from, to) as written.
func span(text string, toks []token, from, to int) string {
	if from >= to {
		return ""
	}
	return text[toks[from].start:toks[to-1].end]
}

// sentences returns the token ranges of the sentences of toks, breaks
// excluded.
func sentences(toks []token) [][2]int {
	var out [][2]int
	start := 0
	for i, t := range toks {
		if t.isBreak() {
			if i > start {
				out = append(out, [2]int{start, i})
			}
			start = i + 1
		}
	}
	if start < len(toks) {
		out = append(out, [2]int{start, len(toks)})
	}
	return out
}

// sentenceOf returns, for every token, the index of its sentence (breaks
// belong to the sentence they end).
func sentenceOf(toks []token) []int {
	out := make([]int, len(toks))
	s := 0
	for i, t := range toks {
		out[i] = s
		if t.isBreak() {
			s++
		}
	}
	return out
}

// startsSentence reports whether toks[i] opens a sentence or a clause.
func startsSentence(toks []token, i int) bool {
	return i == 0 || toks[i-1].kind >= kindComma
}

// windowTerms returns the content terms of up to n words after (n > 0) or
// before (n < 0) token i, within its sentence, less generic words.
func windowTerms(text string, toks []token, i, n int) map[string]struct{} {
	from, to := i, i
	if n > 0 {
		for to < len(toks) && to-i < n && !toks[to].isBreak() {
			to++
		}
	} else {
		for from > 0 && i-from < -n && !toks[from-1].isBreak() {
			from--
		}
	}
	set := terms.Distinct(span(text, toks, from, to))
	for t := range set {
		if lex().generic[t] || len(t) < 3 {
			delete(set, t)
		}
	}
	return set
}

// overlaps returns a term of a that is also in b.
func overlaps(a, b map[string]struct{}) (string, bool) {
	for t := range a {
		if _, ok := b[t]; ok {
			return t, true
		}
	}
	return "", false
}
