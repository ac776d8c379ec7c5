package clip

import "testing"

// TestSeries: a list for a sentence, the last item after the conjunction.
func TestSeries(t *testing.T) {
	for _, tt := range []struct {
		items []string
		conj  string
		want  string
	}{
		{nil, "or", ""},
		{[]string{"a"}, "or", "a"},
		{[]string{"a", "b"}, "and", "a and b"},
		{[]string{"`a`", "`b`", "`c`"}, "or", "`a`, `b` or `c`"},
	} {
		if got := Series(tt.items, tt.conj); got != tt.want {
			t.Errorf("Series(%q, %q) = %q, want %q", tt.items, tt.conj, got, tt.want)
		}
	}
}
