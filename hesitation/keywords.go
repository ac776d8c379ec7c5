package hesitation

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// MaxKeywords is the largest number of keywords ExtractKeywords returns.
const MaxKeywords = 8

// informative reports whether tok can serve as a pattern keyword.
func informative(l *lexicon, tok string) bool {
	if l.stopwords[tok] {
		return false
	}
	r, n := utf8.DecodeRuneInString(tok)
	if terms.IsHanKanaBlock(r) {
		r2, _ := utf8.DecodeRuneInString(tok[n:])
		if l.stopRunes[r] || l.stopRunes[r2] {
			return false
		}
		if unicode.Is(unicode.Hiragana, r) && unicode.Is(unicode.Hiragana, r2) {
			return false // kana-only bigrams are grammar, not content
		}
		return true
	}
	if len(tok) < 2 {
		return false
	}
	hasLetter := false
	for i := 0; i < len(tok); i++ {
		if isLower(tok[i]) {
			hasLetter = true
			break
		}
	}
	if !hasLetter && len(tok) < 3 {
		return false // "12", "%"
	}
	return true
}

// rejectedTokens are the tokens a correction rejects: those after a
// rejection word ("not", "instead of", "不要", "ではなく") up to the end of
// its clause.
func rejectedTokens(sc *scanned) map[string]bool {
	out := map[string]bool{}
	for _, m := range sc.byCat[catRejection] {
		end := clauseEnd(sc.folded, m.end)
		eachToken(sc.folded[m.end:end], false, func(b []byte) { out[string(b)] = true })
	}
	return out
}

// clauseEnd is the offset of the end of the clause holding i: the next
// comma, semicolon, sentence mark or line break, ASCII or CJK.
func clauseEnd(s []byte, i int) int {
	for i < len(s) {
		switch s[i] {
		case ',', ';', '!', '?', '\n':
			return i
		case '.', ':': // not inside a path or a version ("cart.go", "a:b")
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
				return i
			}
		}
		r, n := utf8.DecodeRune(s[i:])
		if strings.ContainsRune("，、。！？；：", r) {
			return i
		}
		i += n
	}
	return i
}

// codeish reports tokens that look like code, commands or versions.
func codeish(tok string) bool {
	return strings.ContainsAny(tok, "0123456789_-./:=()$@#")
}

// ExtractKeywords returns up to MaxKeywords keywords that characterise the
// mistake a correction points at: tokens that occur in both the correction
// and the draft it corrected come first, then code-like tokens of the draft
// and the words the correction rejects, then other draft words; ties keep
// first-occurrence order. A word only the correction holds is kept only
// when the correction rejects it ("not npm", "instead of X", "不要用X"):
// the rest of the correction names what the user asks for instead ("use
// pnpm", "the handler is in cmd/api"), and a pattern holding that would
// flag the corrected behaviour. Without a draft and without a rejected
// word, the correction's words are all there is to go on. Tokens are folded Latin words or code tokens and,
// for Chinese and Japanese, character bigrams without stop characters or
// kana-only pairs. The result is deterministic, never nil-vs-empty
// sensitive, and the function is safe for concurrent use.
func ExtractKeywords(correction, correctedDraft string) []string {
	l := lex()
	type cand struct {
		tok        string
		inC, inD   bool
		firstOrder int
	}
	idx := map[string]int{}
	var cs []cand
	order := 0
	collect := func(text string, inC bool) {
		eachToken(terms.FoldASCII(text), false, func(b []byte) {
			tok := string(b)
			if !informative(l, tok) {
				return
			}
			i, ok := idx[tok]
			if !ok {
				i = len(cs)
				idx[tok] = i
				cs = append(cs, cand{tok: tok, firstOrder: order})
				order++
			}
			if inC {
				cs[i].inC = true
			} else {
				cs[i].inD = true
			}
		})
	}
	collect(correction, true)
	collect(correctedDraft, false)
	// Drop tokens that are part of a correction cue ("told", "為何還是").
	cues := map[string]bool{}
	sc := scanText(correction)
	rejected := rejectedTokens(sc)
	for _, m := range sc.byCat[catCorrection] {
		eachToken(sc.folded[m.start:m.end], false, func(b []byte) { cues[string(b)] = true })
	}
	score := func(c cand) int {
		switch {
		case c.inC && c.inD:
			return 3
		case c.inD && codeish(c.tok), c.inC:
			return 2
		}
		return 1
	}
	onlyRejected := len(rejected) > 0 || strings.TrimSpace(correctedDraft) != ""
	kept := cs[:0]
	for _, c := range cs {
		if cues[c.tok] || onlyRejected && c.inC && !c.inD && !rejected[c.tok] {
			continue
		}
		kept = append(kept, c)
	}
	sort.SliceStable(kept, func(i, j int) bool {
		si, sj := score(kept[i]), score(kept[j])
		if si != sj {
			return si > sj
		}
		return kept[i].firstOrder < kept[j].firstOrder
	})
	out := []string{}
	for _, c := range kept {
		if len(out) == MaxKeywords {
			break
		}
		out = append(out, c.tok)
	}
	return out
}
