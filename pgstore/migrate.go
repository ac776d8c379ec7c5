package pgstore

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migration is one numbered schema step.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in order. File names are
// NNNN_name.sql; the number is the schema version the file brings the
// database to.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number", e.Name())
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i, m := range ms {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d", m.name, i+1)
		}
	}
	return ms, nil
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
			if v >= m.version {
				return nil // done before, or by another instance meanwhile
			}
			// No arguments: the simple protocol, which runs a file of
			// several statements.
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, `DELETE FROM schema_version`); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, m.version); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			applied = true
			return nil
		})
		if err != nil {
			return err
		}
		if applied {
			db.log.Debug("migrated", "version", m.version, "file", m.name)
		}
	}
	return nil
}
