package storage

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/innate-mcp/innate-mcp/kb"
)

// BM25 parameters of SQLite FTS5's bm25() function.
const (
	bm25K1 = 1.2
	// maxMatchTerms caps the terms of one full-text query: the rarest terms
	// carry the ranking, and common ones cost the most to scan.
	maxMatchTerms = 32
)

// Search implements kb.Store: candidates from the dense index (by key
// vector) and from the full-text index, each with its exact content and
// trigger cosines, absolute lexical score and outcome tally in the probe's
// situation bucket.
func (db *DB) Search(ctx context.Context, p kb.Probe) ([]kb.Candidate, error) {
	if err := db.index.ensure(ctx); err != nil {
		return nil, err
	}
	pool := p.Pool
	if pool <= 0 {
		pool = 64
	}
	dense, err := db.index.query(ctx, p.Vector, pool)
	if err != nil {
		return nil, err
	}
	lex, err := db.lexical(ctx, p.Terms, pool, int(db.index.n.Load()))
	if err != nil {
		return nil, err
	}
	seqs := make([]int64, 0, len(dense)+len(lex))
	seen := make(map[int64]bool, len(dense)+len(lex))
	for _, s := range dense {
		if !seen[s] {
			seen[s] = true
			seqs = append(seqs, s)
		}
	}
	for s := range lex {
		if !seen[s] {
			seen[s] = true
			seqs = append(seqs, s)
		}
	}
	if len(seqs) == 0 {
		return nil, nil
	}
	return db.candidates(ctx, seqs, p, lex)
}

