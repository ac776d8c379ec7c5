package appraise

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSupport(t *testing.T) {
	know := "The Oberoi Group is a hotel company with its head office in Delhi, founded in 1934."
	tests := []struct {
		name      string
		candidate string
		lessons   []string
		weights   []float64
		want      float64
	}{
		{"every term held", "Delhi", []string{know}, []float64{1}, 1},
		{"held by a weaker lesson counts its weight", "Delhi", []string{"unrelated text", know}, []float64{1, 0.5}, 0.5 * math.Pow(0.3, 0.5*2/(0.5+2))},
		{"one term missing", "Delhi, 1935", []string{know}, []float64{1}, 0.5 * math.Pow(0.3, 1*2/(1.0+2))},
		{"one-digit numbers count", "July 5", []string{"born on July 7"}, []float64{1}, 0.5 * math.Pow(0.3, 1*2/(1.0+2))},
		{"nothing held", "Mumbai financial capital", []string{know}, []float64{1}, 0},
		{"polarity words are no content", "Yes.", []string{know}, []float64{1}, 0.5},
		{"no lessons", "Delhi", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Support(CandidateTerms(tt.candidate), tt.lessons, tt.weights, 0.3, 2, 0.5)
			if math.Abs(got-tt.want) > 1e-9 {
				t.Fatalf("Support(%q) = %.6f, want %.6f", tt.candidate, got, tt.want)
			}
		})
	}
}

// TestSupport_longCandidate: the missing-term penalty saturates, so a long
// candidate half of which the knowledge holds keeps more footing than one it
// barely holds.
func TestSupport_longCandidate(t *testing.T) {
	lesson := "Keep SQLite write transactions short and use BEGIN IMMEDIATE so writers do not deadlock under concurrent load."
	half := "Wrap the SQLite writes in a short BEGIN IMMEDIATE transaction, retry on busy, log the retries, add a metric and a test."
	little := "Rewrite the storage layer in Rust with a custom allocator, a lock-free queue and a new serialisation format for SQLite."
	sh := Support(CandidateTerms(half), []string{lesson}, []float64{1}, 0.3, 2, 0.5)
	sl := Support(CandidateTerms(little), []string{lesson}, []float64{1}, 0.3, 2, 0.5)
	if !(sh > 2*sl) || sh < 0.03 {
		t.Fatalf("support half-held %.4f, barely held %.4f", sh, sl)
	}
}

func FuzzSupport(f *testing.F) {
	f.Add("Delhi", "The Oberoi Group has its head office in Delhi.")
	f.Add("yes", "")
	f.Add("July 5, 1984 — 東京タワー", "born 5 July 1984 in 東京")
	f.Add("\xff\xfe", "x")
	f.Fuzz(func(t *testing.T, candidate, lesson string) {
		s := Support(CandidateTerms(candidate), []string{lesson}, []float64{1}, 0.3, 2, 0.5)
		if math.IsNaN(s) || s < 0 || s > 1 {
			t.Fatalf("Support(%q, %q) = %v, want a value in [0, 1]", candidate, lesson, s)
		}
		// A lesson that quotes the candidate holds every one of its terms.
		if len(CandidateTerms(candidate)) > 0 {
			if q := Support(CandidateTerms(candidate), []string{lesson + " " + candidate + " "}, []float64{1}, 0.3, 2, 0.5); q != 1 {
				t.Fatalf("candidate %q quoted in a lesson has support %v, want 1", candidate, q)
			}
		}
	})
}

// FuzzSummary: a flagged summary never contains the candidate's text, for
// any lesson text and candidate.
func FuzzSummary(f *testing.F) {
	f.Add("use fmt.Errorf with %w", "Use fmt.Errorf with %w to wrap errors", "wrapping errors")
	f.Add("Delhi", "", "head office in Delhi")
	f.Add("a b c", "A  B\tC is the answer", "")
	f.Fuzz(func(t *testing.T, candidate, content, trigger string) {
		l := Lesson{ID: "x", Content: content, Trigger: trigger, Caution: true}
		s := summarize(l, false, candidate)
		c := strings.Join(strings.Fields(candidate), " ")
		if len(c) < 2 || !utf8.ValidString(c) || !utf8.ValidString(s) {
			return
		}
		norm := strings.ToLower(strings.Join(strings.Fields(s), " "))
		if containsWord(norm, strings.ToLower(c)) {
			t.Fatalf("summary %q contains the candidate %q", s, candidate)
		}
	})
}

// containsWord reports whether s contains sub starting and ending at word
// boundaries (where sub itself starts or ends with a word character).
func containsWord(s, sub string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], sub)
		if j < 0 {
			return false
		}
		j += i
		first, _ := utf8.DecodeRuneInString(sub)
		last, _ := utf8.DecodeLastRuneInString(sub)
		before, _ := utf8.DecodeLastRuneInString(s[:j])
		after, _ := utf8.DecodeRuneInString(s[j+len(sub):])
		okStart := j == 0 || !isWord(first) || !isWord(before)
		okEnd := j+len(sub) == len(s) || !isWord(last) || !isWord(after)
		if okStart && okEnd {
			return true
		}
		i = j + 1
	}
}
