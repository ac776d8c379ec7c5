package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/clip"

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
		u.Content = clip.Line(u.Content, 80)
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

// AppraiseStats summarises the verdict log.
type AppraiseStats struct {
	Verdicts    int     `json:"verdicts"`
	Abstained   int     `json:"abstained"`
	AbstainRate float64 `json:"abstain_rate"`
	// KnownAbstentions have an uncensored outcome; Justified ones would
	// have missed had the verdict spoken (its directional call was wrong).
	KnownAbstentions    int     `json:"known_abstentions"`
	Justified           int     `json:"justified"`
	AbstentionPrecision float64 `json:"abstention_precision"` // -1 without data
	// Calibrated are directional verdicts with an uncensored outcome; ECE
	// and Brier compare their confidence with whether they hit.
	Calibrated int     `json:"calibrated"`
	ECE        float64 `json:"ece"`   // -1 without data
	Brier      float64 `json:"brier"` // -1 without data
}

// AppraiseStats reads the verdict log since a time (zero: all).
func (db *DB) AppraiseStats(ctx context.Context, since time.Time) (AppraiseStats, error) {
	st := AppraiseStats{AbstentionPrecision: -1, ECE: -1, Brier: -1}
	rows, err := db.sql.QueryContext(ctx, `SELECT abstained, directional, valence, confidence, coalesce(outcome, ''), censored
		FROM verdict_log WHERE created_at >= ?`, fmtTime(since))
	if err != nil {
		return st, fmt.Errorf("read verdict log: %w", err)
	}
	defer rows.Close()
	const bins = 10
	var binN [bins]int
	var binConf, binHit [bins]float64
	var brier float64
	for rows.Next() {
		var abstained, censored bool
		var directional, valence, outcome string
		var conf float64
		if err := rows.Scan(&abstained, &directional, &valence, &conf, &outcome, &censored); err != nil {
			return st, fmt.Errorf("read verdict log: %w", err)
		}
		st.Verdicts++
		known := !censored && (outcome == "success" || outcome == "failure")
		hit := func(v string) bool {
			return (v == "affirm" && outcome == "success") || (v == "caution" && outcome == "failure")
		}
		if abstained {
			st.Abstained++
			if known {
				st.KnownAbstentions++
				if !hit(directional) {
					st.Justified++
				}
			}
			continue
		}
		if !known || (valence != "affirm" && valence != "caution") {
			continue
		}
		h := 0.0
		if hit(valence) {
			h = 1
		}
		b := min(int(conf*bins), bins-1)
		binN[b]++
		binConf[b] += conf
		binHit[b] += h
		brier += (conf - h) * (conf - h)
		st.Calibrated++
	}
	if err := rows.Err(); err != nil {
		return st, err
	}
	if st.Verdicts > 0 {
		st.AbstainRate = float64(st.Abstained) / float64(st.Verdicts)
	}
	if st.KnownAbstentions > 0 {
		st.AbstentionPrecision = float64(st.Justified) / float64(st.KnownAbstentions)
	}
	if st.Calibrated > 0 {
		st.Brier = brier / float64(st.Calibrated)
		st.ECE = 0
		for i := range bins {
			if binN[i] > 0 {
				gap := binConf[i]/float64(binN[i]) - binHit[i]/float64(binN[i])
				if gap < 0 {
					gap = -gap
				}
				st.ECE += float64(binN[i]) / float64(st.Calibrated) * gap
			}
		}
	}
	return st, nil
}

// ModeCounts counts routing decisions per mode since a time.
func (db *DB) ModeCounts(ctx context.Context, since time.Time) (map[string]int, error) {
	rows, err := db.sql.QueryContext(ctx, `SELECT mode, count(*) FROM routing_log WHERE created_at >= ? GROUP BY mode`, fmtTime(since))
	if err != nil {
		return nil, fmt.Errorf("read routing log: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var mode string
		var n int
		if err := rows.Scan(&mode, &n); err != nil {
			return nil, fmt.Errorf("read routing log: %w", err)
		}
		out[mode] = n
	}
	return out, rows.Err()
}
