package pgstore

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/bm25"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// Copying a whole knowledge base in (innate-mcp migrate) is split between
// the stores so that neither knows the other: storage hands out its
// tables' rows as SQLite holds them (storage.Dump, which satisfies
// Source), and Load writes them by this schema's column types, read from
// information_schema, so that the conversion follows the schema and
// needs no list of columns kept in step with it. The command wires the
// two (cmd/innate-mcp/migrate.go). Both schemas name tables and columns
// alike (migrations/0001_schema.sql).

// Source is a knowledge base to copy from, read in one snapshot.
type Source interface {
	// Tables lists the source's tables.
	Tables(ctx context.Context) ([]string, error)
	// Columns lists a table's columns.
	Columns(ctx context.Context, table string) ([]string, error)
	// Rows yields a table's rows, the values of cols in that order, as
	// int64, float64, bool, string, []byte or nil; a failure is yielded
	// once with a nil row.
	Rows(ctx context.Context, table string, cols []string) iter.Seq2[[]any, error]
}

// ErrNotEmpty is returned by Load into a database that already holds a
// knowledge base.
var ErrNotEmpty = errors.New("the PostgreSQL database is not empty")

// derivedTables are this schema's tables that Load does not read from the
// source: schema_version is the migrations', term_postings is rebuilt from
// lesson_terms (SQLite finds terms with its FTS5 index instead).
var derivedTables = []string{"schema_version", "term_postings"}

// column is one column of this schema as information_schema describes it.
type column struct {
	name, dataType string
	identity       bool
	hasDefault     bool
}

// LoadOptions configure Load.
type LoadOptions struct {
	// Progress, when set, is called now and then with the number of rows
	// written so far, over every table.
	Progress func(rows int64)
}

// Load copies every table of src into this database, which must be empty:
// no table but meta holds a row (meta's rows, the counters a new database
// starts with, are replaced by the source's); ErrNotEmpty otherwise. It is
// one transaction, all or nothing, holding the write lock: tables are
// written in the order of their foreign keys with COPY, values converted
// to each column's type (0 and 1 to BOOLEAN, integers to DOUBLE PRECISION,
// text to BYTEA and back), every text redacted as every write of this
// store is; identity columns keep the source's keys and their sequences
// are set past them; a column of this schema that the source lacks takes
// its default (an identity numbers the rows in the source's order); a
// source table or column this schema lacks is refused (it would be lost).
// term_postings is rebuilt from lesson_terms. Load returns the rows it
// wrote per table. Instances that have this database open keep their
// in-memory state: load into a database no instance serves yet.
func (db *DB) Load(ctx context.Context, src Source, opts LoadOptions) (map[string]int64, error) {
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return nil, fmt.Errorf("load: begin: %w", err)
	}
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		tx.Rollback(rctx)
	}()
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, writeLock); err != nil {
		return nil, fmt.Errorf("load: take the write lock: %w", err)
	}
	schema, order, err := schemaTables(ctx, tx)
	if err != nil {
		return nil, err
	}
	if err := checkEmpty(ctx, tx, order); err != nil {
		return nil, err
	}
	srcTables, err := src.Tables(ctx)
	if err != nil {
		return nil, fmt.Errorf("load: list the source's tables: %w", err)
	}
	for _, t := range srcTables {
		if _, ok := schema[t]; !ok || slices.Contains(derivedTables, t) {
			return nil, fmt.Errorf("load: the source's table %s has no counterpart in the PostgreSQL schema: its rows would be lost; upgrade innate-mcp on the PostgreSQL side or migrate from a knowledge base of this build", t)
		}
	}
	if _, err := tx.Exec(ctx, `DELETE FROM meta`); err != nil {
		return nil, fmt.Errorf("load: clear meta: %w", err)
	}
	l := &loader{tx: tx, opts: opts, written: map[string]int64{}}
	for _, t := range order {
		if slices.Contains(derivedTables, t) {
			continue
		}
		if !slices.Contains(srcTables, t) {
			return nil, fmt.Errorf("load: the source has no table %s: it is of another schema; open it once with this build of innate-mcp, which migrates it, then copy again", t)
		}
		if err := l.table(ctx, src, t, schema[t]); err != nil {
			return nil, err
		}
	}
	if err := l.postingsOut(ctx); err != nil {
		return nil, err
	}
	if err := setIdentities(ctx, tx, schema); err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fmt.Errorf("load: commit: %w", err)
	}
	return l.written, nil
}

