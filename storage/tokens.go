package storage

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// CreateToken implements kb.Admin.
func (db *DB) CreateToken(ctx context.Context, t kb.Token, hash string) error {
	args, err := storerow.TokenArgs(t, hash)
	if err != nil {
		return err
	}
	return db.update(ctx, func(tx *redactTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tokens (id, name, hash, scope, projects, created_at) VALUES (?, ?, ?, ?, ?, ?)`, args...)
		if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed: tokens.name") {
			return fmt.Errorf("token %q: %w", t.Name, kb.ErrExists)
		}
		if err != nil {
			return fmt.Errorf("create token %q: %w", t.Name, err)
		}
		return nil
	})
}

// tokenColumns are the columns storerow.Token reads.
const tokenColumns = storerow.TokenColumns

// Tokens implements kb.Admin.
func (db *DB) Tokens(ctx context.Context) ([]kb.Token, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+tokenColumns+` FROM tokens ORDER BY created_at, rowid`)
	if err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.Token)
	if err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	return out, nil
}

// TokenByHash implements kb.Admin.
func (db *DB) TokenByHash(ctx context.Context, hash string) (kb.Token, error) {
	return storerow.TokenByHash(notFound(db.sql.QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM tokens WHERE hash = ?`, hash)))
}

// RevokeToken implements kb.Admin. Revoking a revoked token keeps its
// first revocation time.
func (db *DB) RevokeToken(ctx context.Context, nameOrID string, at time.Time) error {
	return db.update(ctx, func(tx *redactTx) error {
		res, err := tx.ExecContext(ctx, `UPDATE tokens SET revoked_at = COALESCE(revoked_at, ?) WHERE name = ? OR id = ?`,
			fmtTime(at), nameOrID, nameOrID)
		if err != nil {
			return fmt.Errorf("revoke token %q: %w", nameOrID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("revoke token %q: %w", nameOrID, err)
		}
		if n == 0 {
			return fmt.Errorf("token %q: %w", nameOrID, kb.ErrNotFound)
		}
		return nil
	})
}
