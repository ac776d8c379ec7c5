package main

import (
	"context"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// The tests that fill a database before the program opens it, or inspect
// the file after it ran (integrity after kill -9), open the SQLite store
// here, beside store.go: the one place the program opens it.

// openStore opens the database at path with the default options; the
// caller closes it.
func openStore(tb testing.TB, path string) *storage.DB {
	tb.Helper()
	db, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

// pruneReport is what `innate-mcp prune` prints of what it deleted.
type pruneReport = kb.PruneReport
