package pgstore

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// recallEmpty is the SQL condition (over traces) of a recall trace whose
// response says it returned nothing: storage's json_extract(response,
// '$.empty') = 1, which holds for JSON true and for the number 1.
const recallEmpty = `(response::jsonb -> 'empty') IN ('true'::jsonb, '1'::jsonb)`

// RecallStats implements kb.StatsReader. With a zero since it covers every
// recall ever made, the pruned ones included (from their tallies); with
// another it covers the traces still held.
func (db *DB) RecallStats(ctx context.Context, since time.Time, top int) (kb.RecallStats, error) {
	var t kb.RecallTally
	err := db.pool.QueryRow(ctx, `SELECT count(*), count(*) FILTER (WHERE `+recallEmpty+`)
		FROM traces WHERE tool = 'recall' AND created_at >= $1`, fmtTime(since)).Scan(&t.Calls, &t.Empty)
	if err != nil {
		return kb.RecallStats{}, fmt.Errorf("read recall traces: %w", err)
	}
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
		WHERE t.tool = 'recall' AND t.created_at >= $1`, fmtTime(since)).Scan(&t.Selections); err != nil {
		return kb.RecallStats{}, fmt.Errorf("read recall selections: %w", err)
	}
	all := since.IsZero()
	if all {
		var pt kb.RecallTally
		if err := readTally(ctx, db.pool, kb.TallyRecall, &pt); err != nil {
			return kb.RecallStats{}, err
		}
		t.Merge(pt)
	}
	// Ties are broken by lesson id in byte order, as SQLite compares text.
	rows, err := db.pool.Query(ctx, `SELECT s.lesson_id, l.content, sum(s.n) AS n FROM (
			SELECT tl.lesson_id, count(*) AS n FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
			WHERE t.tool = 'recall' AND t.created_at >= $1 GROUP BY tl.lesson_id
			UNION ALL
			SELECT lesson_id, selections FROM pruned_selections WHERE $2
		) s JOIN lessons l ON l.id = s.lesson_id
		GROUP BY s.lesson_id, l.content ORDER BY n DESC, s.lesson_id COLLATE "C" LIMIT $3`, fmtTime(since), all, top)
	if err != nil {
		return kb.RecallStats{}, fmt.Errorf("read recall selections: %w", err)
	}
	defer rows.Close()
	usage, err := storerow.Collect(rows, storerow.Usage)
	if err != nil {
		return kb.RecallStats{}, fmt.Errorf("read recall selections: %w", err)
	}
	return t.Stats(usage), nil
}

// Contradictions implements kb.StatsReader: every contradicts link, oldest
// first, and whether one of its lessons is archived.
func (db *DB) Contradictions(ctx context.Context) ([]kb.Contradiction, error) {
	rows, err := db.pool.Query(ctx, `SELECT k.a, k.b, (la.state = 'archived' OR lb.state = 'archived')
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

// AppraiseStats implements kb.StatsReader. With a zero since it covers
// every verdict ever given, the pruned ones included (from their tally);
// with another it covers the verdicts still held.
func (db *DB) AppraiseStats(ctx context.Context, since time.Time) (kb.AppraiseStats, error) {
	var t kb.VerdictTally
	if since.IsZero() {
		if err := readTally(ctx, db.pool, kb.TallyVerdicts, &t); err != nil {
			return t.Stats(), err
		}
	}
	if err := storerow.AddVerdicts(selectWhere(ctx, db.pool, `created_at >= $1`, fmtTime(since)), &t); err != nil {
		return t.Stats(), err
	}
	return t.Stats(), nil
}

// ModeCounts implements kb.StatsReader. With a zero since it counts every
// decision ever made, the pruned ones included (from their tally); with
// another it counts the decisions still held.
func (db *DB) ModeCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	out := kb.RoutingTally{}
	if since.IsZero() {
		if err := readTally(ctx, db.pool, kb.TallyRouting, &out); err != nil {
			return nil, err
		}
	}
	if err := storerow.AddModes(selectWhere(ctx, db.pool, `created_at >= $1`, fmtTime(since)), out); err != nil {
		return nil, err
	}
	return out, nil
}

// HesitationStats implements kb.StatsReader. With a zero since it covers
// every hesitate call ever made, the pruned ones included (from their
// tally); with another it covers the calls still held.
func (db *DB) HesitationStats(ctx context.Context, since time.Time) (kb.HesitationStats, error) {
	t := kb.HesitationTally{Signals: map[string]int{}}
	if since.IsZero() {
		if err := readTally(ctx, db.pool, kb.TallyHesitation, &t); err != nil {
			return kb.HesitationStats{Signals: map[string]int{}}, err
		}
	}
	if err := storerow.AddHesitations(selectWhere(ctx, db.pool, `created_at >= $1`, fmtTime(since)), &t); err != nil {
		return kb.HesitationStats{Signals: map[string]int{}}, err
	}
	var patterns int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM error_patterns`).Scan(&patterns); err != nil {
		return t.Stats(0), fmt.Errorf("count error patterns: %w", err)
	}
	return t.Stats(patterns), nil
}
