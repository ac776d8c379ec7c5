// Package bm25 is the lexical channel of the knowledge base's stores: the
// term statistics kept for each lesson, and BM25 computed from them exactly
// as SQLite FTS5's bm25() computes it (k1 = 1.2, b = 0.75, idf =
// ln((N − df + 0.5)/(df + 0.5)) floored at 1e-6, term frequency summed over
// the title, content and trigger columns, document length over all three),
// but evaluated in Go: FTS5's bm25() must score every row that matches any
// query term before it can sort, which makes a query holding a common word
// cost as much as the whole index.
//
// The SQLite store (package storage) finds the lessons holding a term with
// FTS5, the PostgreSQL store (package pgstore) with its term_postings
// table; both keep the statistics in this package's encoding and rank with
// Query, so that the two give the same results.
package bm25

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/innate-mcp/innate-mcp/terms"
)

const (
	// K1 is the k1 parameter of SQLite FTS5's bm25() function.
	K1 = 1.2
	// B is its b parameter.
	B = 0.75
	// PostingsBudget bounds the postings the candidate search reads; the
	// rarest terms, which carry the ranking, are always read.
	PostingsBudget = 2500
	// shortlistFactor is how many times the pool the candidate search
	// ranks by exact BM25.
	shortlistFactor = 2
)

// ErrBadStats reports term statistics that cannot be decoded.
var ErrBadStats = errors.New("bad term statistics")

// Doc are one lesson's term frequencies and length.
type Doc struct {
	Length int
	TF     map[string]int
}

// LessonDoc computes the term statistics of a lesson's text over the three
// indexed columns: title (the lesson's descriptive text, see Describe),
// content and trigger. A descriptive term thus counts twice, as in the
// SQLite store's full-text index.
func LessonDoc(content, trigger string) Doc {
	d := Doc{TF: map[string]int{}}
	for _, text := range []string{Describe(content), content, trigger} {
		for _, t := range terms.Tokens(text) {
			d.TF[t]++
			d.Length++
		}
	}
	return d
}

// Describe returns the parts of a lesson's content that say what the rest
// is about, which BM25 weighs twice as BM25F weighs a title field: the first
// non-empty line (a rule file's heading, a function's signature), lines
// starting with '#' (Markdown headings; shell, Python, YAML and Ruby
// comments) or "//" (C-family comments), block comments (/* … */) and
// Python docstrings (in triple double or triple single quotes). Prose
// without such marks describes itself: only its first line counts.
func Describe(content string) string {
	var parts []string
	first := true
	closing := "" // inside a block: the mark that ends it
	for _, raw := range strings.Split(content, "\n") {
		line := strings.TrimSpace(raw)
		if closing != "" {
			body, _, found := strings.Cut(line, closing)
			if body != "" {
				parts = append(parts, body)
			}
			if found {
				closing = ""
			}
			continue
		}
		if line == "" {
			continue
		}
		if first {
			first = false
			parts = append(parts, line)
		} else if strings.HasPrefix(line, "#") {
			parts = append(parts, strings.TrimLeft(line, "#"))
			continue
		} else if c, ok := strings.CutPrefix(line, "//"); ok {
			parts = append(parts, c)
			continue
		}
		open, end := blockMark(line)
		if open < 0 {
			continue
		}
		body, _, found := strings.Cut(line[open:], end)
		parts = append(parts, body)
		if !found {
			closing = end
		}
	}
	return strings.Join(parts, "\n")
}

// blockMarks are the marks that open a block of descriptive text, each with
// the mark that closes it.
var blockMarks = [...][2]string{{`"""`, `"""`}, {"'''", "'''"}, {"/*", "*/"}}

// blockMark returns where the text after the first block-opening mark in
// line starts, and the mark that closes that block; open is −1 when line
// opens no block.
func blockMark(line string) (open int, end string) {
	open = -1
	at := -1
	for _, m := range blockMarks {
		if i := strings.Index(line, m[0]); i >= 0 && (at < 0 || i < at) {
			at, open, end = i, i+len(m[0]), m[1]
		}
	}
	return open, end
}

