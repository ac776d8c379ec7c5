package terms

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFoldASCII(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"abc", "abc"},
		{"ABC", "abc"},
		{"Hello, World! 0123456789 @[`{", "hello, world! 0123456789 @[`{"},
		{"ÄÖÜ Straße", "ÄÖÜ straße"}, // only ASCII letters change: offsets stay
		{"AZaz@[`{\x7f\x80\xff", "azaz@[`{\x7f\x80\xff"},
		{"ThisIsLongerThanEightBytesAndCrossesWords", "thisislongerthaneightbytesandcrosseswords"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := string(FoldASCII(tt.in)); got != tt.want {
				t.Errorf("FoldASCII(%q): got=%q, want %q", tt.in, got, tt.want)
			}
			if got := LowerASCII(tt.in); got != tt.want {
				t.Errorf("LowerASCII(%q): got=%q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestFoldASCII_everyByte checks every byte value at every position of an
// eight-byte word against the byte-at-a-time rule.
func TestFoldASCII_everyByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 9; pos++ {
			in := []byte(strings.Repeat("x", 9))
			in[pos] = byte(c)
			want := append([]byte(nil), in...)
			if 'A' <= c && c <= 'Z' {
				want[pos] = byte(c) + 'a' - 'A'
			}
			if got := FoldASCII(string(in)); string(got) != string(want) {
				t.Fatalf("FoldASCII(%q): got=%q, want %q", in, got, want)
			}
		}
	}
}

func FuzzFoldASCII(f *testing.F) {
	f.Add("Hello, WORLD")
	f.Add("ÄÖÜ")
	f.Fuzz(func(t *testing.T, s string) {
		got := FoldASCII(s)
		if len(got) != len(s) {
			t.Fatalf("length %d, want %d", len(got), len(s))
		}
		if utf8.ValidString(s) && string(got) != strings.Map(func(r rune) rune {
			if 'A' <= r && r <= 'Z' {
				return r + 'a' - 'A'
			}
			return r
		}, s) {
			t.Fatalf("FoldASCII(%q) = %q", s, got)
		}
	})
}

func TestFoldDiacritics(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"Plain ASCII", "plain ascii"},
		{"Café Ř Straße", "cafe r strasse"},
		{"ÆØŁđœ", "aeoldoe"},
		{"e\u0301te\u0301", "ete"}, // combining marks vanish
		{"ΑΒΓ Добрый", "αβγ добрый"},
		{"中文", "中文"},
	}
	for _, tt := range tests {
		if got := FoldDiacritics(tt.in); got != tt.want {
			t.Errorf("FoldDiacritics(%q): got=%q, want %q", tt.in, got, tt.want)
		}
	}
}
