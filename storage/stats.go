package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// The statistics types are kb's (kb.StatsReader); these names keep the
// package's own spelling of them.
type (
	Usage         = kb.Usage
	RecallStats   = kb.RecallStats
	AppraiseStats = kb.AppraiseStats
	Contradiction = kb.Contradiction
)

// RecallStats reads the recall traces since a time. With a zero since it
// covers every recall ever made, the pruned ones included (from their
// tallies); with another it covers the traces still held.
func (db *DB) RecallStats(ctx context.Context, since time.Time, top int) (RecallStats, error) {
	var t kb.RecallTally
	err := db.sql.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(json_extract(response, '$.empty') = 1), 0)
		FROM traces WHERE tool = 'recall' AND created_at >= ?`, fmtTime(since)).Scan(&t.Calls, &t.Empty)
	if err != nil {
		return RecallStats{}, fmt.Errorf("read recall traces: %w", err)
	}
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
		WHERE t.tool = 'recall' AND t.created_at >= ?`, fmtTime(since)).Scan(&t.Selections); err != nil {
		return RecallStats{}, fmt.Errorf("read recall selections: %w", err)
	}
	all := since.IsZero()
	if all {
		var pt kb.RecallTally
		if err := readTally(ctx, db.sql, kb.TallyRecall, &pt); err != nil {
			return RecallStats{}, err
		}
		t.Merge(pt)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT s.lesson_id, l.content, sum(s.n) AS n FROM (
			SELECT tl.lesson_id, count(*) AS n FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
			WHERE t.tool = 'recall' AND t.created_at >= ?1 GROUP BY tl.lesson_id
			UNION ALL
			SELECT lesson_id, selections FROM pruned_selections WHERE ?2
		) s JOIN lessons l ON l.id = s.lesson_id
		GROUP BY s.lesson_id ORDER BY n DESC, s.lesson_id LIMIT ?3`, fmtTime(since), all, top)
	if err != nil {
		return RecallStats{}, fmt.Errorf("read recall selections: %w", err)
	}
	defer rows.Close()
	usage, err := storerow.Collect(rows, storerow.Usage)
	if err != nil {
		return RecallStats{}, fmt.Errorf("read recall selections: %w", err)
	}
	return t.Stats(usage), nil
}

// Contradictions lists every contradicts link and whether it is resolved.
func (db *DB) Contradictions(ctx context.Context) ([]Contradiction, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT k.a, k.b, (la.state = 'archived' OR lb.state = 'archived')
		FROM lesson_links k JOIN lessons la ON la.id = k.a JOIN lessons lb ON lb.id = k.b
		WHERE k.kind = 'contradicts' ORDER BY k.created_at`)
	if err != nil {
		return nil, fmt.Errorf("read contradictions: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.Contradiction)
	if err != nil {
		return nil, fmt.Errorf("read contradictions: %w", err)
	}
	return out, nil
}

// AllLessons returns every lesson (any state), in the order they were
// stored.
func (db *DB) AllLessons(ctx context.Context) ([]kb.Lesson, error) {
	var out []kb.Lesson
	err := db.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error { out = append(out, l); return nil })
	return out, err
}

// AppraiseStats reads the verdict log since a time. With a zero since it
// covers every verdict ever given, the pruned ones included (from their
// tally); with another it covers the verdicts still held.
func (db *DB) AppraiseStats(ctx context.Context, since time.Time) (AppraiseStats, error) {
	var t kb.VerdictTally
	if since.IsZero() {
		if err := readTally(ctx, db.sql, kb.TallyVerdicts, &t); err != nil {
			return t.Stats(), err
		}
	}
	if err := storerow.AddVerdicts(selectWhere(ctx, db.sql, `created_at >= ?`, fmtTime(since)), &t); err != nil {
		return t.Stats(), err
	}
	return t.Stats(), nil
}

// ModeCounts counts routing decisions per mode since a time. With a zero
// since it counts every decision ever made, the pruned ones included (from
// their tally); with another it counts the decisions still held.
func (db *DB) ModeCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	out := kb.RoutingTally{}
	if since.IsZero() {
		if err := readTally(ctx, db.sql, kb.TallyRouting, &out); err != nil {
			return nil, err
		}
	}
	if err := storerow.AddModes(selectWhere(ctx, db.sql, `created_at >= ?`, fmtTime(since)), out); err != nil {
		return nil, err
	}
	return out, nil
}
