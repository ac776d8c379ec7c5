package hesitation

import (
	"unicode"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// isWordByte reports whether c is an ASCII letter, digit or underscore.
func isWordByte(c byte) bool {
	return c == '_' || ('0' <= c && c <= '9') || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z')
}

// isWordRune reports whether r continues a Latin-script word: letters and
// digits other than CJK.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return isWordByte(byte(r))
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !terms.IsHanKanaBlock(r)
}

// atBoundary reports whether [start, end) in s is delimited as a word at
// each end where the matched text itself begins or ends with a word byte.
func atBoundary(s []byte, start, end int) bool {
	if start > 0 && isWordByte(s[start]) {
		r, _ := utf8.DecodeLastRune(s[:start])
		if isWordRune(r) {
			return false
		}
	}
	if end < len(s) && isWordByte(s[end-1]) {
		r, _ := utf8.DecodeRune(s[end:])
		if isWordRune(r) {
			return false
		}
	}
	return true
}

// Span is a half-open byte range [Start, End) into the text a result was
// computed from.
type Span struct {
	// Start is the offset of the first byte.
	Start int `json:"start"`
	// End is the offset just past the last byte.
	End int `json:"end"`
}

// sentences splits s into sentence spans: at . ! ? followed by space or end,
// at the CJK full stops 。！？, and at blank lines and list-item line breaks.
// Spans cover all non-blank text; whitespace around them is trimmed.
func sentences(s []byte) []Span {
	var out []Span
	start := 0
	emit := func(end int) {
		a, b := start, end
		for a < b && isSpace(s[a]) {
			a++
		}
		for b > a && isSpace(s[b-1]) {
			b--
		}
		if a < b {
			out = append(out, Span{a, b})
		}
		start = end
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '.' || c == '!' || c == '?':
			j := i + 1
			for j < len(s) && (s[j] == '.' || s[j] == '!' || s[j] == '?' || s[j] == '"' || s[j] == ')' || s[j] == '\'') {
				j++
			}
			if j == len(s) || isSpace(s[j]) {
				// Not after a single capital ("J. Smith") or a digit ("1.").
				if !(i > 0 && isAbbrevBefore(s, i)) {
					emit(j)
				}
			}
			i = j
		case c == '\n':
			j := i + 1
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
				j++
			}
			if j < len(s) && (s[j] == '\n' || s[j] == '-' || s[j] == '*' || s[j] == '|' || s[j] == '#' || ('0' <= s[j] && s[j] <= '9')) {
				emit(i)
			}
			i++
		case c == 0xE3 || c == 0xEF:
			// 。 is E3 80 82, ！ is EF BC 81, ？ is EF BC 9F.
			if i+2 < len(s) && ((c == 0xE3 && s[i+1] == 0x80 && s[i+2] == 0x82) ||
				(c == 0xEF && s[i+1] == 0xBC && (s[i+2] == 0x81 || s[i+2] == 0x9F))) {
				emit(i + 3)
				i += 3
				continue
			}
			i++
		default:
			i++
			for i < len(s) && sentenceQuiet[s[i]] {
				i++
			}
		}
	}
	emit(len(s))
	return out
}

// sentenceQuiet marks bytes that can never end a sentence.
var sentenceQuiet = func() (t [256]bool) {
	for c := range t {
		t[c] = true
	}
	for _, c := range []byte(".!?\n\xE3\xEF") {
		t[c] = false
	}
	return t
}()

// isAbbrevBefore reports whether the period at i ends a single-letter
// initial or a bare number, where it does not end a sentence.
func isAbbrevBefore(s []byte, i int) bool {
	j := i
	for j > 0 && isWordByte(s[j-1]) {
		j--
	}
	w := s[j:i]
	if len(w) == 1 && 'A' <= w[0] && w[0] <= 'Z' {
		return true
	}
	if len(w) > 0 && len(w) <= 2 && atLineStart(s, j) {
		allDigit := true
		for _, c := range w {
			if c < '0' || c > '9' {
				allDigit = false
			}
		}
		return allDigit
	}
	return false
}

// atLineStart reports whether only spaces or tabs separate offset i from
// the start of its line.
func atLineStart(s []byte, i int) bool {
	for j := i; j > 0; j-- {
		switch s[j-1] {
		case '\n':
			return true
		case ' ', '\t':
			continue
		}
		return false
	}
	return true
}

// isSpace reports ASCII white space.
func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

// prevWord returns the ASCII word that ends before offset i (skipping
// spaces), folded, or "".
func prevWord(s []byte, i int) string {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	k := j
	for k > 0 && (isWordByte(s[k-1]) || s[k-1] == '\'') {
		k--
	}
	return string(s[k:j])
}

// nextWord returns the token that starts after offset i (skipping spaces):
// a word, or a single other character; "" at the end.
func nextWord(s []byte, i int) string {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
		j++
	}
	k := j
	for k < len(s) && (isWordByte(s[k]) || s[k] == '\'' || s[k] == '-') {
		k++
	}
	if k == j && j < len(s) {
		_, n := utf8.DecodeRune(s[j:])
		k = j + n
	}
	return string(s[j:k])
}
