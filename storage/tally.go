package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// The stats report's figures are sums over the logs. Pruning folds the sums
// of the rows it deletes into the pruned_tally table, one JSON tally per
// kind (kb.TallyRecall and the others, kb's tally types), and the stats add
// them to the sums of the rows still held, so that a figure over all time
// means the same before and after a prune. The same Add methods compute
// both, so the two cannot drift.

// readTally decodes the pruned tally of a kind into v, leaving v as it is
// when nothing of that kind was pruned yet.
func readTally(ctx context.Context, q queryer, kind string, v any) error {
	var s string
	err := q.QueryRowContext(ctx, `SELECT tally FROM pruned_tally WHERE kind = ?`, kind).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read pruned %s tally: %w", kind, err)
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("read pruned %s tally: %w", kind, err)
	}
	return nil
}

// addTally merges add into the pruned tally of a kind.
func addTally[T any](ctx context.Context, tx *redactTx, kind string, merge func(*T, T), add T) error {
	var t T
	if err := readTally(ctx, tx, kind, &t); err != nil {
		return err
	}
	merge(&t, add)
	return writeTally(ctx, tx, kind, t)
}

// writeTally stores the pruned tally of a kind.
func writeTally(ctx context.Context, tx *redactTx, kind string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode pruned %s tally: %w", kind, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pruned_tally (kind, tally) VALUES (?, ?)
		ON CONFLICT (kind) DO UPDATE SET tally = excluded.tally`, kind, string(b)); err != nil {
		return fmt.Errorf("write pruned %s tally: %w", kind, err)
	}
	return nil
}
