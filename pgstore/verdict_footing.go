package pgstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/kb"
)

// VerdictFooting implements kb.Admin: the footing columns of the verdict
// log's row for an appraise trace; kb.ErrNotFound when there is none.
func (db *DB) VerdictFooting(ctx context.Context, traceID string) (kb.VerdictFooting, error) {
	var f kb.VerdictFooting
	err := db.pool.QueryRow(ctx, `SELECT support, evidence, agreement, top_resonance, resonating
		FROM verdict_log WHERE trace_id = $1`, traceID).Scan(&f.Support, &f.Evidence, &f.Agreement, &f.TopResonance, &f.Resonating)
	if errors.Is(err, pgx.ErrNoRows) {
		return f, fmt.Errorf("read verdict log: %w", kb.ErrNotFound)
	}
	if err != nil {
		return f, fmt.Errorf("read verdict log: %w", err)
	}
	return f, nil
}