// Terms returns the document's terms in sorted order.
func (d Doc) Terms() []string {
	keys := make([]string, 0, len(d.TF))
	for t := range d.TF {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	return keys
}

// Encode packs the term frequencies as a varint count, then per term a
// varint length, the bytes and a varint frequency, in sorted term order.
// The length is stored beside it, not in it.
func (d Doc) Encode() []byte {
	keys := d.Terms()
	b := binary.AppendUvarint(nil, uint64(len(keys)))
	for _, t := range keys {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
		b = binary.AppendUvarint(b, uint64(d.TF[t]))
	}
	return b
}

// Each calls fn with every term of encoded statistics and its frequency,
// in the order encoded.
func Each(blob []byte, fn func(term []byte, freq int)) error {
	n, k := binary.Uvarint(blob)
	if k <= 0 {
		return ErrBadStats
	}
	blob = blob[k:]
	for range n {
		l, k := binary.Uvarint(blob)
		if k <= 0 || uint64(len(blob)-k) < l {
			return ErrBadStats
		}
		term := blob[k : k+int(l)]
		blob = blob[k+int(l):]
		f, k2 := binary.Uvarint(blob)
		if k2 <= 0 {
			return ErrBadStats
		}
		blob = blob[k2:]
		fn(term, int(f))
	}
	return nil
}

// Decode is the inverse of Encode, given the length stored beside it.
func Decode(blob []byte, length int) (Doc, error) {
	d := Doc{Length: length, TF: map[string]int{}}
	err := Each(blob, func(term []byte, f int) { d.TF[string(term)] = f })
	return d, err
}

// IDF is FTS5's BM25 inverse document frequency over n documents, floored
// as FTS5 floors it.
func IDF(n, df int) float64 {
	v := math.Log((float64(n) - float64(df) + 0.5) / (float64(df) + 0.5))
	if v <= 0 {
		return 1e-6
	}
	return v
}

// Query is a query's terms with their collection statistics. A nil *Query
// (a query without terms, or an empty collection) scores 0 and finds
// nothing.
type Query struct {
	terms []string
	index map[string]int // term → position in terms
	df    []int
	n     int     // indexed lessons
	avgdl float64 // average lesson length in terms
	ref   float64 // BM25 of an average-length lesson holding every term once
	// scored holds the scores the candidate search already computed, so
	// that loading those candidates does not compute them again.
	scored map[int64]float64
}

// NewQuery returns the query of qterms over a collection of docs lessons
// whose lengths sum to total, df holding the terms' document frequencies (a
// term absent from it is held by no lesson); nil when there is nothing to
// score.
func NewQuery(qterms []string, df map[string]int, docs, total int64) *Query {
	if len(qterms) == 0 || docs <= 0 {
		return nil
	}
	q := &Query{terms: qterms, index: make(map[string]int, len(qterms)), df: make([]int, len(qterms)),
		n: int(docs), avgdl: float64(total) / float64(docs)}
	for i, t := range qterms {
		q.index[t] = i
		q.df[i] = df[t]
	}
	// Terms no lesson holds count in the reference as if one lesson did, so
	// a query whose distinctive words the knowledge base lacks does not
	// look like a full match.
	for _, f := range q.df {
		q.ref += IDF(q.n, max(f, 1))
	}
	return q
}

// Ref is the query's reference: the BM25 of an average-length lesson
// holding every query term once, which Score divides by.
func (q *Query) Ref() float64 {
	if q == nil {
		return 0
	}
	return q.ref
}

// Score is the BM25 of one lesson (its frequencies of the query terms, in
// query order, and its length), divided by the query's reference.
func (q *Query) Score(tf []int, length int) float64 {
	if q == nil || q.ref == 0 {
		return 0
	}
	var s float64
	norm := K1 * (1 - B + B*float64(length)/q.avgdl)
	for i, f := range tf {
		if f == 0 || q.df[i] == 0 {
			continue
		}
		ff := float64(f)
		s += IDF(q.n, q.df[i]) * ff * (K1 + 1) / (ff + norm)
	}
	return s / q.ref
}

// ScoreStats is Score of a lesson given its encoded statistics; a lesson
// the candidate search already scored is not decoded again.
func (q *Query) ScoreStats(seq int64, blob []byte, length int) (float64, error) {
	if q == nil {
		return 0, nil
	}
	if v, ok := q.scored[seq]; ok {
		return v, nil
	}
	if blob == nil {
		return 0, nil
	}
	tf := make([]int, len(q.terms))
	err := Each(blob, func(term []byte, f int) {
		if i, ok := q.index[string(term)]; ok {
			tf[i] = f
		}
	})
	if err != nil {
		return 0, err
	}
	return q.Score(tf, length), nil
}

// Postings lists the lessons (by sequence number) that hold each of the
// terms, in one go where the store can.
type Postings func(ctx context.Context, terms []string) (map[string][]int64, error)

// StatsReader calls fn with the length and encoded statistics of each of
// seqs that has them.
type StatsReader func(ctx context.Context, seqs []int64, fn func(seq int64, length int, blob []byte) error) error

// Candidates finds up to pool lessons holding the query's terms: the
// postings of each term, rarest first, while the postings read stay within
// PostingsBudget, ranking lessons by the summed idf of the terms they hold;
// when more than pool are found, the best 2·pool of that ranking are ranked
// again by their exact BM25 read through stats, and the best pool kept.
func (q *Query) Candidates(ctx context.Context, postings Postings, stats StatsReader, pool int) ([]int64, error) {
	if q == nil {
		return nil, nil
	}
	order := make([]int, 0, len(q.terms))
	for i, f := range q.df {
		if f > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return q.df[order[a]] < q.df[order[b]] })
	read := 0
	var want []string
	for k, i := range order {
		if k > 0 && read+q.df[i] > PostingsBudget {
			order = order[:k]
			break
		}
		read += q.df[i]
		want = append(want, q.terms[i])
	}
	lists, err := postings(ctx, want)
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	acc := map[int64]float64{}
	for _, i := range order {
		w := IDF(q.n, q.df[i])
		for _, s := range lists[q.terms[i]] {
			acc[s] += w
		}
	}
	type hit struct {
		seq int64
		w   float64
	}
	hits := make([]hit, 0, len(acc))
	for s, w := range acc {
		hits = append(hits, hit{s, w})
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if c := cmp.Compare(b.w, a.w); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	seqs := make([]int64, len(hits))
	for i, h := range hits {
		seqs[i] = h.seq
	}
	if len(seqs) <= pool {
		return seqs, nil
	}
	// The summed idf ignores term frequency and length; the shortlist is
	// ranked again by exact BM25 from the term statistics, small to read.
	if len(seqs) > shortlistFactor*pool {
		seqs = seqs[:shortlistFactor*pool]
	}
	exact := make(map[int64]float64, len(seqs))
	err = stats(ctx, seqs, func(seq int64, length int, blob []byte) error {
		v, err := q.ScoreStats(seq, blob, length)
		if err != nil {
			return fmt.Errorf("lesson #%d: %w", seq, err)
		}
		exact[seq] = v
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read term statistics: %w", err)
	}
	sort.SliceStable(seqs, func(a, b int) bool { return exact[seqs[a]] > exact[seqs[b]] })
	q.scored = exact
	return seqs[:pool], nil
}
