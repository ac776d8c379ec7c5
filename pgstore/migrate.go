package pgstore

import (
	"context"
	"embed"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrations returns the embedded migrations in order (see
// storerow.Migrations).
func migrations() ([]storerow.Migration, error) {
	return storerow.Migrations(migrationFS, "migrations")
}

// SchemaVersion is the schema version this build migrates databases to.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrateLock is the key of the transaction-scoped advisory lock that
// serialises migrations between instances starting at once.
const migrateLock int64 = 0x696e6e617465 // "innate"

// migrate brings the database to the latest schema version, one
// transaction per step. Each step takes the advisory lock first, then
// (re)reads the version from schema_version, so instances that start
// together apply every step once: the others wait for the lock and find the
// step done.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		applied := false
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLock); err != nil {
				return fmt.Errorf("lock for migration: %w", err)
			}
			if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)`); err != nil {
				return fmt.Errorf("create schema_version: %w", err)
			}
			var v int
			if err := tx.QueryRow(ctx, `SELECT COALESCE(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
				return fmt.Errorf("read schema version: %w", err)
			}
			if v > len(ms) {
				return fmt.Errorf("database schema version %d is newer than this build's %d: upgrade innate-mcp", v, len(ms))
			}
			if v >= m.Version {
				return nil // done before, or by another instance meanwhile
			}
			// No arguments: the simple protocol, which runs a file of
			// several statements.
			if _, err := tx.Exec(ctx, m.SQL); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `DELETE FROM schema_version`); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, m.Version); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			applied = true
			return nil
		})
		if err != nil {
			return err
		}
		if applied {
			db.log.Debug("migrated", "version", m.Version, "file", m.Name)
		}
	}
	return nil
}
