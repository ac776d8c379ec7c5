package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
)

// The lexical channel is package bm25's: BM25 evaluated in Go from
// per-lesson term statistics. FTS5 finds the lessons holding a term (one
// MATCH per query term, rarest first, until bm25.PostingsBudget is spent).

// addStats records (sign +1) or withdraws (sign −1) a lesson's terms from
// the collection statistics, inside a write transaction.
func addStats(ctx context.Context, tx *redactTx, seq int64, ds bm25.Doc, sign int) error {
	if sign > 0 {
		if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO lesson_terms (seq, len, tf) VALUES (?, ?, ?)`,
			seq, ds.Length, ds.Encode()); err != nil {
			return fmt.Errorf("write term statistics: %w", err)
		}
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO term_df (term, df) VALUES (?, ?)
		ON CONFLICT (term) DO UPDATE SET df = max(df + excluded.df, 0)`)
	if err != nil {
		return fmt.Errorf("update document frequencies: %w", err)
	}
	defer stmt.Close()
	for t := range ds.TF {
		if _, err := stmt.ExecContext(ctx, t, sign); err != nil {
			return fmt.Errorf("update document frequencies: %w", err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'lex_docs'`, sign); err != nil {
		return fmt.Errorf("update collection statistics: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'lex_len'`, sign*ds.Length); err != nil {
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

// prepareLexical reads the collection statistics a query's terms need;
// known, when not nil, holds the terms' document frequencies already read
// (a term absent from it is held by no lesson). The query is nil when
// there is nothing to score.
func (db *DB) prepareLexical(ctx context.Context, qterms []string, known map[string]int) (*bm25.Query, error) {
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
	if known == nil {
		var err error
		if known, err = db.DocFreqs(ctx, qterms); err != nil {
			return nil, err
		}
	}
	return bm25.NewQuery(qterms, known, docs, total), nil
}

// lexicalCandidates finds up to pool lessons for q (see
// bm25.Query.Candidates): FTS5 gives each term's postings.
func (db *DB) lexicalCandidates(ctx context.Context, q *bm25.Query, pool int) ([]int64, error) {
	if q == nil {
		return nil, nil
	}
	match, err := db.ftsMatch.get(ctx)
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	postings := func(ctx context.Context, ts []string) (map[string][]int64, error) {
		out := make(map[string][]int64, len(ts))
		for _, term := range ts {
			rows, err := match.QueryContext(ctx, `"`+strings.ReplaceAll(term, `"`, `""`)+`"`)
			if err != nil {
				return nil, err
			}
			for rows.Next() {
				var seq int64
				if err := rows.Scan(&seq); err != nil {
					rows.Close()
					return nil, err
				}
				out[term] = append(out[term], seq)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return q.Candidates(ctx, postings, db.termStats, pool)
}

// termStats reads the term statistics of seqs (a bm25.StatsReader).
func (db *DB) termStats(ctx context.Context, seqs []int64, fn func(seq int64, length int, blob []byte) error) error {
	args := make([]any, len(seqs))
	for i, s := range seqs {
		args[i] = s
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT seq, len, tf FROM lesson_terms WHERE seq IN (`+placeholders(len(seqs))+`)`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int64
		var length int
		var blob []byte
		if err := rows.Scan(&seq, &length, &blob); err != nil {
			return err
		}
		if err := fn(seq, length, blob); err != nil {
			return err
		}
	}
	return rows.Err()
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
