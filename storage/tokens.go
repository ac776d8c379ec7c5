package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// CreateToken implements kb.Admin.
func (db *DB) CreateToken(ctx context.Context, t kb.Token, hash string) error {
	projects, err := json.Marshal(storerow.NonNil(t.Projects))
	if err != nil {
		return fmt.Errorf("encode token projects: %w", err)
	}
	return db.update(ctx, func(tx *redactTx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO tokens (id, name, hash, scope, projects, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			t.ID, t.Name, hash, t.Scope, string(projects), fmtTime(t.CreatedAt))
		if err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed: tokens.name") {
			return fmt.Errorf("token %q: %w", t.Name, kb.ErrExists)
		}
		if err != nil {
			return fmt.Errorf("create token %q: %w", t.Name, err)
		}
		return nil
	})
}

const tokenColumns = `id, name, scope, projects, created_at, revoked_at`

func scanToken(sc interface{ Scan(...any) error }) (kb.Token, error) {
	var t kb.Token
	var projects, created string
	var revoked sql.NullString
	if err := sc.Scan(&t.ID, &t.Name, &t.Scope, &projects, &created, &revoked); err != nil {
		return kb.Token{}, err
	}
	if err := json.Unmarshal([]byte(projects), &t.Projects); err != nil {
		return kb.Token{}, fmt.Errorf("token %s: projects: %w", t.ID, err)
	}
	t.CreatedAt = parseTime(created)
	if revoked.Valid {
		at := parseTime(revoked.String)
		t.RevokedAt = &at
	}
	return t, nil
}

// Tokens implements kb.Admin.
func (db *DB) Tokens(ctx context.Context) ([]kb.Token, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT `+tokenColumns+` FROM tokens ORDER BY created_at, rowid`)
	if err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	defer rows.Close()
	var out []kb.Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, fmt.Errorf("read tokens: %w", err)
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// TokenByHash implements kb.Admin.
func (db *DB) TokenByHash(ctx context.Context, hash string) (kb.Token, error) {
	t, err := scanToken(db.sql.QueryRowContext(ctx, `SELECT `+tokenColumns+` FROM tokens WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return kb.Token{}, kb.ErrNotFound
	}
	if err != nil {
		return kb.Token{}, fmt.Errorf("read token: %w", err)
	}
	return t, nil
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
