package clip

import (
	"testing"
	"unicode/utf8"
)

func TestBytesAndLine(t *testing.T) {
	for _, tc := range []struct {
		line bool
		in   string
		n    int
		want string
	}{
		{false, "short", 80, "short"},
		{false, "abcdef", 3, "abc…"},
		{false, "ab日本", 4, "ab…"},  // 日 is three bytes: never cut inside it
		{false, "ab cd", 3, "ab…"}, // no space before the mark
		{false, "abc", -1, "…"},
		{true, "- Always use hooks.\n- Use React.FC.", 80, "- Always use hooks. - Use React.FC."},
		{true, "a\n\nb c", 3, "a b…"},
	} {
		f := Bytes
		if tc.line {
			f = Line
		}
		if got := f(tc.in, tc.n); got != tc.want {
			t.Errorf("(line %v) %q, %d = %q, want %q", tc.line, tc.in, tc.n, got, tc.want)
		}
	}
}

func FuzzBytes(f *testing.F) {
	for _, s := range []string{"", "日本語のテキスト", "abc def", "\xff\xfe"} {
		f.Add(s, 5)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = n % 64
		got := Bytes(s, n)
		if len(s) <= n {
			if got != s {
				t.Fatalf("Bytes(%q, %d) = %q, want it unchanged", s, n, got)
			}
			return
		}
		if len(got) > max(n, 0)+len("…") {
			t.Fatalf("Bytes(%q, %d) = %q: longer than the budget and the mark", s, n, got)
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Bytes(%q, %d) = %q: cut inside a rune", s, n, got)
		}
	})
}

func TestTokens(t *testing.T) {
	for s, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "日本": 2} {
		if got := Tokens(s); got != want {
			t.Errorf("Tokens(%q) = %d, want %d", s, got, want)
		}
	}
}
