package storage

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

// Secrets never reach the database: every statement of a write transaction
// runs through a redactTx, which redacts the text arguments it binds, and
// DB methods write only inside such transactions (DB.update). Whatever a
// method writes (a trace's request and response, a correction, a log row,
// a reason, a meta value), its text is redacted on the way in, so a new
// write path cannot forget it. The arguments of the reads a transaction
// makes are redacted too, so that a lookup by a value that was stored
// redacted finds it.

// redactTx is a write transaction whose statements bind redacted text. It
// has only the statement methods storage needs, so that no statement can
// reach the *sql.Tx underneath without redaction.
type redactTx struct {
	tx *cachedTx
}

// ExecContext runs a statement with its text arguments redacted.
func (t *redactTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, query, sanitize.RedactArgs(args)...)
}

// QueryRowContext runs a query (or an INSERT ... RETURNING) with its text
// arguments redacted.
func (t *redactTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return t.tx.QueryRowContext(ctx, query, sanitize.RedactArgs(args)...)
}

// QueryContext runs a query with its text arguments redacted.
func (t *redactTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return t.tx.QueryContext(ctx, query, sanitize.RedactArgs(args)...)
}

// PrepareContext prepares a statement whose executions redact their text
// arguments.
func (t *redactTx) PrepareContext(ctx context.Context, query string) (*redactStmt, error) {
	st, err := t.tx.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	return &redactStmt{st: st}, nil
}

// redactStmt is a prepared statement of a redactTx.
type redactStmt struct {
	st *sql.Stmt
}

// ExecContext runs the statement with its text arguments redacted.
func (s *redactStmt) ExecContext(ctx context.Context, args ...any) (sql.Result, error) {
	return s.st.ExecContext(ctx, sanitize.RedactArgs(args)...)
}

// Close releases the statement.
func (s *redactStmt) Close() error { return s.st.Close() }

// storedText lists the free-text columns that held text before every write
// was redacted: whatever an agent or a user sent may sit in them.
var storedText = []struct{ table, column string }{
	{"meta", "value"},
	{"traces", "request"}, {"traces", "response"},
	{"evidence", "reason"},
	{"corrections", "text"}, {"corrections", "keywords"},
	{"verdict_log", "contributors"},
	{"routing_log", "signals"},
	{"hesitation_log", "signals"}, {"hesitation_log", "actions"}, {"hesitation_log", "plan"}, {"hesitation_log", "patterns"},
	{"error_patterns", "keywords"}, {"error_patterns", "description"},
	{"confidence_history", "reason"},
	{"lesson_links", "reason"},
	{"regulator_log", "reason"},
}

// redactStored is migration 13's data step: it redacts in place the
// secrets that databases written before redaction became a property of
// every write keep in storedText's columns. Rows are read in batches of
// rowids, so that memory stays bounded on a large database.
func redactStored(ctx context.Context, tx *redactTx) error {
	const batch = 500
	for _, c := range storedText {
		for after := int64(-1 << 62); ; {
			rows, err := tx.QueryContext(ctx, `SELECT rowid, `+c.column+` FROM `+c.table+
				` WHERE rowid > ? AND `+c.column+` IS NOT NULL ORDER BY rowid LIMIT ?`, after, batch)
			if err != nil {
				return fmt.Errorf("redact %s.%s: %w", c.table, c.column, err)
			}
			type change struct {
				rowid int64
				text  string
			}
			var changes []change
			n := 0
			for rows.Next() {
				var id int64
				var v string
				if err := rows.Scan(&id, &v); err != nil {
					rows.Close()
					return fmt.Errorf("redact %s.%s: %w", c.table, c.column, err)
				}
				n++
				after = id
				if r := sanitize.RedactValue(v); r != v {
					changes = append(changes, change{id, r})
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("redact %s.%s: %w", c.table, c.column, err)
			}
			for _, ch := range changes {
				if _, err := tx.ExecContext(ctx, `UPDATE `+c.table+` SET `+c.column+` = ? WHERE rowid = ?`, ch.text, ch.rowid); err != nil {
					return fmt.Errorf("redact %s.%s row %d: %w", c.table, c.column, ch.rowid, err)
				}
			}
			if n < batch {
				break
			}
		}
	}
	return nil
}
