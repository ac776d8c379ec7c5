package storage

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/termstats"
	"github.com/innate-mcp/innate-mcp/terms"
)

// The lexical channel is BM25 exactly as SQLite FTS5's bm25() computes it
// (k1 = 1.2, b = 0.75, idf = ln((N − df + 0.5)/(df + 0.5)) floored at 1e-6,
// term frequency summed over the content and trigger columns, document
// length over both), but evaluated in Go from per-lesson term statistics:
// FTS5's bm25() must score every row that matches any query term before it
// can sort, which makes a query holding a common word cost as much as the
// whole index. FTS5 still finds the lessons: one MATCH per query term,
// rarest first, until a postings budget is spent.
const (
	bm25B = 0.75
	// postingsBudget bounds the rows the lexical candidate search reads; the
	// rarest terms, which carry the ranking, are always read.
	postingsBudget = 2500
)

// docStats are one lesson's term frequencies and length.
type docStats struct {
	length int
	tf     map[string]int
}

// lessonStats computes the term statistics of a lesson's text over the
// three indexed columns: title (the lesson's descriptive text, see
// describe), content and trigger. A descriptive term thus counts twice, as
// in the full-text index.
func lessonStats(content, trigger string) docStats {
	ds := docStats{tf: map[string]int{}}
	for _, text := range []string{describe(content), content, trigger} {
		for _, t := range terms.Tokens(text) {
			ds.tf[t]++
			ds.length++
		}
	}
	return ds
}

