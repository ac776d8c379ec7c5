package terms

import (
	"strings"
	"testing"
	"unicode"
)

func TestMaskNumbers(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Concurrent lesson number 12: keep handlers small.", "Concurrent lesson number #: keep handlers small."},
		{"fails at line 42, column 7", "fails at line #, column #"},
		{"Go 1.21 and 10,000 rows", "Go #.# and #,# rows"},
		{"utf8 int64 v2 e2e md5 x86_64 t_5487c2ef", "utf8 int64 v2 e2e md5 x86_64 t_5487c2ef"},
		{"port 8080", "port #"},
		{"第3章", "第3章"},
		{"٣ apples", "# apples"},
		{"no numbers here", "no numbers here"},
		{"", ""},
		{"7", "#"},
	}
	for _, tt := range tests {
		if got := MaskNumbers(tt.in); got != tt.want {
			t.Errorf("MaskNumbers(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzMaskNumbers(f *testing.F) {
	for _, s := range []string{"number 1: x", "v2 1.2", "\xff9\xfe", "٣", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := MaskNumbers(s)
		if MaskNumbers(got) != got {
			t.Fatalf("MaskNumbers is not idempotent on %q: %q then %q", s, got, MaskNumbers(got))
		}
		if strings.Count(got, NumberMask) < strings.Count(s, NumberMask) {
			t.Fatalf("MaskNumbers(%q) = %q lost text", s, got)
		}
		if !strings.ContainsFunc(s, unicode.IsDigit) && got != s {
			t.Fatalf("MaskNumbers(%q) = %q changed text without digits", s, got)
		}
	})
}
