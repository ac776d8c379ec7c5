package pgstore

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

// Secrets never reach the database: every statement of a write transaction
// runs through a redactTx, which redacts the text arguments it binds, and
// DB methods write only inside such transactions (DB.update), as in
// package storage (storage/redact.go). The arguments of the reads a
// transaction makes are redacted too, so that a lookup by a value that was
// stored redacted finds it.

// redactTx is a write transaction whose statements bind redacted text. It
// has only the statement methods pgstore needs, so that no statement can
// reach the pgx.Tx underneath without redaction.
type redactTx struct {
	tx pgx.Tx
}

// Exec runs a statement with its text arguments redacted.
func (t *redactTx) Exec(ctx context.Context, query string, args ...any) (pgconn.CommandTag, error) {
	return t.tx.Exec(ctx, query, sanitize.RedactArgs(args)...)
}

// QueryRow runs a query (or an INSERT ... RETURNING) with its text
// arguments redacted.
func (t *redactTx) QueryRow(ctx context.Context, query string, args ...any) pgx.Row {
	return t.tx.QueryRow(ctx, query, sanitize.RedactArgs(args)...)
}

// Query runs a query with its text arguments redacted.
func (t *redactTx) Query(ctx context.Context, query string, args ...any) (pgx.Rows, error) {
	return t.tx.Query(ctx, query, sanitize.RedactArgs(args)...)
}
