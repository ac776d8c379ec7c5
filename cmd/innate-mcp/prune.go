package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/innate-mcp/innate-mcp/storage"
)

// runPrune prunes the traces beyond the retention (--retain-days,
// --retain-traces) now, as a server does every ten minutes, and reports
// what it deleted and the size of the database before and after.
func (m *Main) runPrune(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("prune", g, stderr, "[--retain-days N] [--retain-traces N]")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: prune takes no arguments", errUsage)
	}
	ret, err := m.retention(g)
	if err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), writeAccess)
	if err != nil {
		return err
	}
	defer a.close()
	before := dbBytes(a.db.Path())
	start := time.Now()
	rep, err := a.db.Prune(ctx, time.Now(), 0)
	if err != nil {
		return err
	}
	return writeJSON(stdout, struct {
		storage.PruneReport
		RetainDays   int     `json:"retain_days"`
		RetainTraces int     `json:"retain_traces"`
		BytesBefore  int64   `json:"bytes_before"`
		BytesAfter   int64   `json:"bytes_after"`
		Seconds      float64 `json:"seconds"`
	}{rep, int(ret.MaxAge.Hours() / 24), ret.MaxTraces, before, dbBytes(a.db.Path()), time.Since(start).Seconds()})
}

// dbBytes is the size of a database file and its WAL.
func dbBytes(path string) int64 {
	var n int64
	for _, p := range []string{path, path + "-wal"} {
		if st, err := os.Stat(p); err == nil {
			n += st.Size()
		}
	}
	return n
}
