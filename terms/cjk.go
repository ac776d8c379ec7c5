package terms

import "unicode"

// Chinese, Japanese and Korean are written without spaces between words, so
// text in those scripts is matched by characters or character bigrams
// rather than by words. Which characters count depends on the use; each
// class below names one, and the packages pick theirs here instead of
// keeping a private copy.

// IsCJK reports whether r is a Han, Hiragana, Katakana or Hangul character:
// the characters Tokens turns into bigrams.
func IsCJK(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r))
}

// IsHanKana reports whether r is a Han, Hiragana or Katakana character, or
// the prolonged sound mark ー (script Common): Chinese and Japanese, without
// Korean, by Unicode script. The router counts and matches these.
func IsHanKana(r rune) bool {
	return r >= 0x2E80 && (unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || r == 'ー')
}

// IsHanKanaBlock is IsHanKana by Unicode block where that is faster: the
// common Han blocks and the whole Hiragana and Katakana blocks (U+3040 to
// U+30FF) are tested by range, so it also takes in the voicing marks, ゠,
// the middle dot ・ and ー; anything else falls back to the script tables.
// Hesitation matches its lexicon against these.
func IsHanKanaBlock(r rune) bool {
	switch {
	case r < 0x2E80:
		return false
	case r >= 0x4E00 && r <= 0x9FFF, r >= 0x3040 && r <= 0x30FF, r >= 0x3400 && r <= 0x4DBF:
		return true
	case r >= 0xAC00 && r < 0xF900:
		return false // Hangul, private use
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r)
}
