package terms

import "strings"

// StemLight is a light English suffix stripper, coarser than [Stem]: it
// drops one of -ing (words over five letters), -ed (not after e), -es (words
// over four letters) or -s (not -ss), then a final e, then one letter of a
// final double consonant, so that "mocking" and "mock", "writes" and
// "write", "committing" and "commit" come out the same. A word with anything
// but the letters a to z ("fmt.Errorf", "Go") comes back unchanged.
//
// It makes the keys that contradiction detection compares actions by
// (confidence), where a verb and its object must meet whatever their
// inflection; it is not what the index uses ([Tokens] stems with [Stem]).
func StemLight(w string) string {
	for _, r := range w {
		if r < 'a' || r > 'z' {
			return w
		}
	}
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = w[:len(w)-3]
	case len(w) > 3 && strings.HasSuffix(w, "ed") && w[len(w)-3] != 'e':
		w = w[:len(w)-2]
	case len(w) > 4 && strings.HasSuffix(w, "es"):
		w = w[:len(w)-2]
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		w = w[:len(w)-1]
	}
	if len(w) > 2 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	if n := len(w); n > 2 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiou", rune(w[n-1])) {
		w = w[:n-1]
	}
	return w
}
