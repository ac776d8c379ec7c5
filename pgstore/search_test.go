package pgstore

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/pgtest"
	"github.com/innate-mcp/innate-mcp/kb"
)

// TestChangeFeed: an instance's vector index follows the other instances'
// writes through LISTEN/NOTIFY, before any search of its own asks; and a
// search catches up from the revision when a notification was missed.
func TestChangeFeed(t *testing.T) {
	c := pgtest.Start(t)
	dsn := c.NewDatabase(t, "feed")
	a, b := open(t, dsn), open(t, dsn)
	ctx := context.Background()
	if err := b.WarmUp(ctx); err != nil {
		t.Fatal(err)
	}
	before := b.index.Revision()
	insert(t, a, newLesson("Close HTTP response bodies.", ""))
	rev, err := vectorSource{a}.Revision(ctx)
	if err != nil || rev <= before {
		t.Fatalf("revision %d after an insert (was %d): %v", rev, before, err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for b.index.Revision() < rev {
		if time.Now().After(deadline) {
			t.Fatalf("instance B's index stayed at revision %d, the database is at %d: the change feed did not refresh it", b.index.Revision(), rev)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// A notification missed: B's feed is stopped, A writes; B's next
	// search still sees the lesson, from the stored revision.
	b.stopListen()
	<-b.listenDone
	b.stopListen, b.listenDone = func() {}, closedChan()
	l := insert(t, a, newLesson("Wrap errors with %w.", ""))
	cands, err := b.Search(ctx, kb.Probe{Vector: newLesson("Wrap errors with %w.", "").ContentVec, Pool: 10})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cands {
		found = found || c.Lesson.ID == l.ID
	}
	if !found {
		t.Errorf("B's search after a missed notification does not find lesson %s: %v", l.ID, fmt.Sprint(cands))
	}
}

// closedChan returns a closed channel.
func closedChan() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}
