package kb

import (
	"context"
	"fmt"
)

// Reembed computes every lesson's vectors again with the KB's embedder and
// records the embedder in the database: the fix for ErrEmbedderMismatch.
// Lessons are processed in batches; progress, when not nil, receives the
// number done.
func (k *KB) Reembed(ctx context.Context, progress func(done int)) (int, error) {
	var all []Lesson
	if err := k.store.Lessons(ctx, LessonFilter{}, func(l Lesson) error { all = append(all, l); return nil }); err != nil {
		return 0, err
	}
	for start := 0; start < len(all); start += addBatch {
		batch := all[start:min(start+addBatch, len(all))]
		nls := make([]*NewLesson, len(batch))
		for i, l := range batch {
			nls[i] = &NewLesson{Content: l.Content, Trigger: l.Trigger}
		}
		if err := k.embedLessons(ctx, nls); err != nil {
			return start, err
		}
		for i, l := range batch {
			if err := k.store.SetVectors(ctx, l.ID, nls[i].ContentVec, nls[i].TriggerVec); err != nil {
				return start, fmt.Errorf("reembed %s: %w", l.ID, err)
			}
		}
		if progress != nil {
			progress(start + len(batch))
		}
	}
	if err := k.store.SetEmbedderInfo(ctx, k.emb.Name(), k.emb.Dim()); err != nil {
		return len(all), err
	}
	k.checkMu.Lock()
	k.checked = true
	k.checkMu.Unlock()
	return len(all), nil
}
