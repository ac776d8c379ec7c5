package terms

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// folded maps the Latin letters with diacritics to their base letters,
// built on first use from their canonical decompositions (not at every
// process start: a hook process that folds nothing does not pay for it).
var folded = sync.OnceValue(func() map[rune]string {
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
})

// FoldDiacritics lower-cases s and strips the diacritics of Latin letters
// (é → e, ř → r, ß → ss, æ → ae, ł → l), so that words typed with or without
// accents meet; nonspacing combining marks vanish and other characters are
// only lower-cased. Lengths may change: offsets into s are not offsets into
// the result (FoldASCII keeps them, folding less).
func FoldDiacritics(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return LowerASCII(s)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			b.WriteByte(byte(r))
		case unicode.Is(unicode.Mn, r):
		default:
			r = unicode.ToLower(r)
			if f, ok := folded()[r]; ok {
				b.WriteString(f)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
