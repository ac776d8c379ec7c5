package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
)

// LessonActivity implements kb.DashboardReader: the traces that returned
// a lesson and the evidence recorded about it, newest first.
func (db *DB) LessonActivity(ctx context.Context, lessonID string, limit int) ([]kb.Activity, error) {
	var out []kb.Activity
	if limit > 0 {
		rows, err := db.pool.Query(ctx, `SELECT happened, kind, trace_id, tool, rank, score, signal, reason, outcome FROM (
			SELECT t.created_at AS happened, 0 AS ord, 'returned' AS kind, tl.trace_id, t.tool, tl.rank, tl.score,
				'' AS signal, '' AS reason, coalesce(t.outcome, '') AS outcome
			FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id WHERE tl.lesson_id = $1
			UNION ALL
			SELECT e.updated_at, `+storerow.EvidenceOrder+`, e.kind, e.trace_id, t.tool, coalesce(tl.rank, 0),
				coalesce(tl.score, 0), e.signal, e.reason, coalesce(t.outcome, '')
			FROM evidence e JOIN traces t ON t.id = e.trace_id
			LEFT JOIN trace_lessons tl ON tl.trace_id = e.trace_id AND tl.lesson_id = e.lesson_id
			WHERE e.lesson_id = $1) a
		ORDER BY happened COLLATE "C" DESC, ord DESC, trace_id COLLATE "C" DESC LIMIT $2`, lessonID, limit)
		if err != nil {
			return nil, fmt.Errorf("read activity of lesson %s: %w", lessonID, err)
		}
		defer rows.Close()
		if out, err = storerow.Collect(rows, storerow.ActivityRow); err != nil {
			return nil, fmt.Errorf("read activity of lesson %s: %w", lessonID, err)
		}
	}
	if len(out) > 0 {
		return out, nil
	}
	// No activity: is there a lesson?
	var one int
	err := db.pool.QueryRow(ctx, `SELECT 1 FROM lessons WHERE id = $1`, lessonID).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, kb.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("read lesson %s: %w", lessonID, err)
	}
	return out, nil
}

// HeldDrafts implements kb.DashboardReader: the hesitate calls that held,
// hedged or flagged an action, newest first.
func (db *DB) HeldDrafts(ctx context.Context, pendingOnly bool, limit int) ([]kb.HeldDraft, error) {
	if limit <= 0 {
		return nil, nil
	}
	// A call that held, hedged or flagged an action was not confident (see
	// hesitation.Check); storerow.HeldDraft keeps those whose plan says so.
	rows, err := db.pool.Query(ctx, `SELECT h.trace_id, h.created_at, h.score, h.threshold, h.held, h.signals, h.plan,
			coalesce(h.review, ''), coalesce(substr(t.request, 1, $1), '')
		FROM hesitation_log h LEFT JOIN traces t ON t.id = h.trace_id
		WHERE (h.held OR NOT h.confident) AND (NOT $2 OR h.review IS NULL)
		ORDER BY h.created_at COLLATE "C" DESC, h.trace_id COLLATE "C" DESC`, storerow.RequestHead, pendingOnly)
	if err != nil {
		return nil, fmt.Errorf("read held drafts: %w", err)
	}
	defer rows.Close()
	out, err := storerow.HeldDrafts(rows, limit)
	if err != nil {
		return nil, fmt.Errorf("read held drafts: %w", err)
	}
	return out, nil
}

// HesitationScores implements kb.DashboardReader: the scores of the
// hesitate calls logged since a time, oldest first.
func (db *DB) HesitationScores(ctx context.Context, since time.Time) ([]float64, error) {
	rows, err := db.pool.Query(ctx, `SELECT score FROM hesitation_log WHERE created_at >= $1
		ORDER BY created_at COLLATE "C", trace_id COLLATE "C"`, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("read hesitation scores: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.ScoreRow)
	if err != nil {
		return nil, fmt.Errorf("read hesitation scores: %w", err)
	}
	return out, nil
}

// ModeSeries implements kb.DashboardReader: the routing decisions per UTC
// day (the first ten characters of a stored time) and mode.
func (db *DB) ModeSeries(ctx context.Context, since time.Time) ([]kb.DayCount, error) {
	rows, err := db.pool.Query(ctx, `SELECT substr(created_at, 1, 10) COLLATE "C" AS day, mode COLLATE "C" AS mode, count(*) FROM routing_log
		WHERE created_at >= $1 GROUP BY day, mode ORDER BY day, mode`, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("read routing modes per day: %w", err)
	}
	defer rows.Close()
	out, err := storerow.Collect(rows, storerow.DayCountRow)
	if err != nil {
		return nil, fmt.Errorf("read routing modes per day: %w", err)
	}
	return out, nil
}

// CalibrationSeries implements kb.DashboardReader: the calibration points
// of the verdict log per UTC day of the verdict.
func (db *DB) CalibrationSeries(ctx context.Context, since time.Time) ([]kb.DayPoints, error) {
	rows, err := db.pool.Query(ctx, `SELECT substr(v.created_at, 1, 10) AS day, v.strength, `+storerow.CalibrationHit+`
		FROM verdict_log v WHERE `+calibrationPoint+` AND v.created_at >= $1 ORDER BY substr(v.created_at, 1, 10) COLLATE "C", v.seq`, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("read calibration points per day: %w", err)
	}
	defer rows.Close()
	out, err := storerow.DayPoints(rows)
	if err != nil {
		return nil, fmt.Errorf("read calibration points per day: %w", err)
	}
	return out, nil
}