// schemaTables reads this schema's tables and their columns from
// information_schema, and orders the tables so that each comes after the
// tables its foreign keys reference.
func schemaTables(ctx context.Context, tx pgx.Tx) (map[string][]column, []string, error) {
	rows, err := tx.Query(ctx, `SELECT c.table_name, c.column_name, c.data_type, c.is_identity = 'YES', c.column_default IS NOT NULL
		FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
		WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
		ORDER BY c.table_name, c.ordinal_position`)
	if err != nil {
		return nil, nil, fmt.Errorf("load: read the schema: %w", err)
	}
	schema := map[string][]column{}
	for rows.Next() {
		var t string
		var c column
		if err := rows.Scan(&t, &c.name, &c.dataType, &c.identity, &c.hasDefault); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("load: read the schema: %w", err)
		}
		schema[t] = append(schema[t], c)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("load: read the schema: %w", err)
	}
	rows, err = tx.Query(ctx, `SELECT DISTINCT t.relname, r.relname
		FROM pg_constraint c
		JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
		JOIN pg_namespace n ON n.oid = t.relnamespace
		WHERE c.contype = 'f' AND n.nspname = current_schema() AND t.oid <> r.oid`)
	if err != nil {
		return nil, nil, fmt.Errorf("load: read the foreign keys: %w", err)
	}
	deps := map[string][]string{}
	for rows.Next() {
		var t, r string
		if err := rows.Scan(&t, &r); err != nil {
			rows.Close()
			return nil, nil, fmt.Errorf("load: read the foreign keys: %w", err)
		}
		deps[t] = append(deps[t], r)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("load: read the foreign keys: %w", err)
	}
	names := make([]string, 0, len(schema))
	for t := range schema {
		names = append(names, t)
	}
	sort.Strings(names)
	var order []string
	state := map[string]int{} // 1: being visited, 2: placed
	var visit func(t string) error
	visit = func(t string) error {
		switch state[t] {
		case 1:
			return fmt.Errorf("load: the foreign keys of %s form a cycle: the schema cannot be loaded table by table", t)
		case 2:
			return nil
		}
		state[t] = 1
		ds := deps[t]
		sort.Strings(ds)
		for _, d := range ds {
			if err := visit(d); err != nil {
				return err
			}
		}
		state[t] = 2
		order = append(order, t)
		return nil
	}
	for _, t := range names {
		if err := visit(t); err != nil {
			return nil, nil, err
		}
	}
	return schema, order, nil
}

