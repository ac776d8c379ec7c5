package capture

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

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
	var word strings.Builder
	wordStart := -1
	flush := func(end int) {
		if wordStart < 0 {
			return
		}
		w := word.String()
		word.Reset()
		start := wordStart
		wordStart = -1
		out = appendWord(out, w, start, end)
	}
	inFence := false
	lineStart := true
	for i := 0; i < len(text); {
		if lineStart {
			lineStart = false
			if strings.HasPrefix(text[i:], "```") || strings.HasPrefix(text[i:], "~~~") {
				inFence = !inFence
				i = skipLine(text, i)
				continue
			}
			if inFence || strings.HasPrefix(text[i:], "    ") || strings.HasPrefix(text[i:], "\t") {
				i = skipLine(text, i)
				continue
			}
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case isCJK(r):
			flush(i)
			out = append(out, token{norm: string(r), start: i, end: i + size, kind: kindCJK})
		case isLetterOrDigit(r):
			if wordStart < 0 {
				wordStart = i
			}
			word.WriteString(fold(r))
		case isApostrophe(r) && wordStart >= 0 && i+size < len(text):
			next, _ := utf8.DecodeRuneInString(text[i+size:])
			if !unicode.IsLetter(next) || isCJK(next) {
				flush(i)
				break
			}
			if elides(word.String()) {
				flush(i)
				break
			}
			// A contraction: the apostrophe is dropped and the word goes on.
		default:
			flush(i)
			if r == '\n' {
				lineStart = true
			}
			if k, ok := punctKind(r); ok && !inWord(text, i, size) {
				out = appendBreak(out, k, i, i+size)
			}
		}
		i += size
	}
	flush(len(text))
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

// isCJK reports whether r is a Han, Hiragana, Katakana or Hangul character.
func isCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) || r == 'ー')
}

// folded maps the Latin letters with diacritics to their base letters,
// built once from their canonical decompositions.
var folded = func() map[rune]string {
	m := make(map[rune]string)
	for r := rune(0xC0); r <= 0x24F; r++ {
		d := norm.NFD.String(string(r))
		base, _ := utf8.DecodeRuneInString(d)
		if len(d) > 1 && base < utf8.RuneSelf && unicode.IsLetter(base) {
			m[r] = string(unicode.ToLower(base))
		}
	}
	m['ß'], m['æ'], m['œ'], m['ø'], m['đ'], m['ł'] = "ss", "ae", "oe", "o", "d", "l"
	return m
}()

// fold lower-cases r and strips its diacritics; combining marks vanish.
func fold(r rune) string {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		return string(r)
	}
	if unicode.Is(unicode.Mn, r) {
		return ""
	}
	r = unicode.ToLower(r)
	if f, ok := folded[r]; ok {
		return f
	}
	return string(r)
}

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
