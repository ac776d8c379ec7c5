package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// NumberMask is what MaskNumbers puts in place of a number.
const NumberMask = "#"

// MaskNumbers returns text with every number replaced by [NumberMask]. A
// number is a word made of digits only, words being split as everywhere in
// this package (runs of letters, digits and underscores): "lesson number 12:",
// "line 42", "Go 1.21" (two numbers) and "10,000" (two) are masked, while
// digits inside a word ("utf8", "int64", "v2", "e2e", "md5") are part of a
// name and stay. Everything else is kept byte for byte. Safe for concurrent
// use.
func MaskNumbers(text string) string {
	var b strings.Builder
	last := 0 // text[last:] is not yet written
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if !IsWordRune(r) {
			i += size
			continue
		}
		j, digits := i, true
		for j < len(text) {
			r2, s2 := utf8.DecodeRuneInString(text[j:])
			if !IsWordRune(r2) {
				break
			}
			digits = digits && unicode.IsDigit(r2)
			j += s2
		}
		if digits {
			if b.Len() == 0 {
				b.Grow(len(text))
			}
			b.WriteString(text[last:i])
			b.WriteString(NumberMask)
			last = j
		}
		i = j
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
