package storage

import (
	"context"
	"database/sql"
	"errors"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
)

// The pruned tallies (see storerow's tally.go) as SQLite keeps them.

// readTally decodes the pruned tally of a kind into v, leaving v as it is
// when nothing of that kind was pruned yet.
func readTally(ctx context.Context, q queryer, kind string, v any) error {
	return storerow.ReadTally(tallyReader(ctx, q), kind, v)
}

// tallyReader reads the stored pruned tallies through q.
func tallyReader(ctx context.Context, q queryer) storerow.TallyReader {
	return func(kind string) (string, bool, error) {
		var s string
		err := q.QueryRowContext(ctx, `SELECT tally FROM pruned_tally WHERE kind = ?`, kind).Scan(&s)
		if errors.Is(err, sql.ErrNoRows) {
			return "", false, nil
		}
		return s, err == nil, err
	}
}

// tallyWriter stores pruned tallies in tx.
func tallyWriter(ctx context.Context, tx *redactTx) storerow.TallyWriter {
	return func(kind, s string) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO pruned_tally (kind, tally) VALUES (?, ?)
			ON CONFLICT (kind) DO UPDATE SET tally = excluded.tally`, kind, s)
		return err
	}
}

// selectWhere is the storerow.Select of the rows matching where (with its
// arguments), read through q.
func selectWhere(ctx context.Context, q queryer, where string, args ...any) storerow.Select {
	return func(head, tail string, fn func(storerow.Scan) error) error {
		rows, err := q.QueryContext(ctx, head+where+tail, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return storerow.Each(rows, fn)
	}
}
