package route

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// cjkHits are the Chinese and Japanese findings of one message.
type cjkHits struct {
	text                                                     string
	greeting, positive, negative, implicitRef, clarification bool
	imperative, question                                     bool
	interrogatives, errors                                   int
	socialRunes                                              int      // Han/kana characters inside social spans
	socialSpans                                              [][2]int // byte ranges of greeting/thanks phrases, in order, disjoint
}

// socialRunesIn counts the Han/kana characters of social spans inside
// [start, end).
func (h cjkHits) socialRunesIn(start, end int) int {
	n := 0
	for _, sp := range h.socialSpans {
		if a, b := max(sp[0], start), min(sp[1], end); a < b {
			n += countCJK(h.text[a:b])
		}
	}
	return n
}

// inSocial reports whether byte offset i lies inside a social span.
func (h cjkHits) inSocial(i int) bool {
	for _, sp := range h.socialSpans {
		if i >= sp[0] && i < sp[1] {
			return true
		}
	}
	return false
}

// addSocial records [a, b) as a social span, merging with the last one.
func (h *cjkHits) addSocial(a, b int) {
	if n := len(h.socialSpans); n > 0 && a <= h.socialSpans[n-1][1] {
		h.socialSpans[n-1][1] = max(h.socialSpans[n-1][1], b)
		return
	}
	h.socialSpans = append(h.socialSpans, [2]int{a, b})
}

func countCJK(s string) int {
	n := 0
	for _, r := range s {
		if terms.IsHanKana(r) {
			n++
		}
	}
	return n
}

// firstContent returns the byte offset of the first letter or digit of s.
func firstContent(s string) int {
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return i
		}
	}
	return len(s)
}

// scanCJK matches the Chinese and Japanese term lists against t.text in one
// pass: masks first, then the longest term at each position.
func scanCJK(l *lexicon, t tokens) cjkHits {
	h := cjkHits{text: t.text}
	if t.cjkRunes == 0 {
		return h
	}
	text := t.text
	first := firstContent(text)
	skipUntil, interrogUntil, errorUntil := 0, 0, 0
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		terms := l.cjk.byFirst[r]
		if len(terms) == 0 || i < skipUntil {
			i += size
			continue
		}
		if n := l.cjk.matchAt(text, i, cjkMask); n > 0 {
			skipUntil = i + n
			i += size
			continue
		}
		inSocial := h.inSocial(i)
		for _, tm := range terms {
			if !strings.HasPrefix(text[i:], tm.text) {
				continue
			}
			sec, end := tm.sections, i+len(tm.text)
			if sec&cjkGreeting != 0 && i == first {
				h.greeting = true
				h.addSocial(i, end)
			}
			if sec&cjkPositive != 0 {
				h.positive = true
				h.addSocial(i, end)
			}
			if sec&cjkNegative != 0 {
				h.negative = true
			}
			if inSocial {
				continue
			}
			if sec&cjkImplicitRef != 0 {
				h.implicitRef = true
			}
			if sec&cjkClarification != 0 {
				h.clarification = true
			}
			if sec&cjkQuestion != 0 {
				h.question = true
			}
			if sec&(cjkRequest|cjkImperativeJA) != 0 {
				h.imperative = true
			}
			if sec&cjkInterrogative != 0 && i >= interrogUntil {
				h.interrogatives++
				interrogUntil = end
			}
			if sec&cjkError != 0 && i >= errorUntil {
				h.errors++
				errorUntil = end
			}
		}
		i += size
	}
	for _, sp := range h.socialSpans {
		h.socialRunes += countCJK(text[sp[0]:sp[1]])
	}
	for _, sen := range t.sentences {
		if sen.cjkRunes > 0 && h.finalParticle(l, text[sen.start:sen.end], sen.start) {
			h.question = true
		}
	}
	if !h.imperative {
		h.imperative = h.clauseImperative(l, text)
	}
	return h
}

// finalParticle reports whether the sentence (starting at byte off of the
// text) ends with a question particle outside a social phrase.
func (h cjkHits) finalParticle(l *lexicon, sen string, off int) bool {
	end := len(sen)
	for end > 0 {
		r, size := utf8.DecodeLastRuneInString(sen[:end])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			break
		}
		if r == '？' || r == '?' {
			// "の？" carries its own mark; keep it for the suffix test.
			if strings.HasSuffix(sen[:end], "の？") {
				break
			}
		}
		end -= size
	}
	body := sen[:end]
	for _, f := range l.finals {
		if strings.HasSuffix(body, f) && !h.inSocial(off+len(body)-len(f)) {
			return true
		}
	}
	return false
}

// isClauseBreak reports whether r separates clauses in Chinese text.
func isClauseBreak(r rune) bool {
	switch r {
	case '。', '！', '？', '!', '?', '；', ';', '，', ',', '、', '：', ':', '\n':
		return true
	}
	return false
}

// clauseImperative reports whether a clause opens, after lead words and
// social phrases, with a Chinese request verb ("请修复…", "然后把…").
func (h cjkHits) clauseImperative(l *lexicon, text string) bool {
	at := 0
	for at <= len(text) {
		p := at
		for p < len(text) {
			r, size := utf8.DecodeRuneInString(text[p:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				break
			}
			p += size
		}
		for p < len(text) {
			if h.inSocial(p) {
				_, size := utf8.DecodeRuneInString(text[p:])
				p += size
				continue
			}
			if n := l.cjk.matchAt(text, p, cjkLead); n > 0 && l.cjk.matchAt(text, p, cjkImperativeZH) < n {
				p += n
				continue
			}
			break
		}
		if p < len(text) && l.cjk.matchAt(text, p, cjkMask) == 0 && l.cjk.matchAt(text, p, cjkImperativeZH) > 0 {
			return true
		}
		next := strings.IndexFunc(text[at:], isClauseBreak)
		if next < 0 {
			return false
		}
		_, size := utf8.DecodeRuneInString(text[at+next:])
		at += next + size
	}
	return false
}
