package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// Usage is the share of recall selections one lesson takes.
type Usage struct {
	LessonID string  `json:"lesson_id"`
	Content  string  `json:"content"`
	Count    int     `json:"count"`
	Share    float64 `json:"share"`
}

// RecallStats summarises the recall traces.
type RecallStats struct {
	Calls      int     `json:"calls"`
	Empty      int     `json:"empty"`
	EmptyRate  float64 `json:"empty_rate"`
	Selections int     `json:"selections"` // lessons returned, all calls together
	Top        []Usage `json:"top"`        // lessons with the largest share of selections
}

// RecallStats reads the recall traces since a time (zero: all).
func (db *DB) RecallStats(ctx context.Context, since time.Time, top int) (RecallStats, error) {
	var st RecallStats
	err := db.sql.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(json_extract(response, '$.empty') = 1), 0)
		FROM traces WHERE tool = 'recall' AND created_at >= ?`, fmtTime(since)).Scan(&st.Calls, &st.Empty)
	if err != nil {
		return st, fmt.Errorf("read recall traces: %w", err)
	}
	if st.Calls > 0 {
		st.EmptyRate = float64(st.Empty) / float64(st.Calls)
	}
	if err := db.sql.QueryRowContext(ctx, `SELECT count(*) FROM trace_lessons tl JOIN traces t ON t.id = tl.trace_id
		WHERE t.tool = 'recall' AND t.created_at >= ?`, fmtTime(since)).Scan(&st.Selections); err != nil {
		return st, fmt.Errorf("read recall selections: %w", err)
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT tl.lesson_id, l.content, count(*) AS n FROM trace_lessons tl
		JOIN traces t ON t.id = tl.trace_id JOIN lessons l ON l.id = tl.lesson_id
		WHERE t.tool = 'recall' AND t.created_at >= ? GROUP BY tl.lesson_id ORDER BY n DESC, tl.lesson_id LIMIT ?`, fmtTime(since), top)
	if err != nil {
		return st, fmt.Errorf("read recall selections: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var u Usage
		if err := rows.Scan(&u.LessonID, &u.Content, &u.Count); err != nil {
			return st, fmt.Errorf("read recall selections: %w", err)
		}
		if len(u.Content) > 80 {
			u.Content = u.Content[:80] + "…"
		}
		if st.Selections > 0 {
			u.Share = float64(u.Count) / float64(st.Selections)
		}
		st.Top = append(st.Top, u)
	}
	return st, rows.Err()
}

// Contradiction is a pair of lessons that say opposite things.
type Contradiction struct {
	A, B     string
	Resolved bool // one of them is archived
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
	var out []Contradiction
	for rows.Next() {
		var c Contradiction
		if err := rows.Scan(&c.A, &c.B, &c.Resolved); err != nil {
			return nil, fmt.Errorf("read contradictions: %w", err)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// AllLessons returns every lesson (any state), in id order.
func (db *DB) AllLessons(ctx context.Context) ([]kb.Lesson, error) {
	var out []kb.Lesson
	err := db.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error { out = append(out, l); return nil })
	return out, err
}
