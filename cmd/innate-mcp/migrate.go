package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"text/tabwriter"

	"github.com/innate-mcp/innate-mcp/pgstore"
	"github.com/innate-mcp/innate-mcp/storage"
)

// migrate.go copies a SQLite knowledge base into PostgreSQL: storage
// hands out its tables (storage.Dump, a read-only snapshot), pgstore
// writes them by its own schema (pgstore.DB.Load, one transaction), and
// this command wires the two, shows the progress and verifies the copy.
// It is the one file besides store.go that names the stores
// (ARCHITECTURE.md).

// runMigrate copies the SQLite knowledge base --from into the empty
// PostgreSQL database --to, then verifies that every table holds as many
// rows on both sides, printing them as a table; a difference is an error.
func (m *Main) runMigrate(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("migrate", g, stderr, "--from PATH.db --to postgres://USER:PASSWORD@HOST:5432/DATABASE")
	from := fs.String("from", "", "the SQLite knowledge base to copy (default: the one --db or INNATE_DB names, when it is a file, else the default database)")
	to := fs.String("to", "", "the PostgreSQL database to copy it into, empty (postgres:// or postgresql:// URL)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: migrate takes flags only, not %q", errUsage, fs.Arg(0))
	}
	if !isPostgres(*to) {
		return fmt.Errorf("%w: migrate needs --to, the PostgreSQL database to copy into: postgres://USER:PASSWORD@HOST:5432/DATABASE", errUsage)
	}
	src := *from
	if src == "" {
		db, err := m.dbPath(g)
		if err != nil {
			return err
		}
		if isPostgres(db) {
			return fmt.Errorf("%w: migrate needs --from, the SQLite knowledge base to copy (--db / INNATE_DB name a PostgreSQL database)", errUsage)
		}
		src = db
	}
	if isPostgres(src) {
		return fmt.Errorf("%w: --from is a PostgreSQL URL: migrate copies a SQLite knowledge base (a file) into PostgreSQL", errUsage)
	}
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("no SQLite knowledge base at %s to copy (--from): %w", src, err)
	}
	log, closeLog, err := m.logger(g, stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	sdb, _, err := openDB(ctx, src, readAccess, storage.Options{Logger: log})
	if err != nil {
		return fmt.Errorf("open the SQLite knowledge base %s (--from): %w", src, err)
	}
	defer sdb.Close()
	dump, err := sdb.Dump(ctx)
	if err != nil {
		return err
	}
	defer dump.Close()
	tables, err := dump.Tables(ctx)
	if err != nil {
		return err
	}
	counts := map[string]int64{}
	var total int64
	for _, t := range tables {
		if counts[t], err = dump.Count(ctx, t); err != nil {
			return err
		}
		total += counts[t]
	}
	pdb, err := openPostgresDB(ctx, *to, pgstore.Options{Logger: log})
	if err != nil {
		return err
	}
	defer pdb.Close()
	where := pgLocation(*to)
	p := newProgress(stderr, m.IsTerminal != nil && m.IsTerminal(stderr), "migrate", "rows", int(total))
	written, err := pdb.Load(ctx, dump, pgstore.LoadOptions{Progress: func(n int64) { p.report(int(min(n, total))) }})
	p.end()
	if err != nil {
		if errors.Is(err, pgstore.ErrNotEmpty) {
			return fmt.Errorf("migrate into %s: %w", where, err)
		}
		return fmt.Errorf("migrate %s into %s: nothing was copied: %w", src, where, err)
	}
	got, err := pdb.RowCounts(ctx)
	if err != nil {
		return fmt.Errorf("verify the copy in %s: %w", where, err)
	}
	// term_postings has no SQLite table: what it must hold is what Load
	// rebuilt from lesson_terms.
	counts["term_postings"] = written["term_postings"]
	return verifyCopy(stdout, src, where, counts, got)
}

// verifyCopy prints, per table, the rows of the source and of the copy,
// and fails when a table differs or is missing on one side.
func verifyCopy(w io.Writer, src, dst string, want, got map[string]int64) error {
	names := make([]string, 0, len(want))
	for t := range want {
		names = append(names, t)
	}
	for t := range got {
		if _, ok := want[t]; !ok {
			names = append(names, t)
		}
	}
	slices.Sort(names)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TABLE\tSQLITE\tPOSTGRESQL\tCHECK\t")
	var bad []string
	for _, t := range names {
		s, inSrc := want[t]
		d, inDst := got[t]
		mark := "ok"
		if !inSrc || !inDst || s != d {
			mark, bad = "DIFFERS", append(bad, t)
		}
		note := ""
		if t == "term_postings" {
			note = "rebuilt from lesson_terms"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", t, countCell(s, inSrc), countCell(d, inDst), mark, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(bad) > 0 {
		return fmt.Errorf("the copy of %s in %s differs in %d tables (%v): drop the PostgreSQL database, create it anew and migrate again; report it if it recurs", src, dst, len(bad), bad)
	}
	fmt.Fprintf(w, "copied %s into %s: every table verified\n", src, dst)
	return nil
}

// countCell is a row count, or "-" for a table that side lacks.
func countCell(n int64, ok bool) string {
	if !ok {
		return "-"
	}
	return fmt.Sprint(n)
}