// checkEmpty refuses a database in which a table other than meta (and
// schema_version) holds a row, naming the tables that do.
func checkEmpty(ctx context.Context, tx pgx.Tx, tables []string) error {
	var full []string
	for _, t := range tables {
		if t == "meta" || t == "schema_version" {
			continue
		}
		var held bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM `+pgx.Identifier{t}.Sanitize()+`)`).Scan(&held); err != nil {
			return fmt.Errorf("load: check that %s is empty: %w", t, err)
		}
		if held {
			full = append(full, t)
		}
	}
	if len(full) > 0 {
		return fmt.Errorf("%w: %s hold rows; a knowledge base is copied into an empty database only, so that nothing is mixed or overwritten: create a new database (createdb) and copy into it", ErrNotEmpty, strings.Join(full, ", "))
	}
	return nil
}

// loader writes the tables of one Load.
type loader struct {
	tx       pgx.Tx
	opts     LoadOptions
	written  map[string]int64
	total    int64
	reported time.Time
	// postings are term_postings' rows, gathered from lesson_terms.
	postings [][]any
}

// table copies one table: the source's columns that this schema has,
// which must be all of the source's.
func (l *loader) table(ctx context.Context, src Source, table string, cols []column) error {
	srcCols, err := src.Columns(ctx, table)
	if err != nil {
		return fmt.Errorf("load %s: list the source's columns: %w", table, err)
	}
	var use []column
	var names []string
	for _, c := range cols {
		if slices.Contains(srcCols, c.name) {
			use = append(use, c)
			names = append(names, c.name)
		} else if !c.identity && !c.hasDefault {
			return fmt.Errorf("load %s: the source has no column %s, which has no default here: the source is of another schema; open it once with this build of innate-mcp, which migrates it", table, c.name)
		}
	}
	for _, c := range srcCols {
		if !slices.Contains(names, c) {
			return fmt.Errorf("load %s: the source's column %s has no counterpart in the PostgreSQL schema: its values would be lost; upgrade innate-mcp on the PostgreSQL side", table, c)
		}
	}
	seqAt, tfAt := -1, -1
	if table == "lesson_terms" {
		seqAt, tfAt = slices.Index(names, "seq"), slices.Index(names, "tf")
	}
	next, stop := iter.Pull2(src.Rows(ctx, table, names))
	defer stop()
	var n int64
	copied, err := l.tx.CopyFrom(ctx, pgx.Identifier{table}, names, pgx.CopyFromFunc(func() ([]any, error) {
		row, err, ok := next()
		if !ok {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		n++
		if len(row) != len(use) {
			return nil, fmt.Errorf("row %d: %d values for %d columns", n, len(row), len(use))
		}
		for i, v := range row {
			cv, err := convert(v, use[i].dataType)
			if err != nil {
				return nil, fmt.Errorf("row %d, column %s: %w", n, use[i].name, err)
			}
			row[i] = cv
		}
		if seqAt >= 0 && tfAt >= 0 {
			if err := l.gatherPostings(row[seqAt], row[tfAt]); err != nil {
				return nil, fmt.Errorf("row %d: %w", n, err)
			}
		}
		l.progress(1)
		return row, nil
	}))
	if err != nil {
		return fmt.Errorf("load %s: %w", table, err)
	}
	l.written[table] = copied
	return nil
}

// progress counts rows written and reports them now and then.
func (l *loader) progress(rows int64) {
	l.total += rows
	if l.opts.Progress != nil && time.Since(l.reported) > 100*time.Millisecond {
		l.reported = time.Now()
		l.opts.Progress(l.total)
	}
}

// gatherPostings keeps a lesson's postings, decoded from its term
// statistics, for term_postings.
func (l *loader) gatherPostings(seq, tf any) error {
	s, ok1 := seq.(int64)
	blob, ok2 := tf.([]byte)
	if !ok1 || !ok2 {
		return fmt.Errorf("lesson_terms: seq %T and tf %T, want a number and bytes", seq, tf)
	}
	return bm25.Each(blob, func(term []byte, f int) {
		l.postings = append(l.postings, []any{sanitize.RedactValue(string(term)), s, int64(f)})
	})
}

// postingsOut writes term_postings from the postings gathered.
func (l *loader) postingsOut(ctx context.Context) error {
	// Sorted by term then lesson, the primary key's order: the index is
	// built in order, and a duplicate (a corrupt source) fails plainly.
	sort.Slice(l.postings, func(i, j int) bool {
		a, b := l.postings[i], l.postings[j]
		if a[0].(string) != b[0].(string) {
			return a[0].(string) < b[0].(string)
		}
		return a[1].(int64) < b[1].(int64)
	})
	n, err := l.tx.CopyFrom(ctx, pgx.Identifier{"term_postings"}, []string{"term", "seq", "tf"}, pgx.CopyFromRows(l.postings))
	if err != nil {
		return fmt.Errorf("load term_postings (rebuilt from lesson_terms): %w", err)
	}
	l.written["term_postings"] = n
	l.progress(n)
	return nil
}

// setIdentities sets each identity column's sequence past the largest
// key copied, so that the next row gets a new one.
func setIdentities(ctx context.Context, tx pgx.Tx, schema map[string][]column) error {
	for t, cols := range schema {
		for _, c := range cols {
			if !c.identity {
				continue
			}
			q := `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(` + pgx.Identifier{c.name}.Sanitize() + `) FROM ` +
				pgx.Identifier{t}.Sanitize() + `), 0) + 1, false)`
			if _, err := tx.Exec(ctx, q, pgx.Identifier{t}.Sanitize(), c.name); err != nil {
				return fmt.Errorf("load: set the sequence of %s.%s: %w", t, c.name, err)
			}
		}
	}
	return nil
}

// convert converts a source value to what a column of PostgreSQL type
// dataType (information_schema's name) takes, redacting text.
func convert(v any, dataType string) (any, error) {
	if v == nil {
		return nil, nil
	}
	bad := func() (any, error) {
		// The value itself is not shown: it may be text that is not
		// meant for an error message.
		return nil, fmt.Errorf("a %T value does not fit PostgreSQL type %s: the source's schema differs from this one", v, dataType)
	}
	switch dataType {
	case "bigint", "integer", "smallint":
		switch x := v.(type) {
		case int64:
			return x, nil
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<62 {
				return int64(x), nil
			}
		case bool:
			if x {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case "double precision", "real", "numeric":
		switch x := v.(type) {
		case float64:
			return x, nil
		case int64:
			return float64(x), nil
		}
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			if x == 0 || x == 1 {
				return x == 1, nil
			}
		}
	case "text", "character varying":
		switch x := v.(type) {
		case string:
			return sanitize.RedactValue(x), nil
		case []byte:
			return sanitize.RedactValue(string(x)), nil
		}
	case "bytea":
		switch x := v.(type) {
		case []byte:
			return x, nil
		case string:
			return []byte(x), nil
		}
	}
	return bad()
}

// RowCounts returns how many rows each table of the schema holds (but
// schema_version, the migrations'), to verify a Load.
func (db *DB) RowCounts(ctx context.Context) (map[string]int64, error) {
	tx, err := db.pool.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly, IsoLevel: pgx.RepeatableRead})
	if err != nil {
		return nil, fmt.Errorf("count rows: begin: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	schema, _, err := schemaTables(ctx, tx)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for t := range schema {
		if t == "schema_version" {
			continue
		}
		var n int64
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM `+pgx.Identifier{t}.Sanitize()).Scan(&n); err != nil {
			return nil, fmt.Errorf("count rows of %s: %w", t, err)
		}
		out[t] = n
	}
	return out, nil
}
