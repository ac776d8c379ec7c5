package sanitize

import (
	"unicode"
	"unicode/utf8"
)

// normText is text folded for matching, with a map back to the original.
//
// s always starts with a synthetic '\n' (mapped to offset 0) so that rules
// can anchor on a line start with a literal "\n" even on the first line.
// off[i] is the byte offset in the original text of the rune that produced
// s[i].
type normText struct {
	s   string
	off []int32
}

// span converts a half-open byte range of the normalised text to a half-open
// byte range of the original text.
func (n *normText) span(orig string, start, end int) (int, int) {
	if start >= end {
		o := int(n.off[start])
		return o, o
	}
	os := int(n.off[start])
	last := int(n.off[end-1])
	_, size := utf8.DecodeRuneInString(orig[last:])
	oe := last + size
	if oe > len(orig) {
		oe = len(orig)
	}
	if os > oe {
		os = oe
	}
	return os, oe
}

// normalize folds text for matching: lower case, full-width and
// mathematical alphanumerics to ASCII, common Cyrillic/Greek look-alikes to
// Latin, typographic quotes and dashes to ASCII, invisible format characters
// and combining marks removed, Unicode tag characters decoded to the ASCII
// they smuggle, and whitespace runs collapsed to one space (or one "\n" when
// the run holds a line break). Invalid UTF-8 bytes become spaces.
func normalize(text string) normText {
	buf := make([]byte, 0, len(text)+1)
	off := make([]int32, 0, len(text)+1)
	buf = append(buf, '\n')
	off = append(off, 0)

	pendingWS := -1 // original offset of the first whitespace in a pending run
	pendingNL := false
	flush := func() {
		if pendingWS >= 0 {
			c := byte(' ')
			if pendingNL {
				c = '\n'
			}
			buf = append(buf, c)
			off = append(off, int32(pendingWS))
			pendingWS, pendingNL = -1, false
		}
	}
	emit := func(r rune, at int) {
		flush()
		if r < utf8.RuneSelf {
			buf = append(buf, byte(r))
			off = append(off, int32(at))
			return
		}
		n := len(buf)
		buf = utf8.AppendRune(buf, r)
		for range len(buf) - n {
			off = append(off, int32(at))
		}
	}
	space := func(at int, newline bool) {
		if pendingWS < 0 {
			pendingWS = at
		}
		pendingNL = pendingNL || newline
	}

	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch m := asciiFold[c]; m {
			case foldNewline:
				space(i, true)
			case foldSpace:
				space(i, false)
			default:
				if pendingWS >= 0 {
					flush()
				}
				buf = append(buf, m)
				off = append(off, int32(i))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			space(i, false)
		case r == 0x2028 || r == 0x2029 || r == 0x85:
			space(i, true)
		case r >= 0xE0020 && r <= 0xE007E:
			// Unicode tag characters spell out hidden ASCII.
			emit(unicode.ToLower(r-0xE0000), i)
		case isInvisible(r) || unicode.Is(unicode.Mn, r):
			// stripped
		case unicode.IsSpace(r):
			space(i, false)
		default:
			emit(unicode.ToLower(foldRune(r)), i)
		}
		i += size
	}
	flush()
	return normText{s: string(buf), off: off}
}

const (
	foldSpace   = 0
	foldNewline = 1
)

// asciiFold maps an ASCII byte to its folded form, or to foldSpace or
// foldNewline for whitespace and control characters.
var asciiFold = func() (t [utf8.RuneSelf]byte) {
	for c := range t {
		switch {
		case c == '\n' || c == '\r' || c == '\v' || c == '\f':
			t[c] = foldNewline
		case c < 0x20 || c == ' ' || c == 0x7f:
			t[c] = foldSpace
		case 'A' <= c && c <= 'Z':
			t[c] = byte(c) + 'a' - 'A'
		default:
			t[c] = byte(c)
		}
	}
	return t
}()

// isInvisible reports format characters that render as nothing and are
// stripped before matching: zero-width spaces and joiners, bidi controls,
// word joiners, soft hyphen, BOM, variation selectors and tag characters.
func isInvisible(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160,
		r == 0x17B4, r == 0x17B5, r == 0x180E, r == 0x3164, r == 0xFEFF, r == 0xFFA0:
		return true
	case r >= 0x200B && r <= 0x200F:
		return true
	case r >= 0x202A && r <= 0x202E:
		return true
	case r >= 0x2060 && r <= 0x206F:
		return true
	case r >= 0xFE00 && r <= 0xFE0F:
		return true
	case r >= 0xE0000 && r <= 0xE007F:
		return true
	case r >= 0xE0100 && r <= 0xE01EF:
		return true
	}
	return false
}

// lookalike maps Cyrillic and Greek letters that render like Latin ones.
var lookalike = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p',
	'с': 'c', 'т': 't', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j', 'ԁ': 'd',
	'ӏ': 'l', 'ɡ': 'g', 'ո': 'n', 'ս': 'u',
	'А': 'a', 'В': 'b', 'Е': 'e', 'К': 'k', 'М': 'm', 'Н': 'h', 'О': 'o', 'Р': 'p',
	'С': 'c', 'Т': 't', 'У': 'y', 'Х': 'x', 'Ѕ': 's', 'І': 'i', 'Ј': 'j',
	'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't',
	'υ': 'u', 'χ': 'x', 'Α': 'a', 'Β': 'b', 'Ε': 'e', 'Η': 'h', 'Ι': 'i', 'Κ': 'k',
	'Μ': 'm', 'Ν': 'n', 'Ο': 'o', 'Ρ': 'p', 'Τ': 't', 'Υ': 'y', 'Χ': 'x', 'Ζ': 'z',
	'‘': '\'', '’': '\'', 'ʼ': '\'', '′': '\'', '“': '"', '”': '"', '″': '"',
	'‐': '-', '‑': '-', '‒': '-', '–': '-', '—': '-', '―': '-', '−': '-',
	'‹': '<', '›': '>', '〈': '<', '〉': '>', '＜': '<', '＞': '>',
}

// foldRune applies the compatibility folds the standard library lacks
// (an NFKC subset): full-width forms, mathematical alphanumerics, circled
// letters and look-alikes.
func foldRune(r rune) rune {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
		return r - 0xFEE0
	case r == 0x3000: // ideographic space (handled as space by caller)
		return ' '
	case r >= 0x1D400 && r <= 0x1D6A3: // mathematical letters, 13 styles of A-Z a-z
		k := (r - 0x1D400) % 52
		if k < 26 {
			return 'A' + k
		}
		return 'a' + k - 26
	case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits
		return '0' + (r-0x1D7CE)%10
	case r >= 0x24B6 && r <= 0x24CF: // circled capitals
		return 'a' + r - 0x24B6
	case r >= 0x24D0 && r <= 0x24E9: // circled small letters
		return 'a' + r - 0x24D0
	case r >= 0x1F130 && r <= 0x1F149: // squared capitals
		return 'a' + r - 0x1F130
	case r >= 0x1F170 && r <= 0x1F189: // negative squared capitals
		return 'a' + r - 0x1F170
	}
	if m, ok := lookalike[r]; ok {
		return m
	}
	return r
}
