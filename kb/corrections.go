package kb

import (
	"context"
	"time"
)

// RecentCorrections returns the corrections the user made since a time in
// project or with no project, newest first, at most limit of them.
func (k *KB) RecentCorrections(ctx context.Context, project string, since time.Time, limit int) ([]Correction, error) {
	return k.store.Corrections(ctx, project, since, limit)
}