// describe returns the parts of a lesson's content that say what the rest
// is about, which BM25 weighs twice as BM25F weighs a title field: the first
// non-empty line (a rule file's heading, a function's signature), lines
// starting with '#' (Markdown headings; shell, Python, YAML and Ruby
// comments) or "//" (C-family comments), block comments (/* … */) and
// Python docstrings (in triple double or triple single quotes). Prose
// without such marks describes itself: only its first line counts.
func describe(content string) string {
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

// encodeStats packs a lesson's term frequencies (termstats' encoding).
func encodeStats(ds docStats) []byte { return termstats.Encode(ds.tf) }

// statsTF reads the frequency of each wanted term from an encoded blob.
func statsTF(blob []byte, want map[string]int, out []int) error {
	return termstats.Walk(blob, func(term []byte, f int) {
		if i, ok := want[string(term)]; ok {
			out[i] = f
		}
	})
}

// addStats records (sign +1) or withdraws (sign −1) a lesson's terms from
// the collection statistics, inside a write transaction.
func addStats(ctx context.Context, tx *redactTx, seq int64, ds docStats, sign int) error {
	if sign > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO lesson_terms (seq, len, tf) VALUES (?, ?, ?)`,
			seq, ds.length, encodeStats(ds)); err != nil {
			return fmt.Errorf("write term statistics: %w", err)
		}
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO term_df (term, df) VALUES (?, ?)
		ON CONFLICT (term) DO UPDATE SET df = max(df + excluded.df, 0)`)
	if err != nil {
		return fmt.Errorf("update document frequencies: %w", err)
	}
	defer stmt.Close()
	for t := range ds.tf {
		if _, err := stmt.ExecContext(ctx, t, sign); err != nil {
			return fmt.Errorf("update document frequencies: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'lex_docs'`, sign); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'lex_len'`, sign*ds.length); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	return nil
}

// backfillLexical is the data step of migrations 3 and 8: the rebuilt full-text index
// and the term statistics for every recallable lesson.
func backfillLexical(ctx context.Context, sqlTx *redactTx) error {
	rows, err := sqlTx.QueryContext(ctx, `SELECT seq, content, trigger FROM lessons WHERE state != 'archived'`)
	if err != nil {
		return err
	}
	type lesson struct {
		seq              int64
		content, trigger string
	}
	var ls []lesson
	for rows.Next() {
		var l lesson
		if err := rows.Scan(&l.seq, &l.content, &l.trigger); err != nil {
			rows.Close()
			return err
		}
		ls = append(ls, l)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	t := &tx{tx: sqlTx}
	for _, l := range ls {
		if err := t.indexText(ctx, l.seq, l.content, l.trigger); err != nil {
			return err
		}
	}
	return nil
}

// lexQuery is a query's terms with their collection statistics.
type lexQuery struct {
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

// prepareLexical reads the statistics a query's terms need; known, when
// not nil, holds the terms' document frequencies already read (a term
// absent from it is held by no lesson).
func (db *DB) prepareLexical(ctx context.Context, qterms []string, known map[string]int) (*lexQuery, error) {
	if len(qterms) == 0 {
		return nil, nil
	}
	var docs, total int64
	if err := db.sql.QueryRowContext(ctx, `SELECT
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'lex_docs'),
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'lex_len')`).Scan(&docs, &total); err != nil {
		return nil, fmt.Errorf("read collection statistics: %w", err)
	}
	if docs <= 0 {
		return nil, nil
	}
	q := &lexQuery{terms: qterms, index: make(map[string]int, len(qterms)), df: make([]int, len(qterms)),
		n: int(docs), avgdl: float64(total) / float64(docs)}
	if known == nil {
		var err error
		if known, err = db.DocFreqs(ctx, qterms); err != nil {
			return nil, err
		}
	}
	for i, t := range qterms {
		q.index[t] = i
		q.df[i] = known[t]
	}
	// Terms no lesson holds count in the reference as if one lesson did, so
	// a query whose distinctive words the knowledge base lacks does not
	// look like a full match.
	for _, df := range q.df {
		q.ref += idf(q.n, max(df, 1))
	}
	return q, nil
}

// score is the BM25 of one lesson (its frequencies of the query terms, in
// query order, and its length), divided by the query's reference.
func (q *lexQuery) score(tf []int, length int) float64 {
	if q == nil || q.ref == 0 {
		return 0
	}
	var s float64
	norm := bm25K1 * (1 - bm25B + bm25B*float64(length)/q.avgdl)
	for i, f := range tf {
		if f == 0 || q.df[i] == 0 {
			continue
		}
		ff := float64(f)
		s += idf(q.n, q.df[i]) * ff * (bm25K1 + 1) / (ff + norm)
	}
	return s / q.ref
}

// candidates finds up to pool lessons holding the query's terms: one FTS5
// MATCH per term, rarest first, while the postings read stay within budget,
// ranking lessons by the summed idf of the terms they hold.
func (q *lexQuery) candidates(ctx context.Context, db *DB, pool int) ([]int64, error) {
	if q == nil {
		return nil, nil
	}
	order := make([]int, 0, len(q.terms))
	for i, df := range q.df {
		if df > 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return q.df[order[a]] < q.df[order[b]] })
	match, err := db.ftsMatch.get(ctx)
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	acc := map[int64]float64{}
	read := 0
	for k, i := range order {
		if k > 0 && read+q.df[i] > postingsBudget {
			break
		}
		read += q.df[i]
		w := idf(q.n, q.df[i])
		rows, err := match.QueryContext(ctx, `"`+strings.ReplaceAll(q.terms[i], `"`, `""`)+`"`)
		if err != nil {
			return nil, fmt.Errorf("full-text search: %w", err)
		}
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				rows.Close()
				return nil, fmt.Errorf("full-text search: %w", err)
			}
			acc[seq] += w
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("full-text search: %w", err)
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
	// The summed idf ignores term frequency and length; the best
	// shortlistFactor·pool of it are ranked again by their exact BM25 from
	// the term statistics, which are small to read, and the best pool kept.
	if len(seqs) > shortlistFactor*pool {
		seqs = seqs[:shortlistFactor*pool]
	}
	exact, err := q.exact(ctx, db, seqs)
	if err != nil {
		return nil, err
	}
	sort.SliceStable(seqs, func(a, b int) bool { return exact[seqs[a]] > exact[seqs[b]] })
	q.scored = exact
	return seqs[:pool], nil
}

// scoredAlready returns the score the candidate search computed for a
// lesson, if it did.
func (q *lexQuery) scoredAlready(seq int64) (float64, bool) {
	if q == nil {
		return 0, false
	}
	v, ok := q.scored[seq]
	return v, ok
}

// shortlistFactor is how many times the pool the lexical candidate search
// ranks by exact BM25.
const shortlistFactor = 2

// exact returns the BM25 score (relative to the query's reference) of each
// of seqs, read from their term statistics.
func (q *lexQuery) exact(ctx context.Context, db *DB, seqs []int64) (map[int64]float64, error) {
	args := make([]any, len(seqs))
	for i, s := range seqs {
		args[i] = s
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT seq, len, tf FROM lesson_terms WHERE seq IN (`+placeholders(len(seqs))+`)`, args...)
	if err != nil {
		return nil, fmt.Errorf("read term statistics: %w", err)
	}
	defer rows.Close()
	out := make(map[int64]float64, len(seqs))
	tf := make([]int, len(q.terms))
	for rows.Next() {
		var seq int64
		var length int
		var blob []byte
		if err := rows.Scan(&seq, &length, &blob); err != nil {
			return nil, fmt.Errorf("read term statistics: %w", err)
		}
		clear(tf)
		if err := statsTF(blob, q.index, tf); err != nil {
			return nil, fmt.Errorf("lesson #%d: %w", seq, err)
		}
		out[seq] = q.score(tf, length)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read term statistics: %w", err)
	}
	return out, nil
}

// DocFreqs implements kb.Store: the number of recallable lessons holding
// each of the terms; a term no lesson holds is absent from the map. The
// terms go to SQLite as one JSON array, so a long list (a query's unknown
// words' possible readings) is one statement, not thousands of bound
// parameters.
func (db *DB) DocFreqs(ctx context.Context, ts []string) (map[string]int, error) {
	out := make(map[string]int, len(ts))
	if len(ts) == 0 {
		return out, nil
	}
	list, err := json.Marshal(ts)
	if err != nil {
		return nil, fmt.Errorf("read document frequencies: %w", err)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT term, df FROM term_df WHERE df > 0 AND term IN (SELECT value FROM json_each(?))`, string(list))
	if err != nil {
		return nil, fmt.Errorf("read document frequencies: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t string
		var df int
		if err := rows.Scan(&t, &df); err != nil {
			return nil, fmt.Errorf("read document frequencies: %w", err)
		}
		out[t] = df
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read document frequencies: %w", err)
	}
	return out, nil
}

// idf is FTS5's BM25 inverse document frequency, floored as FTS5 floors it.
func idf(n, df int) float64 {
	v := math.Log((float64(n) - float64(df) + 0.5) / (float64(df) + 0.5))
	if v <= 0 {
		return 1e-6
	}
	return v
}
