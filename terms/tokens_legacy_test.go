package terms

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// legacyEach is each before it moved onto Scanner: it scans text once and calls emit for every term.
func legacyEach(text string, emit func(string)) {
	i := 0
	for i < len(text) {
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case IsCJK(r):
			j := i
			var runes []rune
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !IsCJK(r2) {
					break
				}
				runes = append(runes, r2)
				j += s2
			}
			emitCJK(runes, emit)
			i = j
		case legacyIsWordRune(r):
			j := i
			for j < len(text) {
				r2, s2 := utf8.DecodeRuneInString(text[j:])
				if !legacyIsWordRune(r2) || IsCJK(r2) {
					break
				}
				j += s2
			}
			emitWord(text[i:j], emit)
			i = j
		default:
			i += size
		}
	}
}

// legacyIsWordRune reports whether r belongs to an identifier-like word.
func legacyIsWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func legacyTokens(text string) []string {
	var out []string
	legacyEach(text, func(t string) { out = append(out, t) })
	return out
}

var compatPieces = []string{"a", "Z", "parse", "HTTP", "Request", "snake_case", "_", "42", "v1", " ", "\n", ".", ",", "'",
	"中", "文", "字", "ー", "カ", "ひ", "한", "é", "İ", "\xff", "\xe4\xb8", "١", "going", "the", "x", "\u0301", "ǅ"}

func TestTokens_legacy(t *testing.T) {
	in := []string{"", "parseHTTPRequest snake_case_name", "用中文写", "中", strings.Repeat("a", 200)}
	rng := rand.New(rand.NewPCG(14, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(24) {
			b.WriteString(compatPieces[rng.IntN(len(compatPieces))])
		}
		in = append(in, b.String())
	}
	for _, s := range in {
		if got, want := Tokens(s), legacyTokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%q): got=%q, want %q", s, got, want)
		}
	}
}

func FuzzTokens_legacy(f *testing.F) {
	for _, s := range compatPieces {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Tokens(s), legacyTokens(s); !slices.Equal(got, want) {
			t.Fatalf("Tokens(%q): got=%q, want %q", s, got, want)
		}
	})
}
