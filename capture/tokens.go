package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// maxScan bounds the bytes of a message that are read: cues sit in what the
// user typed, not in the tail of a pasted log.
const maxScan = 4000

// Token kinds.
const (
	kindWord  = iota // a word, folded and stemmed
	kindCJK          // one Han, kana or Hangul character
	kindComma        // a clause break: , ; : and their full-width forms
	kindStop         // a sentence end: . ! newline and their full-width forms
	kindQuery        // a question mark, which also ends a sentence
)

// token is one unit of a message: its normalised form and where it sits in
// the original text.
type token struct {
	norm       string
	start, end int // byte offsets in the original text
	kind       int
}

// isBreak reports whether the token ends a sentence.
func (t token) isBreak() bool { return t.kind == kindStop || t.kind == kindQuery }

// tokenize splits text into tokens: words are lower-cased and stripped of
// diacritics (é → e, ř → r, so that accents typed or not meet); CJK characters are tokens of one
// character each, so a CJK cue is a run of tokens like any other.
// Apostrophes join English contractions (don't → dont) and split French
// elisions (c'est → c est). Fenced code blocks and indented lines, which
// quote code or logs rather than the user's words, are skipped. Cue phrases
// go through the same function, so both sides always agree.
func tokenize(text string) []token {
	if len(text) > maxScan {
		text = clipRunes(text, maxScan)
	}
	out := make([]token, 0, len(text)/5+2)
	inFence := false
	for start := 0; start < len(text); {
		end := skipLine(text, start)
		switch {
		case strings.HasPrefix(text[start:], "```") || strings.HasPrefix(text[start:], "~~~"):
			inFence = !inFence
		case inFence || strings.HasPrefix(text[start:], "    ") || strings.HasPrefix(text[start:], "\t"):
		default:
			out = appendLine(out, text, start, end)
		}
		if end < len(text) { // the line break ends a sentence
			out = appendBreak(out, kindStop, end, end+1)
		}
		start = end + 1
	}
	return out
}

// scanner reads a message's words (letters, digits, underscores and
// combining marks) and its Han, kana and Hangul characters one by one.
var scanner = terms.Scanner{Word: isLetterOrDigit, CJK: isCJK}

// appendLine appends the tokens of the line text[start:end].
func appendLine(out []token, text string, start, end int) []token {
	var word strings.Builder
	wordStart, wordEnd := -1, 0
	join := false // the last token was an apostrophe inside a contraction
	flush := func() {
		if wordStart >= 0 {
			out = appendWord(out, word.String(), wordStart, wordEnd)
			word.Reset()
			wordStart = -1
		}
	}
	for tok := range scanner.Tokens(text[start:end]) {
		a, b := start+tok.Start, start+tok.End
		switch tok.Kind {
		case terms.KindWord:
			if !join {
				flush()
				wordStart = a
			}
			join = false
			word.WriteString(terms.FoldDiacritics(text[a:b]))
			wordEnd = b
		case terms.KindCJK:
			flush()
			out = append(out, token{norm: text[a:b], start: a, end: b, kind: kindCJK})
		case terms.KindPunct:
			r, size := utf8.DecodeRuneInString(text[a:])
			if isApostrophe(r) && wordStart >= 0 && wordEnd == a && b < len(text) {
				next, _ := utf8.DecodeRuneInString(text[b:])
				if unicode.IsLetter(next) && !isCJK(next) && !elides(word.String()) {
					join = true // a contraction: the apostrophe is dropped and the word goes on
					continue
				}
			}
			flush()
			if k, ok := punctKind(r); ok && !inWord(text, a, size) {
				out = appendBreak(out, k, a, b)
			}
		}
	}
	flush()
	return out
}

// appendWord appends the token of one word. Words are not stemmed: the
// tense of a cue matters ("you changed" reproaches, "can you change" asks),
// so cue lists spell the forms they mean.
func appendWord(out []token, w string, start, end int) []token {
	if len(w) > terms.MaxTermBytes {
		return out
	}
	return append(out, token{norm: w, start: start, end: end, kind: kindWord})
}

// inWord reports whether the full stop or comma at i joins the parts of a
// name or number (Layouts.app, 1,000) rather than ending a sentence.
func inWord(text string, i, size int) bool {
	if text[i] != '.' && text[i] != ',' || i == 0 || i+size >= len(text) {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(text[:i])
	next, _ := utf8.DecodeRuneInString(text[i+size:])
	return isLetterOrDigit(prev) && isLetterOrDigit(next) && !isCJK(next)
}

// appendBreak appends a clause or sentence break; a run of punctuation
// collapses into one break of the strongest kind.
func appendBreak(out []token, k, start, end int) []token {
	if last := len(out) - 1; last >= 0 && out[last].kind >= kindComma {
		if k > out[last].kind {
			out[last].kind, out[last].norm = k, punctNorm(k)
		}
		return out
	}
	return append(out, token{norm: punctNorm(k), start: start, end: end, kind: k})
}

// skipLine returns the offset just past the end of the line at i, leaving
// the newline to be read so that it still ends a sentence.
func skipLine(text string, i int) int {
	if j := strings.IndexByte(text[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(text)
}

// elides reports whether a word before an apostrophe is a French or
// Italian elided article or pronoun (l', d', c', n', qu', jusqu').
func elides(w string) bool {
	if utf8.RuneCountInString(w) == 1 {
		return w != "i" && w != "o" // I'm and o'clock stay one word
	}
	switch w {
	case "qu", "jusqu", "lorsqu", "puisqu", "quoiqu", "dell", "nell", "sull", "all", "dall":
		return true
	}
	return false
}

// punctKind classifies a punctuation rune as a clause or sentence break.
func punctKind(r rune) (int, bool) {
	switch r {
	case ',', ';', ':', '，', '；', '：', '、', '(', ')', '（', '）':
		return kindComma, true
	case '.', '!', '\n', '。', '！', '…':
		return kindStop, true
	case '?', '？', '¿':
		if r == '¿' {
			return kindComma, true
		}
		return kindQuery, true
	}
	return 0, false
}

// punctNorm is the normalised form of a break token, as cue phrases spell it.
func punctNorm(kind int) string {
	switch kind {
	case kindComma:
		return ","
	case kindQuery:
		return "?"
	}
	return "."
}

// isLetterOrDigit reports whether r belongs to a word.
func isLetterOrDigit(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// isApostrophe reports whether r is an apostrophe as people type them.
func isApostrophe(r rune) bool { return r == '\'' || r == '’' || r == 'ʼ' }

// isCJK reports whether r is a Han, Hiragana, Katakana or Hangul character,
// or the prolonged sound mark ー.
func isCJK(r rune) bool { return terms.IsCJK(r) || r == 'ー' }

// clipRunes cuts s to at most n bytes on a rune boundary.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
