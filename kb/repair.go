package kb

import (
	"context"
	"fmt"
	"slices"
	"sort"

	"github.com/innate-mcp/innate-mcp/terms"
)

// A query term that no lesson holds is usually a typo ("argument" typed
// "arguement"), two words run together ("heatmap", "listswith") or a word
// the knowledge base does not know. The first two are repaired against the
// knowledge base's own vocabulary, as a search engine's "did you mean"
// does, before the lexical channel scores the query; the third stays as it
// is and counts against a full match. Repairs never touch terms some lesson
// holds, so a query the knowledge base understands is scored as typed.
const (
	// minEditLen is the shortest term an edit may repair: shorter terms
	// have too many neighbours one edit away to guess which was meant.
	// maxRepairLen is the longest: longer unknown terms are identifiers
	// and hashes more often than typos, and their readings cost more.
	minEditLen   = 5
	maxRepairLen = 24
	// minSplitLen and minPartLen bound compound splitting: only terms of
	// at least minSplitLen bytes are split, into parts of at least
	// minPartLen bytes.
	minSplitLen = 6
	minPartLen  = 3
	// maxRepairs bounds how many unknown terms one query repairs, so a
	// pasted log full of unknown words costs one bounded lookup.
	maxRepairs = 8
)

// Repair is an unknown query term and the vocabulary terms it was read as.
type Repair struct {
	Term string   `json:"term"`
	As   []string `json:"as"`
}

// repairable reports whether an unknown term is worth repairing: plain
// lower-case ASCII letters (identifiers' parts, English words), not digits,
// CJK bigrams or hashes.
func repairable(t string) bool {
	if len(t) < minEditLen || len(t) > maxRepairLen {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < 'a' || t[i] > 'z' {
			return false
		}
	}
	return true
}

// editsOf returns every string one Damerau–Levenshtein edit (a deletion, a
// transposition of neighbours, a substitution or an insertion of a letter)
// away from t, each also stemmed when stemming changes it: the vocabulary
// holds stems, and the unknown term may be an unstemmed typo ("intial").
func editsOf(t string) []string {
	const letters = "abcdefghijklmnopqrstuvwxyz"
	out := make([]string, 0, 2*(54*len(t)+26))
	for i := 0; i < len(t); i++ {
		out = append(out, t[:i]+t[i+1:])
		if i+1 < len(t) && t[i] != t[i+1] {
			out = append(out, t[:i]+string(t[i+1])+string(t[i])+t[i+2:])
		}
		for j := 0; j < len(letters); j++ {
			if letters[j] != t[i] {
				out = append(out, t[:i]+string(letters[j])+t[i+1:])
			}
		}
	}
	for i := 0; i <= len(t); i++ {
		for j := 0; j < len(letters); j++ {
			out = append(out, t[:i]+string(letters[j])+t[i:])
		}
	}
	n := len(out)
	for _, e := range out[:n] {
		if st := terms.Stem(e); st != e {
			out = append(out, st)
		}
	}
	return out
}

// splitsOf returns the ways to read t as two words: for each split point,
// the terms of both halves (stemmed, stop words dropped, as package terms
// makes them). A split whose halves are both stop words is left out.
func splitsOf(t string) [][]string {
	if len(t) < minSplitLen {
		return nil
	}
	var out [][]string
	for i := minPartLen; i <= len(t)-minPartLen; i++ {
		parts := terms.Tokens(t[:i])
		for _, p := range terms.Tokens(t[i:]) {
			if !slices.Contains(parts, p) {
				parts = append(parts, p)
			}
		}
		if len(parts) > 0 {
			out = append(out, parts)
		}
	}
	return out
}

// repairTerms returns the query's terms with its unknown terms repaired,
// their document frequencies, and the repairs made. Among one term's readings — every vocabulary term
// one edit away, every split into two known words — the one whose rarest
// term the most lessons hold wins: the reading the knowledge base's own
// writing makes likeliest. Ties go to the alphabetically first reading, so
// the result is deterministic.
func repairTerms(ctx context.Context, store Store, qterms []string) ([]string, map[string]int, []Repair, error) {
	if len(qterms) == 0 {
		return qterms, nil, nil, nil
	}
	known, err := store.DocFreqs(ctx, qterms)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read vocabulary: %w", err)
	}
	type reading struct {
		edits  []string
		splits [][]string
	}
	readings := map[string]reading{}
	want := map[string]struct{}{}
	for _, t := range qterms {
		if known[t] > 0 || !repairable(t) || len(readings) == maxRepairs {
			continue
		}
		r := reading{edits: editsOf(t), splits: splitsOf(t)}
		for _, e := range r.edits {
			want[e] = struct{}{}
		}
		for _, s := range r.splits {
			for _, p := range s {
				want[p] = struct{}{}
			}
		}
		readings[t] = r
	}
	if len(readings) == 0 {
		return qterms, known, nil, nil
	}
	list := make([]string, 0, len(want))
	for t := range want {
		list = append(list, t)
	}
	sort.Strings(list)
	df, err := store.DocFreqs(ctx, list)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("read vocabulary: %w", err)
	}
	var (
		out  []string
		reps []Repair
		seen = map[string]bool{}
	)
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range qterms {
		r, ok := readings[t]
		if !ok {
			add(t)
			continue
		}
		as := bestReading(r.edits, r.splits, df)
		if as == nil {
			add(t)
			continue
		}
		for _, a := range as {
			add(a)
			known[a] = df[a]
		}
		reps = append(reps, Repair{Term: t, As: as})
	}
	return out, known, reps, nil
}

// bestReading returns the terms of the reading whose rarest term is most
// frequent, or nil when no reading is in the vocabulary.
func bestReading(edits []string, splits [][]string, df map[string]int) []string {
	best := 0
	var as []string
	better := func(n int, cand []string) bool {
		if n != best {
			return n > best
		}
		return n > 0 && slices.Compare(cand, as) < 0
	}
	for _, e := range edits {
		if n := df[e]; n > 0 && better(n, []string{e}) {
			best, as = n, []string{e}
		}
	}
	for _, s := range splits {
		least := -1
		for _, p := range s {
			if n := df[p]; least < 0 || n < least {
				least = n
			}
		}
		if least > 0 && better(least, s) {
			best, as = least, s
		}
	}
	return as
}
