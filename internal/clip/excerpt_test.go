package clip

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// words returns a match function for Excerpt that finds the given words,
// lower-cased, between white space and punctuation.
func words(want ...string) func(string) []string {
	set := map[string]bool{}
	for _, w := range want {
		set[w] = true
	}
	return func(text string) []string {
		var out []string
		for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
			return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
		}) {
			if set[f] {
				out = append(out, f)
			}
		}
		return out
	}
}

// doc is a rule file of the kind imported as one lesson.
var doc = `# Go service rules

These rules apply to every service in the repository.

## Logging
- Log with slog to stderr; stdout is the protocol.
- Give every component logger a component attribute.
- Never log secrets, tokens or request bodies.

## Errors
- Wrap errors with fmt.Errorf and %w so callers can use errors.Is.
- Compare sentinel errors with errors.Is, never with ==.
- Return errors; do not panic in library code.

## Testing
- Table tests with t.Run per case.
- Helpers call t.Helper and use t.TempDir.
- Run go test -race before every push.
`

func TestExcerpt(t *testing.T) {
	longLine := strings.Repeat("Filler sentence about nothing in particular. ", 12) +
		"Always pin the toolchain version in go.mod. " + strings.Repeat("More filler text here. ", 12)
	for _, tc := range []struct {
		name     string
		s        string
		n        int
		match    func(string) []string
		want     []string // substrings the excerpt holds
		wantNot  []string // substrings it does not hold
		wantHead bool     // it starts with the first line of s
	}{
		{name: "fits", s: "Short rule.", n: 600, match: words("rule"), want: []string{"Short rule."}},
		{name: "the matching section, after the heading", s: doc, n: 200, match: words("wrap", "sentinel", "errors"),
			want:     []string{"## Errors", "- Wrap errors with fmt.Errorf", "- Compare sentinel errors", "\n…"},
			wantNot:  []string{"slog", "t.Run"},
			wantHead: true},
		{name: "the last section, no trailing mark", s: doc, n: 200, match: words("race", "push", "helpers"),
			want: []string{"## Testing", "Run go test -race before every push."}, wantNot: []string{"slog", "sentinel"}, wantHead: true},
		{name: "nothing matches: the start in whole lines", s: doc, n: 90, match: words("kubernetes"),
			want: []string{"# Go service rules\n\nThese rules apply", "\n…"}, wantNot: []string{"Logging"}, wantHead: true},
		{name: "a long line read by sentences", s: "# Toolchain\n" + longLine, n: 200, match: words("pin", "toolchain", "version"),
			want: []string{"Always pin the toolchain version in go.mod."}, wantHead: true},
		{name: "tiny budget", s: doc, n: 2, match: words("errors"), want: []string{""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Excerpt(tc.s, tc.n, tc.match)
			if len(got) > tc.n {
				t.Fatalf("Excerpt is %d bytes, budget %d:\n%s", len(got), tc.n, got)
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("Excerpt lacks %q:\n%s", w, got)
				}
			}
			for _, w := range tc.wantNot {
				if strings.Contains(got, w) {
					t.Errorf("Excerpt holds %q:\n%s", w, got)
				}
			}
			first, _, _ := strings.Cut(tc.s, "\n")
			if tc.wantHead && !strings.HasPrefix(got, first+"\n") {
				t.Errorf("Excerpt does not start with the first line %q:\n%s", first, got)
			}
			if again := Excerpt(tc.s, tc.n, tc.match); again != got {
				t.Errorf("Excerpt is not deterministic:\n%s\n---\n%s", got, again)
			}
		})
	}
}

// TestExcerpt_wholeLines checks that an excerpt of text whose lines are
// shorter than the budget is made of whole lines of it and marks.
func TestExcerpt_wholeLines(t *testing.T) {
	lines := map[string]bool{"…": true, "": true}
	for _, l := range strings.Split(doc, "\n") {
		lines[l] = true
	}
	for _, q := range [][]string{{"slog"}, {"errors", "wrap"}, {"race"}, {"nothing"}} {
		for _, n := range []int{80, 150, 300} {
			got := Excerpt(doc, n, words(q...))
			for _, l := range strings.Split(got, "\n") {
				if !lines[l] {
					t.Errorf("Excerpt(doc, %d, %v) has a line %q that is not a line of the text:\n%s", n, q, l, got)
				}
			}
		}
	}
}

func FuzzExcerpt(f *testing.F) {
	f.Add(doc, 200, "errors")
	f.Add("日本語のテキスト。長い文です。", 70, "テキ")
	f.Add(strings.Repeat("word ", 100), 64, "word")
	f.Fuzz(func(t *testing.T, s string, n int, w string) {
		n %= 1024
		got := Excerpt(s, n, words(strings.Fields(strings.ToLower(w))...))
		if len(s) <= n {
			if got != s {
				t.Fatalf("Excerpt(%q, %d) = %q, want it unchanged", s, n, got)
			}
			return
		}
		if len(got) > max(n, 0) {
			t.Fatalf("Excerpt(%q, %d) = %q: %d bytes, over the budget", s, n, got, len(got))
		}
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Excerpt(%q, %d) = %q: cut inside a rune", s, n, got)
		}
	})
}

// BenchmarkExcerpt reads a 60 KB rule document (the largest imported
// lesson of the shared corpus is about that size) with a matcher that
// tokenizes as recall's does.
func BenchmarkExcerpt(b *testing.B) {
	s := strings.Repeat(doc, 60<<10/len(doc))
	query := map[string]bool{}
	for _, t := range terms.Tokens("wrap sentinel errors and run the race detector") {
		query[t] = true
	}
	match := func(text string) []string {
		var out []string
		for _, t := range terms.Tokens(text) {
			if query[t] {
				out = append(out, t)
			}
		}
		return out
	}
	for b.Loop() {
		Excerpt(s, 600, match)
	}
}
