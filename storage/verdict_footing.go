package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/innate-mcp/innate-mcp/kb"
)

// VerdictFooting implements kb.Admin: the footing columns of the verdict
// log's row for an appraise trace.
func (db *DB) VerdictFooting(ctx context.Context, traceID string) (kb.VerdictFooting, error) {
	var f kb.VerdictFooting
	err := db.sql.QueryRowContext(ctx, `SELECT support, evidence, agreement, top_resonance, resonating
		FROM verdict_log WHERE trace_id = ?`, traceID).Scan(&f.Support, &f.Evidence, &f.Agreement, &f.TopResonance, &f.Resonating)
	if errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("read verdict log: %w", kb.ErrNotFound)
	}
	if err != nil {
		return f, fmt.Errorf("read verdict log: %w", err)
	}
	return f, nil
}
