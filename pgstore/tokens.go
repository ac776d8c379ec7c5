package pgstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// CreateToken implements kb.Admin: it stores a team-server token by the
// hash of its secret; an error wrapping kb.ErrExists when its name is
// taken.
func (db *DB) CreateToken(ctx context.Context, t kb.Token, hash string) error {
	projects, err := json.Marshal(storerow.NonNil(t.Projects))
	if err != nil {
		return fmt.Errorf("encode token projects: %w", err)
	}
	return db.update(ctx, func(tx *redactTx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tokens (id, name, hash, scope, projects, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
			t.ID, t.Name, hash, t.Scope, string(projects), fmtTime(t.CreatedAt))
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23505" && pgErr.ConstraintName == "tokens_name_key" { // unique_violation
			return fmt.Errorf("token %q: %w", t.Name, kb.ErrExists)
		}
		if err != nil {
			return fmt.Errorf("create token %q: %w", t.Name, err)
		}
		return nil
	})
}

const tokenColumns = `id, name, scope, projects, created_at, revoked_at`

func scanToken(r pgx.Row) (kb.Token, error) {
	var t kb.Token
	var projects, created string
	var revoked *string
	if err := r.Scan(&t.ID, &t.Name, &t.Scope, &projects, &created, &revoked); err != nil {
		return kb.Token{}, err
	}
	if err := json.Unmarshal([]byte(projects), &t.Projects); err != nil {
		return kb.Token{}, fmt.Errorf("token %s: projects: %w", t.ID, err)
	}
	t.CreatedAt = parseTime(created)
	if revoked != nil {
		at := parseTime(*revoked)
		t.RevokedAt = &at
	}
	return t, nil
}

// Tokens implements kb.Admin: every token, revoked ones included, oldest
// first.
func (db *DB) Tokens(ctx context.Context) ([]kb.Token, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+tokenColumns+` FROM tokens ORDER BY created_at, seq`)
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
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	return out, nil
}

// TokenByHash implements kb.Admin; kb.ErrNotFound when no token's secret
// hashes to hash.
func (db *DB) TokenByHash(ctx context.Context, hash string) (kb.Token, error) {
	t, err := scanToken(db.pool.QueryRow(ctx, `SELECT `+tokenColumns+` FROM tokens WHERE hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return kb.Token{}, kb.ErrNotFound
	}
	if err != nil {
		return kb.Token{}, fmt.Errorf("read token: %w", err)
	}
	return t, nil
}

// RevokeToken implements kb.Admin: it marks the token of that name or id
// revoked (a revoked token keeps its first revocation time); an error
// wrapping kb.ErrNotFound when there is none.
func (db *DB) RevokeToken(ctx context.Context, nameOrID string, at time.Time) error {
	return db.update(ctx, func(tx *redactTx) error {
		tag, err := tx.Exec(ctx, `UPDATE tokens SET revoked_at = COALESCE(revoked_at, $1) WHERE name = $2 OR id = $2`,
			fmtTime(at), nameOrID)
		if err != nil {
			return fmt.Errorf("revoke token %q: %w", nameOrID, err)
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("token %q: %w", nameOrID, kb.ErrNotFound)
		}
		return nil
	})
}
