package dashboard

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

func TestCensus_sharedStaleWhileReadingAndAfterActions(t *testing.T) {
	ctx := context.Background()
	var reads atomic.Int64
	var stored atomic.Int64 // lessons in the "store"
	stored.Store(2)
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	var clock atomic.Int64
	clock.Store(now.UnixNano())
	c := &census{now: func() time.Time { return time.Unix(0, clock.Load()) }, read: func(ctx context.Context, fn func(kb.Lesson) error) error {
		reads.Add(1)
		for i := range stored.Load() {
			if err := fn(kb.Lesson{ID: string(rune('a' + i))}); err != nil {
				return err
			}
		}
		return nil
	}}
	count := func() int {
		ls, _, err := c.snapshot(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return len(ls)
	}
	if n := count(); n != 2 || reads.Load() != 1 {
		t.Fatalf("first snapshot: %d lessons after %d reads", n, reads.Load())
	}
	// Within the age: shared, not read again, even after a write elsewhere.
	stored.Store(3)
	if n := count(); n != 2 || reads.Load() != 1 {
		t.Errorf("a fresh snapshot was read again (%d reads, %d lessons)", reads.Load(), n)
	}
	// After an action here: read again before the next page.
	c.invalidate()
	if n := count(); n != 3 || reads.Load() != 2 {
		t.Errorf("after an action: %d lessons after %d reads, want 3 after 2", n, reads.Load())
	}
	// Past the age: the old snapshot is served and a new one read behind it.
	stored.Store(4)
	clock.Add(int64(censusMaxAge + time.Second))
	if n := count(); n != 3 {
		t.Errorf("a stale snapshot: %d lessons, want the old 3 served at once", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for count() != 4 {
		if time.Now().After(deadline) {
			t.Fatal("the background read never replaced the stale snapshot")
		}
		time.Sleep(time.Millisecond)
	}
}
