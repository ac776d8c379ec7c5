package storage

import (
	"context"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// VerdictFooting implements kb.Admin: the footing columns of the verdict
// log's row for an appraise trace.
func (db *DB) VerdictFooting(ctx context.Context, traceID string) (kb.VerdictFooting, error) {
	return storerow.VerdictFooting(notFound(db.sql.QueryRowContext(ctx, `SELECT `+storerow.VerdictFootingColumns+`
		FROM verdict_log WHERE trace_id = ?`, traceID)))
}
