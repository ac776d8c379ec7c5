package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// CreateToken implements kb.Admin: it stores a team-server token by the
// hash of its secret; an error wrapping kb.ErrExists when its name is
// taken.
func (db *DB) CreateToken(ctx context.Context, t kb.Token, hash string) error {
	args, err := storerow.TokenArgs(t, hash)
	if err != nil {
		return err
	}
	return db.update(ctx, func(tx *redactTx) error {
		_, err := tx.Exec(ctx, `INSERT INTO tokens (id, name, hash, scope, projects, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, args...)
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

// tokenColumns are the columns storerow.Token reads.
const tokenColumns = storerow.TokenColumns

// Tokens implements kb.Admin: every token, revoked ones included, oldest
// first.
func (db *DB) Tokens(ctx context.Context) ([]kb.Token, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+tokenColumns+` FROM tokens ORDER BY created_at, seq`)
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

// TokenByHash implements kb.Admin; kb.ErrNotFound when no token's secret
// hashes to hash.
func (db *DB) TokenByHash(ctx context.Context, hash string) (kb.Token, error) {
	return storerow.TokenByHash(notFound(db.pool.QueryRow(ctx, `SELECT `+tokenColumns+` FROM tokens WHERE hash = $1`, hash)))
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
