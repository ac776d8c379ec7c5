package storage

import (
	"context"
	"fmt"

	"github.com/innate-mcp/innate-mcp/internal/vecindex"
)

// vectorSource is the database as the source of its in-memory vector index
// (package vecindex): the index reads the lessons whose vectors or
// recallability changed after the revision it reflects.
type vectorSource struct{ db *DB }

// Revision reads the database's vector revision.
func (s vectorSource) Revision(ctx context.Context) (int64, error) { return s.db.vecRev(ctx) }

// Changes calls fn for the lessons changed after revision from (from < 0:
// every recallable lesson).
func (s vectorSource) Changes(ctx context.Context, from int64, fn func(vecindex.Row) error) error {
	q := `SELECT l.seq, l.state, l.vec_rev, v.content, v.trigger FROM lessons l JOIN lesson_vectors v ON v.seq = l.seq`
	var args []any
	if from >= 0 {
		q += ` WHERE l.vec_rev > ?`
		args = append(args, from)
	} else {
		q += ` WHERE l.state != 'archived'`
	}
	rows, err := s.db.sql.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var (
			r         vecindex.Row
			state     string
			cblob, tb []byte
		)
		if err := rows.Scan(&r.Seq, &state, &r.Rev, &cblob, &tb); err != nil {
			return err
		}
		r.Archived = state == "archived"
		r.Content, r.Trigger = vecindex.Decode(cblob), vecindex.Decode(tb)
		if err := fn(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// vecRev reads the database's vector revision.
func (db *DB) vecRev(ctx context.Context) (int64, error) {
	var rev int64
	if err := db.sql.QueryRowContext(ctx, `SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'vec_rev'`).Scan(&rev); err != nil {
		return 0, fmt.Errorf("read vector revision: %w", err)
	}
	return rev, nil
}

// WarmUp builds the vector index ahead of the first search. Servers call it
// in the background once the MCP handshake has been answered.
func (db *DB) WarmUp(ctx context.Context) error { return db.index.Ensure(ctx) }
