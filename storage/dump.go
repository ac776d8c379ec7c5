package storage

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"slices"
	"strings"
)

// Dump is a read-only view of every table of the database, all of it
// read in one snapshot (a read transaction), for copying the knowledge
// base into another store (innate-mcp migrate). It hands out rows as
// SQLite holds them (int64, float64, string, []byte or nil per value):
// storage knows its tables, not the target's types, and the target store
// converts by its own schema. It never writes. Close ends the snapshot.
type Dump struct {
	tx     *sql.Tx
	tables []string
	// rowid says which tables have a rowid, read in its order.
	rowid map[string]bool
}

// Dump opens a snapshot of the database for reading every table.
func (db *DB) Dump(ctx context.Context) (*Dump, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("dump %s: begin a read transaction: %w", db.path, err)
	}
	// The tables of the schema, without SQLite's own and without the
	// full-text index (lessons_fts, a virtual table, and its shadow
	// tables): it is derived from the lessons, and a PostgreSQL store
	// keeps term_postings, derived from lesson_terms, in its place.
	rows, err := tx.QueryContext(ctx, `SELECT name, wr FROM pragma_table_list
		WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("dump %s: list tables: %w", db.path, err)
	}
	d := &Dump{tx: tx, rowid: map[string]bool{}}
	for rows.Next() {
		var name string
		var withoutRowid bool
		if err := rows.Scan(&name, &withoutRowid); err != nil {
			rows.Close()
			tx.Rollback()
			return nil, fmt.Errorf("dump %s: list tables: %w", db.path, err)
		}
		d.tables = append(d.tables, name)
		d.rowid[name] = !withoutRowid
	}
	if err := rows.Err(); err != nil {
		tx.Rollback()
		return nil, fmt.Errorf("dump %s: list tables: %w", db.path, err)
	}
	return d, nil
}

// Close ends the snapshot.
func (d *Dump) Close() error {
	return d.tx.Rollback()
}

// Tables lists the tables, by name, in alphabetical order.
func (d *Dump) Tables(ctx context.Context) ([]string, error) {
	return slices.Clone(d.tables), nil
}

// check refuses a table that is not in the dump.
func (d *Dump) check(table string) error {
	if !slices.Contains(d.tables, table) {
		return fmt.Errorf("dump: no table %q in the SQLite knowledge base", table)
	}
	return nil
}

// quote quotes an identifier for SQLite.
func quote(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// Columns lists a table's columns in their order.
func (d *Dump) Columns(ctx context.Context, table string) ([]string, error) {
	if err := d.check(table); err != nil {
		return nil, err
	}
	rows, err := d.tx.QueryContext(ctx, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
	if err != nil {
		return nil, fmt.Errorf("dump: columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("dump: columns of %s: %w", table, err)
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("dump: columns of %s: %w", table, err)
	}
	return cols, nil
}

// Count returns how many rows a table holds.
func (d *Dump) Count(ctx context.Context, table string) (int64, error) {
	if err := d.check(table); err != nil {
		return 0, err
	}
	var n int64
	if err := d.tx.QueryRowContext(ctx, `SELECT count(*) FROM `+quote(table)).Scan(&n); err != nil {
		return 0, fmt.Errorf("dump: count %s: %w", table, err)
	}
	return n, nil
}

// Rows yields a table's rows, the values of cols in that order, in the
// order of the table's rowid (of its primary key for a table without
// one), so that a target that numbers rows anew numbers them in the same
// order. A failure is yielded once, with a nil row, and ends the rows.
func (d *Dump) Rows(ctx context.Context, table string, cols []string) iter.Seq2[[]any, error] {
	return func(yield func([]any, error) bool) {
		if err := d.check(table); err != nil {
			yield(nil, err)
			return
		}
		if len(cols) == 0 {
			yield(nil, fmt.Errorf("dump: rows of %s: no columns asked for", table))
			return
		}
		qs := make([]string, len(cols))
		for i, c := range cols {
			qs[i] = quote(c)
		}
		q := `SELECT ` + strings.Join(qs, ", ") + ` FROM ` + quote(table)
		if d.rowid[table] {
			q += ` ORDER BY rowid`
		}
		rows, err := d.tx.QueryContext(ctx, q)
		if err != nil {
			yield(nil, fmt.Errorf("dump: rows of %s: %w", table, err))
			return
		}
		defer rows.Close()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				yield(nil, fmt.Errorf("dump: rows of %s: %w", table, err))
				return
			}
			if !yield(vals, nil) {
				return
			}
		}
		if err := rows.Err(); err != nil {
			yield(nil, fmt.Errorf("dump: rows of %s: %w", table, err))
		}
	}
}
