package pgstore

import (
	"context"
	"fmt"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
)

// The lexical channel is package bm25's, as in storage: BM25 computed in
// Go from the term statistics kept here (lesson_terms, term_df, the
// collection's size and length in meta), the lessons holding a term found
// in term_postings, which stands in for SQLite's FTS5 index. The same
// statistics and the same computation give the same ranking as storage's.

// addStats records (sign +1) or withdraws (sign −1) a lesson's terms from
// the collection statistics, inside a write transaction: its lesson_terms
// row and postings (written on +1; withdrawn on −1), the terms' document
// frequencies, and the collection's size and total length in meta.
func addStats(ctx context.Context, tx *redactTx, seq int64, ds bm25.Doc, sign int) error {
	// Sorted, so that concurrent writers (serialised anyway by the write
	// lock) would lock term rows in one order.
	keys := ds.Terms()
	tfs := make([]int64, len(keys))
	for i, t := range keys {
		tfs[i] = int64(ds.TF[t])
	}
	if sign > 0 {
		if _, err := tx.Exec(ctx, `INSERT INTO lesson_terms (seq, len, tf) VALUES ($1, $2, $3)
			ON CONFLICT (seq) DO UPDATE SET len = excluded.len, tf = excluded.tf`,
			seq, ds.Length, ds.Encode()); err != nil {
			return fmt.Errorf("write term statistics: %w", err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO term_postings (term, seq, tf) SELECT u.term, $1, u.tf FROM unnest($2::text[], $3::bigint[]) AS u(term, tf)
			ON CONFLICT (term, seq) DO UPDATE SET tf = excluded.tf`, seq, keys, tfs); err != nil {
			return fmt.Errorf("write term postings: %w", err)
		}
	} else {
		if _, err := tx.Exec(ctx, `DELETE FROM term_postings WHERE seq = $1`, seq); err != nil {
			return fmt.Errorf("withdraw term postings: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM lesson_terms WHERE seq = $1`, seq); err != nil {
			return fmt.Errorf("withdraw term statistics: %w", err)
		}
	}
	// One statement for every term.
	if _, err := tx.Exec(ctx, `INSERT INTO term_df (term, df) SELECT u.term, $2 FROM unnest($1::text[]) AS u(term)
		ON CONFLICT (term) DO UPDATE SET df = greatest(term_df.df + excluded.df, 0)`, keys, sign); err != nil {
		return fmt.Errorf("update document frequencies: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE meta SET value = (value::bigint + $1)::text WHERE key = 'lex_docs'`, sign); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE meta SET value = (value::bigint + $1)::text WHERE key = 'lex_len'`, sign*ds.Length); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	return nil
}

// DocFreqs implements kb.Store: the number of recallable lessons holding
// each of the terms; a term no lesson holds is absent from the map.
func (db *DB) DocFreqs(ctx context.Context, ts []string) (map[string]int, error) {
	out := make(map[string]int, len(ts))
	if len(ts) == 0 {
		return out, nil
	}
	rows, err := db.pool.Query(ctx, `SELECT term, df FROM term_df WHERE df > 0 AND term = ANY($1)`, ts)
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

// prepareLexical reads the collection statistics a query's terms need;
// known, when not nil, holds the terms' document frequencies already read.
// The query is nil when there is nothing to score.
func (db *DB) prepareLexical(ctx context.Context, qterms []string, known map[string]int) (*bm25.Query, error) {
	if len(qterms) == 0 {
		return nil, nil
	}
	var docs, total int64
	if err := db.pool.QueryRow(ctx, `SELECT
		(SELECT value::bigint FROM meta WHERE key = 'lex_docs'),
		(SELECT value::bigint FROM meta WHERE key = 'lex_len')`).Scan(&docs, &total); err != nil {
		return nil, fmt.Errorf("read collection statistics: %w", err)
	}
	if docs <= 0 {
		return nil, nil
	}
	if known == nil {
		var err error
		if known, err = db.DocFreqs(ctx, qterms); err != nil {
			return nil, err
		}
	}
	return bm25.NewQuery(qterms, known, docs, total), nil
}

// lexicalCandidates finds up to pool lessons for q (see
// bm25.Query.Candidates): term_postings gives each term's postings.
func (db *DB) lexicalCandidates(ctx context.Context, q *bm25.Query, pool int) ([]int64, error) {
	if q == nil {
		return nil, nil
	}
	// Every term's postings in one round trip.
	postings := func(ctx context.Context, ts []string) (map[string][]int64, error) {
		rows, err := db.pool.Query(ctx, `SELECT term, seq FROM term_postings WHERE term = ANY($1)`, ts)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := make(map[string][]int64, len(ts))
		for rows.Next() {
			var term string
			var seq int64
			if err := rows.Scan(&term, &seq); err != nil {
				return nil, err
			}
			out[term] = append(out[term], seq)
		}
		return out, rows.Err()
	}
	return q.Candidates(ctx, postings, db.termStats, pool)
}

// termStats reads the term statistics of seqs (a bm25.StatsReader).
func (db *DB) termStats(ctx context.Context, seqs []int64, fn func(seq int64, length int, blob []byte) error) error {
	rows, err := db.pool.Query(ctx, `SELECT seq, len, tf FROM lesson_terms WHERE seq = ANY($1)`, seqs)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq, length int64
		var blob []byte
		if err := rows.Scan(&seq, &length, &blob); err != nil {
			return err
		}
		if err := fn(seq, int(length), blob); err != nil {
			return err
		}
	}
	return rows.Err()
}