// candidates loads the lessons and vectors of seqs and fills in every
// channel's value.
func (db *DB) candidates(ctx context.Context, seqs []int64, p kb.Probe, lex map[int64]float64) ([]kb.Candidate, error) {
	args := make([]any, len(seqs))
	for i, s := range seqs {
		args[i] = s
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT `+lessonColumns+`, v.content, v.trigger
		FROM lessons l JOIN lesson_vectors v ON v.seq = l.seq WHERE l.seq IN (`+placeholders(len(seqs))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("load candidates: %w", err)
	}
	defer rows.Close()
	centre := db.index.centre.Load()
	if centre == nil {
		centre = &centring{}
	}
	qc, qt := centred(p.Vector, centre.content), centred(p.Vector, centre.trigger)
	out := make([]kb.Candidate, 0, len(seqs))
	for rows.Next() {
		var cb, tb []byte
		l, seq, err := scanLessonWith(rows, &cb, &tb)
		if err != nil {
			return nil, err
		}
		c := kb.Candidate{Lesson: l, Lexical: lex[seq]}
		cv := decodeVec(cb)
		c.RawContent = cosine(p.Vector, cv)
		c.Content = normCosine(qc, centred(cv, centre.content))
		if t := decodeVec(tb); t != nil {
			c.RawTrigger = cosine(p.Vector, t)
			c.Trigger, c.HasTrigger = normCosine(qt, centred(t, centre.trigger)), true
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("load candidates: %w", err)
	}
	if p.SituationKey != "" {
		if err := db.fillContext(ctx, out, p.SituationKey); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// fillContext sets each candidate's outcome tally for the situation key.
func (db *DB) fillContext(ctx context.Context, cands []kb.Candidate, key string) error {
	args := []any{key}
	pos := make(map[string]int, len(cands))
	for i, c := range cands {
		args = append(args, c.Lesson.ID)
		pos[c.Lesson.ID] = i
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT lesson_id, successes, failures FROM lesson_context
		WHERE key = ? AND lesson_id IN (`+placeholders(len(cands))+`)`, args...)
	if err != nil {
		return fmt.Errorf("load outcome history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var t kb.Tally
		if err := rows.Scan(&id, &t.Successes, &t.Failures); err != nil {
			return fmt.Errorf("load outcome history: %w", err)
		}
		cands[pos[id]].Context = t
	}
	return rows.Err()
}

// lexical runs BM25 over the full-text index and returns seq → score
// normalised absolutely: the BM25 score divided by the score a document of
// average length containing every query term once would get. Terms no
// lesson contains count in that reference as if one lesson did, so a query
// whose distinctive words the knowledge base lacks does not look like a
// full match.
func (db *DB) lexical(ctx context.Context, qterms []string, pool, n int) (map[int64]float64, error) {
	if len(qterms) == 0 || n == 0 {
		return nil, nil
	}
	df, err := db.docFreq(ctx, qterms)
	if err != nil {
		return nil, err
	}
	type termIDF struct {
		term string
		idf  float64
	}
	var ref float64
	var present []termIDF
	for _, t := range qterms {
		d := df[t]
		ref += idf(n, max(d, 1))
		if d > 0 {
			present = append(present, termIDF{t, idf(n, d)})
		}
	}
	if len(present) == 0 || ref == 0 {
		return nil, nil
	}
	sort.SliceStable(present, func(i, j int) bool { return present[i].idf > present[j].idf })
	if len(present) > maxMatchTerms {
		present = present[:maxMatchTerms]
	}
	quoted := make([]string, len(present))
	for i, t := range present {
		quoted[i] = `"` + strings.ReplaceAll(t.term, `"`, `""`) + `"`
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT rowid, -bm25(lessons_fts) FROM lessons_fts WHERE lessons_fts MATCH ?
		ORDER BY bm25(lessons_fts) LIMIT ?`, strings.Join(quoted, " OR "), pool)
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]float64, pool)
	for rows.Next() {
		var seq int64
		var s float64
		if err := rows.Scan(&seq, &s); err != nil {
			return nil, fmt.Errorf("full-text search: %w", err)
		}
		out[seq] = s / ref
	}
	return out, rows.Err()
}

// idf is FTS5's BM25 inverse document frequency, floored as FTS5 floors it.
func idf(n, df int) float64 {
	v := math.Log((float64(n) - float64(df) + 0.5) / (float64(df) + 0.5))
	if v <= 0 {
		return 1e-6
	}
	return v
}

// docFreq returns the number of indexed lessons holding each term.
func (db *DB) docFreq(ctx context.Context, qterms []string) (map[string]int, error) {
	args := make([]any, len(qterms))
	for i, t := range qterms {
		args[i] = t
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT term, doc FROM lessons_vocab WHERE term IN (`+placeholders(len(qterms))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read term frequencies: %w", err)
	}
	defer rows.Close()
	df := make(map[string]int, len(qterms))
	for rows.Next() {
		var t string
		var d int
		if err := rows.Scan(&t, &d); err != nil {
			return nil, fmt.Errorf("read term frequencies: %w", err)
		}
		df[t] = d
	}
	return df, rows.Err()
}

// scanLessonWith scans lessonColumns followed by extra columns.
func scanLessonWith(r rowScanner, extra ...any) (kb.Lesson, int64, error) {
	return scanLesson(extendedScanner{r, extra})
}

// extendedScanner appends destinations to a Scan call.
type extendedScanner struct {
	r     rowScanner
	extra []any
}

func (e extendedScanner) Scan(dest ...any) error {
	return e.r.Scan(append(dest, e.extra...)...)
}

// centred returns v minus mean (v itself when there is no mean).
func centred(v, mean []float32) []float32 {
	if len(mean) != len(v) {
		return v
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = x - mean[i]
	}
	return out
}

// normCosine is the cosine of two vectors of any length.
func normCosine(a, b []float32) float64 {
	d := cosine(a, b)
	na, nb := cosine(a, a), cosine(b, b)
	if na <= 0 || nb <= 0 {
		return 0
	}
	return d / math.Sqrt(na*nb)
}

// cosine is the dot product of two vectors assumed L2-normalised; 0 when
// their lengths differ.
func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return float64(s0 + s1 + s2 + s3)
}
