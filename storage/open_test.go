package storage

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
)

// TestOpen_concurrentOnNewDatabase: several openers of the same new file
// (as several server processes starting at once) all succeed.
func TestOpen_concurrentOnNewDatabase(t *testing.T) {
	for round := range 5 {
		path := filepath.Join(t.TempDir(), "new.db")
		var wg sync.WaitGroup
		errs := make(chan error, 6)
		for range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := Open(context.Background(), path, Options{})
				if err != nil {
					errs <- err
					return
				}
				errs <- db.Close()
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatalf("round %d: %v", round, err)
			}
		}
	}
}
