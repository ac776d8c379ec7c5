package kb

import (
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

func TestUnredactedOffset(t *testing.T) {
	raw := "a ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g b password=hunter22x c"
	red, rs := sanitize.Redact(raw)
	if len(rs) != 2 {
		t.Fatalf("Redact made %v", rs)
	}
	at := func(s, sub string) int {
		i := strings.Index(s, sub)
		if i < 0 {
			t.Fatalf("%q not in %q", sub, s)
		}
		return i
	}
	tests := []struct {
		name     string
		off      int
		end      bool
		want     int
		redacted string // what off points at in the redacted text, as a check
	}{
		{"before any", 0, false, 0, "a "},
		{"placeholder start", at(red, "[REDACTED:github"), false, rs[0].Start, "[REDACTED:github"},
		{"inside, as a start", at(red, "github-token"), false, rs[0].Start, "github-token"},
		{"inside, as an end", at(red, "github-token"), true, rs[0].End, "github-token"},
		{"just after", at(red, " b "), true, rs[0].End, " b "},
		{"between", at(red, "b pass"), false, at(raw, "b pass"), "b pass"},
		{"after both", at(red, " c"), false, at(raw, " c"), " c"},
		{"end of text", len(red), true, len(raw), ""},
	}
	for _, tc := range tests {
		if got := red[tc.off:min(len(red), tc.off+len(tc.redacted))]; got != tc.redacted {
			t.Fatalf("%s: test offset %d points at %q", tc.name, tc.off, got)
		}
		if got := unredactedOffset(rs, tc.off, tc.end); got != tc.want {
			t.Errorf("%s: unredactedOffset(%d, end %v) = %d, want %d", tc.name, tc.off, tc.end, got, tc.want)
		}
	}
	if got := unredactedOffset(nil, 7, false); got != 7 {
		t.Errorf("no redactions: got %d, want 7", got)
	}
}
