package storage

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
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
		if m.version <= current || m.version > target {
			continue
		}
		err := db.update(ctx, func(tx *redactTx) error {
			var v int
			if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
				return err
			}
			if v >= m.version {
				return nil // another process got here first
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return fmt.Errorf("apply %s: %w", m.name, err)
			}
			if step := goSteps[m.version]; step != nil {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("apply %s: %w", m.name, err)
				}
			}
			_, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, m.version))
			return err
		})
		if err != nil {
			return err
		}
		db.log.Debug("migrated", "version", m.version, "file", m.name)
	}
	return nil
}
