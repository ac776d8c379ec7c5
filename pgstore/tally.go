package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// The stats report's figures are sums over the logs, kb's tallies (see
// kb.TallyRecall): Prune folds the sums of the rows it deletes into the
// pruned_tally table, one JSON tally per kind, in the encoding storage
// keeps, and the stats add them to the sums of the rows still held.

// readTally decodes the pruned tally of a kind into v, leaving v as it is
// when nothing of that kind was pruned yet.
func readTally(ctx context.Context, q querier, kind string, v any) error {
	var s string
	err := q.QueryRow(ctx, `SELECT tally FROM pruned_tally WHERE kind = $1`, kind).Scan(&s)
	if errors.Is(err, pgx.ErrNoRows) {
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
	b, err := json.Marshal(t)
	if err != nil {
		return fmt.Errorf("encode pruned %s tally: %w", kind, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO pruned_tally (kind, tally) VALUES ($1, $2)
		ON CONFLICT (kind) DO UPDATE SET tally = excluded.tally`, kind, string(b)); err != nil {
		return fmt.Errorf("write pruned %s tally: %w", kind, err)
	}
	return nil
}
