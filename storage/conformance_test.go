package storage

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/storetest"
	"github.com/innate-mcp/innate-mcp/kb"
)

// TestConformance runs the stores' shared conformance suite on SQLite.
func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) (kb.Admin, func() kb.Admin) {
		path := filepath.Join(t.TempDir(), "kb.db")
		open := func() kb.Admin {
			db, err := Open(context.Background(), path, Options{Retention: kb.DefaultRetention()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
		return open(), open
	})
}
