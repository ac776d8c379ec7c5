package dashboard

import (
	"context"
	"sync"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// census is a snapshot of every lesson as stored, read in one pass and
// shared by the pages that count or list lessons (the overview, with the
// health report's lesson section, and the lessons table): at 10k lessons a
// pass costs about 200 ms, which no page view should pay. A snapshot older
// than censusMaxAge is served while a new one is read in the background;
// one made stale by the dashboard's own action is read again before the
// next page, so a person sees the change they made. Pages show its time.
type census struct {
	read func(ctx context.Context, fn func(kb.Lesson) error) error
	now  func() time.Time

	mu      sync.Mutex
	lessons []kb.Lesson
	at      time.Time
	dirty   bool // an action changed lessons since the snapshot
	reading bool // a background read runs
}

// censusMaxAge is how old a snapshot may be before it is read again.
const censusMaxAge = 30 * time.Second

// snapshot returns the lessons as of the time it returns with. The slice
// is shared: callers must not modify it.
func (c *census) snapshot(ctx context.Context) ([]kb.Lesson, time.Time, error) {
	c.mu.Lock()
	have, stale := c.lessons != nil && !c.dirty, c.now().Sub(c.at) > censusMaxAge
	if have {
		ls, at := c.lessons, c.at
		if stale && !c.reading {
			c.reading = true
			go func() {
				// The page's context ends with its request: the refresh
				// runs on its own, bounded.
				bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
				defer cancel()
				c.refresh(bctx)
			}()
		}
		c.mu.Unlock()
		return ls, at, nil
	}
	c.mu.Unlock()
	if err := c.refresh(ctx); err != nil {
		return nil, time.Time{}, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.lessons, c.at, nil
}

// refresh reads every lesson into a new snapshot.
func (c *census) refresh(ctx context.Context) error {
	at := c.now()
	ls := []kb.Lesson{}
	err := c.read(ctx, func(l kb.Lesson) error {
		ls = append(ls, l)
		return nil
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reading = false
	if err != nil {
		return err
	}
	if !at.Before(c.at) {
		c.lessons, c.at, c.dirty = ls, at, false
	}
	return nil
}

// invalidate marks the snapshot stale after an action that changed
// lessons.
func (c *census) invalidate() {
	c.mu.Lock()
	c.dirty = true
	c.mu.Unlock()
}

// censusSource is the store with its Lessons served from a snapshot, for
// the health report (stats.Build), which reads every lesson.
type censusSource struct {
	kb.Admin
	lessons []kb.Lesson
}

// Lessons calls fn for every lesson of the snapshot that matches f.
func (s censusSource) Lessons(ctx context.Context, f kb.LessonFilter, fn func(kb.Lesson) error) error {
	for _, l := range s.lessons {
		if err := ctx.Err(); err != nil {
			return err
		}
		if f.Matches(l) {
			if err := fn(l); err != nil {
				return err
			}
		}
	}
	return nil
}
