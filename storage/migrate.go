package storage

import (
	"context"
	"embed"
	"fmt"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrations returns the embedded migrations in order (see
// storerow.Migrations).
func migrations() ([]storerow.Migration, error) {
	return storerow.Migrations(migrationFS, "migrations")
}

// goSteps are data migrations that SQL cannot express, run in the same
// transaction right after the SQL file of their version.
var goSteps = map[int]func(context.Context, *redactTx) error{
	3:  backfillLexical,
	6:  backfillConfidence,
	8:  backfillLexical,
	10: backfillLexical,
	11: backfillShape,
	13: redactStored,
}

// SchemaVersion is the schema version this build migrates databases to.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil {
		return 0
	}
	return len(ms)
}

// migrateTo brings the database to schema version target (-1: the latest),
// one transaction per step, recording the version in PRAGMA user_version.
// Concurrent processes are safe: each step re-reads the version inside its
// write transaction.
func (db *DB) migrateTo(ctx context.Context, target int) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	if target < 0 {
		target = len(ms)
	}
	var current int
	if err := db.sql.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if current > len(ms) {
		return fmt.Errorf("database schema version %d is newer than this build's %d: upgrade innate-mcp", current, len(ms))
	}
	for _, m := range ms {
		if m.Version <= current || m.Version > target {
			continue
		}
		err := db.update(ctx, func(tx *redactTx) error {
			var v int
			if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
				return err
			}
			if v >= m.Version {
				return nil // another process got here first
			}
			if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
				return fmt.Errorf("apply %s: %w", m.Name, err)
			}
			if step := goSteps[m.Version]; step != nil {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("apply %s: %w", m.Name, err)
				}
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, m.Version))
			return err
		})
		if err != nil {
			return err
		}
		db.log.Debug("migrated", "version", m.Version, "file", m.Name)
	}
	return nil
}
