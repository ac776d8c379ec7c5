package route

import (
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Signals are the observable features of one user message, read from its text
// in English, Chinese (Simplified and Traditional) and Japanese with the term
// lists in lexicon/. Extract computes them; Route turns them into scores. A
// plain value, safe to copy and to read concurrently.
type Signals struct {
	// Empty is true when the message has no letter, digit or emoji at all
	// (blank, or punctuation only).
	Empty bool
	// Tokens counts the words of the message; a run of n Han/kana characters
	// counts as ⌈n/2⌉ words.
	Tokens int
	// ContentTokens counts the words outside greeting and thanks phrases.
	ContentTokens int
	// Question is true for a formal question outside greetings: a question
	// mark after content, an English sentence opening with an auxiliary and a
	// subject ("can you", "is it"), a Chinese yes/no form ("是不是"), or a
	// Chinese or Japanese sentence-final particle ("吗", "か").
	Question bool
	// Interrogatives counts wh-words ("why", "为什么", "なぜ") that ask:
	// English ones only at a sentence start, in a sentence ending in "?", or
	// after a verb that embeds a question ("I wonder why").
	Interrogatives int
	// Greeting is true when the message opens with a greeting.
	Greeting bool
	// Feedback is +1 for explicit positive feedback ("thanks", "谢谢"),
	// -1 for negative feedback ("that's wrong", "还是不行"), 0 for none;
	// negative wins when both occur.
	Feedback int
	// Density is the information density: distinct tokens / tokens, counting
	// each Han/kana character as a token; 1 for an empty message.
	Density float64
	// ImplicitReference is true when the message points at earlier shared
	// work ("as we discussed", "like last time", "上次", "前回").
	ImplicitReference bool
	// Imperative is true for a request to do something: an opening verb
	// ("fix the parser", "请修复", "直して"), possibly after a request frame
	// ("can you add", "帮我", "してください").
	Imperative bool
	// Specifics counts concrete handles the message gives to look things up
	// with: code spans, file paths, identifiers (camelCase, snake_case,
	// pkg.Func, calls), flags, versions, issue numbers and failure words
	// ("panic", "报错", "エラー"); capped at 16.
	Specifics int
	// Clarification is true when the user restates what they meant
	// ("I meant", "我的意思是", "つまり").
	Clarification bool
}

// maxSpecifics caps Signals.Specifics.
const maxSpecifics = 16

// Extract reads the routing signals from a user message. It never fails: any
// string, including invalid UTF-8 and huge pastes (see MaxScanBytes), gives
// finite signals. Extract is safe for concurrent use.
func Extract(message string) Signals {
	msg := clip(message)
	var s Signals
	if !hasMeaning(msg) {
		s.Empty = true
		s.Density = 1
		return s
	}
	l := lex()
	t := tokenize(msg)
	social := make([]bool, len(t.words))
	en := scanEnglish(l, t, social)
	cj := scanCJK(l, t)

	s.Greeting = en.greeting || cj.greeting
	switch {
	case en.negative || cj.negative:
		s.Feedback = -1
	case en.positive || cj.positive:
		s.Feedback = 1
	}
	s.ImplicitReference = en.implicitRef || cj.implicitRef
	s.Clarification = en.clarification || cj.clarification
	s.Imperative = en.imperative || cj.imperative
	s.Interrogatives = en.interrogatives + cj.interrogatives

	socialWords := 0
	for _, b := range social {
		if b {
			socialWords++
		}
	}
	s.Tokens = len(t.words) + cjkWords(t.cjkRuns)
	s.ContentTokens = len(t.words) - socialWords + (t.cjkRunes-cj.socialRunes+1)/2

	// A formal question needs content outside greeting and thanks phrases:
	// "hi, how are you?" is social, "hi, why does this fail?" is not.
	s.Question = en.auxQuestion || cj.question
	for _, sen := range t.sentences {
		if !sen.qmark {
			continue
		}
		content := sen.cjkRunes - cj.socialRunesIn(sen.start, sen.end)
		for i := sen.from; i < sen.to; i++ {
			if !social[i] {
				content++
			}
		}
		if content > 0 {
			s.Question = true
			break
		}
	}

	s.Density = density(t)
	s.Specifics = min(maxSpecifics, en.errors+cj.errors+codeSpecifics(l, msg))
	return s
}

// hasMeaning reports whether s holds a letter, digit or emoji-like symbol.
func hasMeaning(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError {
			continue
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.So, r) {
			return true
		}
	}
	return false
}

// density is distinct tokens / tokens over English words and Han/kana
// characters.
func density(t tokens) float64 {
	total := len(t.words) + t.cjkRunes
	if total == 0 {
		return 1
	}
	seen := make(map[string]struct{}, total)
	for _, w := range t.words {
		seen[w] = struct{}{}
	}
	for _, r := range t.text {
		if terms.IsHanKana(r) {
			seen[string(r)] = struct{}{}
		}
	}
	return float64(len(seen)) / float64(total)
}

