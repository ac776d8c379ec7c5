package randid

import (
	"regexp"
	"testing"
)

func TestNew(t *testing.T) {
	tests := []struct {
		prefix string
		n      int
		want   *regexp.Regexp
	}{
		{"L", 6, regexp.MustCompile(`^L[0-9a-f]{12}$`)},
		{"t_", 8, regexp.MustCompile(`^t_[0-9a-f]{16}$`)},
		{"", 1, regexp.MustCompile(`^[0-9a-f]{2}$`)},
		{"x", 0, regexp.MustCompile(`^x$`)},
	}
	for _, tt := range tests {
		t.Run(tt.prefix, func(t *testing.T) {
			if got := New(tt.prefix, tt.n); !tt.want.MatchString(got) {
				t.Errorf("New(%q, %d): got=%q, want a match of %s", tt.prefix, tt.n, got, tt.want)
			}
		})
	}
	seen := map[string]bool{}
	for range 1000 {
		id := New("t_", 8)
		if seen[id] {
			t.Fatalf("New repeated %s within 1000 calls", id)
		}
		seen[id] = true
	}
}
