package pgstore

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/pgtest"
	"github.com/innate-mcp/innate-mcp/internal/storetest"
	"github.com/innate-mcp/innate-mcp/kb"
)

// TestConformance runs the stores' shared conformance suite (the same one
// storage runs) against PostgreSQL: one database per case.
func TestConformance(t *testing.T) {
	c := pgtest.Start(t)
	var n atomic.Int64
	storetest.Run(t, func(t *testing.T) (kb.Admin, func() kb.Admin) {
		dsn := c.NewDatabase(t, fmt.Sprintf("conf_%d", n.Add(1)))
		openOne := func() kb.Admin {
			db, err := Open(context.Background(), dsn, Options{Retention: kb.DefaultRetention()})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}
		return openOne(), openOne
	})
}