// enHits are the English findings of one message.
type enHits struct {
	greeting, positive, negative, implicitRef, clarification bool
	imperative, auxQuestion                                  bool
	interrogatives, errors                                   int
}

// scanEnglish matches the English term lists against t.words, marking words
// inside greeting and thanks phrases in social.
func scanEnglish(l *lexicon, t tokens, social []bool) enHits {
	var h enHits
	w := t.words
	if len(w) == 0 {
		return h
	}
	// Greetings open the message and may chain: "hi, how are you?".
	for i := 0; i < len(w); {
		n := l.greeting.matchAt(w, i)
		if n == 0 {
			break
		}
		h.greeting = true
		for k := i; k < i+n; k++ {
			social[k] = true
		}
		i += n
	}
	for i := range w {
		if !l.scanned[w[i]] {
			continue
		}
		if n := l.negative.matchAt(w, i); n > 0 {
			h.negative = true
		}
		if n := l.positive.matchAt(w, i); n > 0 {
			h.positive = true
			for k := i; k < i+n; k++ {
				social[k] = true
			}
		}
		if l.implicitRef.matchAt(w, i) > 0 {
			h.implicitRef = true
		}
		if l.clarification.matchAt(w, i) > 0 {
			h.clarification = true
		}
		if n := l.errorWords.matchAt(w, i); n > 0 {
			h.errors++
		}
	}
	for _, sen := range t.sentences {
		// Approval words count as feedback when they open a sentence, after
		// any greeting: "Great, now add tests", "hi! perfect, thanks".
		i := sen.from
		for i < sen.to && social[i] {
			i++
		}
		for i < sen.to {
			n := l.positiveOpen.matchAt(w, i)
			if n == 0 || i+n > sen.to {
				break
			}
			h.positive = true
			for k := i; k < i+n; k++ {
				social[k] = true
			}
			i += n
			for i < sen.to && social[i] {
				i++
			}
		}
	}
	for _, sen := range t.sentences {
		scanSentence(l, w, t.clause, social, sen, &h)
	}
	return h
}

// scanSentence finds opening verbs, yes/no questions and interrogatives in
// one sentence.
func scanSentence(l *lexicon, w []string, clause, social []bool, sen sentence, h *enHits) {
	// Skip greeting/thanks words and lead words ("ok now", "then") to the
	// sentence's real opening.
	i := sen.from
	for i < sen.to {
		if social[i] {
			i++
			continue
		}
		if n := l.lead.matchAt(w, i); n > 0 && i+n <= sen.to {
			i += n
			continue
		}
		break
	}
	open := i
	// "Is it …" opens a yes/no question unless the sentence ends in a full
	// stop ("Do the migration now.").
	if open < sen.to && !sen.stop {
		if n := l.aux.matchAt(w, open); n > 0 {
			if n > 1 || (open+1 < sen.to && l.subject.has(w[open+1])) {
				h.auxQuestion = true
			}
		}
	}
	// An opening verb, after request frames ("can you please"), at the
	// sentence start or at a clause start ("like last time, use the same …").
	for c := open; c < sen.to && !h.imperative; c++ {
		if c != open && !clause[c] {
			continue
		}
		j := c
		for j < sen.to {
			n := l.lead.matchAt(w, j)
			if n == 0 {
				n = l.request.matchAt(w, j)
			}
			if n == 0 || j+n > sen.to {
				break
			}
			j += n
		}
		if j < sen.to && l.imperative.has(w[j]) &&
			(j+1 >= sen.to || !l.notImperativeNext.has(w[j+1])) {
			h.imperative = true
		}
	}
	// A request frame later in the sentence followed by a verb also asks for
	// work: "so could you add a test".
	for j := open + 1; j < sen.to && !h.imperative; j++ {
		n := l.request.matchAt(w, j)
		if n == 0 || j+n >= sen.to {
			continue
		}
		k := j + n
		if l.imperative.has(w[k]) && (k+1 >= sen.to || !l.notImperativeNext.has(w[k+1])) {
			h.imperative = true
		}
	}
	for k := sen.from; k < sen.to; k++ {
		if social[k] || !l.scanned[w[k]] || l.interrogative.matchAt(w, k) == 0 {
			continue
		}
		opens := k == open && (l.askOpen.matchAt(w, k) > 0 || (k+1 < sen.to && l.aux.has(w[k+1])))
		if opens || sen.qmark || l.ask.matchAt(w, k) > 0 || embeddedQuestion(l, w, sen.from, k) {
			h.interrogatives++
		}
	}
}

// embeddedQuestion reports whether the words just before w[k] embed a
// question ("I wonder why", "tell me how").
func embeddedQuestion(l *lexicon, w []string, from, k int) bool {
	for back := 1; back <= 2; back++ {
		if k-back < from {
			return false
		}
		if l.embed.matchAt(w, k-back) == back {
			return true
		}
	}
	return false
}
