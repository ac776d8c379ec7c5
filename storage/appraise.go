package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

// maxCalibrationPoints and maxSessionTraces are the stores' (see package
// storerow).
const (
	maxCalibrationPoints = storerow.MaxCalibrationPoints
	maxSessionTraces     = storerow.MaxSessionTraces
)

// AppraiseState implements kb.Store. SessionTraces is capped at
// maxSessionTraces.
func (db *DB) AppraiseState(ctx context.Context, session string, window int) (kb.AppraiseState, error) {
	var st kb.AppraiseState
	var next sql.NullString
	err := db.sql.QueryRowContext(ctx, `SELECT
		(SELECT COUNT(*) FROM (SELECT 1 FROM traces WHERE session = ?1 LIMIT ?2)),
		(SELECT next_state FROM routing_log WHERE session = ?1 ORDER BY seq DESC LIMIT 1),
		(SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'appraise_calibration_rev')`, session, maxSessionTraces).
		Scan(&st.SessionTraces, &next, &st.CalibrationRev)
	if err != nil {
		return kb.AppraiseState{}, fmt.Errorf("read session state: %w", err)
	}
	if next.Valid {
		st.Route = storerow.RouteState(next.String)
	}
	if window <= 0 {
		return st, nil
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT v.trace_id, r.lesson_id
		FROM (SELECT seq, trace_id FROM verdict_log WHERE session = ? ORDER BY seq DESC LIMIT ?) v
		LEFT JOIN raise_log r ON r.trace_id = v.trace_id AND r.raised = 1
		ORDER BY v.seq DESC, r.lesson_id`, session, window)
	if err != nil {
		return kb.AppraiseState{}, fmt.Errorf("read raise history: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var trace string
		var lesson *string
		if err := rows.Scan(&trace, &lesson); err != nil {
			return kb.AppraiseState{}, fmt.Errorf("read raise history: %w", err)
		}
		st.Recent = storerow.AddRaise(st.Recent, trace, lesson)
	}
	if err := rows.Err(); err != nil {
		return kb.AppraiseState{}, fmt.Errorf("read raise history: %w", err)
	}
	return st, nil
}

// calibrationPoint is the SQL condition (over verdict_log v) of a verdict
// the calibration is fitted on, and calibrationHit whether it hit (see
// package storerow). A flag is false when 0, as the partial index
// verdict_log_outcome says it.
var calibrationPoint = storerow.CalibrationPoint(func(col string) string { return col + " = 0" })

const calibrationHit = storerow.CalibrationHit

// calibrationSeqs selects the seq of every calibration point, those of the
// verdict log and those archived by Prune, newest first.
var calibrationSeqs = `SELECT v.seq FROM verdict_log v WHERE ` + calibrationPoint + `
	UNION ALL SELECT seq FROM calibration_archive ORDER BY 1 DESC`

// CalibrationPoints implements kb.Store: the newest
// maxCalibrationPoints verdicts with an outcome, held in the verdict log or
// archived when Prune deleted their traces.
func (db *DB) CalibrationPoints(ctx context.Context) ([]appraise.Point, error) {
	// A compound ORDER BY merges the two sides, each read in seq order,
	// and stops at the limit.
	rows, err := db.sql.QueryContext(ctx, `SELECT v.seq, v.strength, `+calibrationHit+` FROM verdict_log v WHERE `+calibrationPoint+`
		UNION ALL SELECT seq, strength, hit FROM calibration_archive ORDER BY 1 DESC LIMIT ?`, maxCalibrationPoints)
	if err != nil {
		return nil, fmt.Errorf("read calibration points: %w", err)
	}
	defer rows.Close()
	var out []appraise.Point
	for rows.Next() {
		var p appraise.Point
		var seq int64
		if err := rows.Scan(&seq, &p.Strength, &p.Hit); err != nil {
			return nil, fmt.Errorf("read calibration points: %w", err)
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

func (t *tx) InsertVerdict(ctx context.Context, v kb.VerdictRecord) error {
	contrib, err := storerow.Contributors(v.Contributors)
	if err != nil {
		return err
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO verdict_log (trace_id, session, created_at, mode, has_candidate, support,
		valence, directional, strength, confidence, dispersion, tier, abstained, abstain_reason, evidence, agreement,
		resonating, top_resonance, contributors) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		v.TraceID, v.Session, fmtTime(v.CreatedAt), string(v.Mode), v.HasCandidate, v.Support,
		string(v.Valence), string(v.Directional), v.Strength, v.Confidence, v.Dispersion, string(v.Band),
		v.Abstained, string(v.AbstainReason), v.Evidence, v.Agreement, v.Resonating, v.TopResonance, contrib)
	if err != nil {
		return fmt.Errorf("insert verdict: %w", err)
	}
	for _, r := range v.Raises {
		if _, err := t.tx.ExecContext(ctx, `INSERT INTO raise_log (trace_id, lesson_id, relevance, novelty, confidence,
			damping, will, raised, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, v.TraceID, r.LessonID, r.Relevance,
			r.Novelty, r.Confidence, r.Damping, r.Will, r.Raised, r.Reason); err != nil {
			return fmt.Errorf("insert raise: %w", err)
		}
	}
	return nil
}

func (t *tx) InsertRouting(ctx context.Context, r kb.RoutingRecord) error {
	d := r.Decision
	f, err := storerow.RoutingRow(r)
	if err != nil {
		return err
	}
	// The weights rarely change: look them up, insert only a new set.
	var wid int64
	err = t.tx.QueryRowContext(ctx, `SELECT id FROM routing_weights WHERE params = ?`, f.Weights).Scan(&wid)
	if errors.Is(err, sql.ErrNoRows) {
		err = t.tx.QueryRowContext(ctx, `INSERT INTO routing_weights (params) VALUES (?) RETURNING id`, f.Weights).Scan(&wid)
	}
	if err != nil {
		return fmt.Errorf("log routing weights: %w", err)
	}
	_, err = t.tx.ExecContext(ctx, `INSERT INTO routing_log (trace_id, session, created_at, mode, runner_up, confidence,
		margin, effective_margin, ambiguous, warmth, warmth_inputs, scores, signals, guards, weights_id, next_state, elapsed_ns)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.TraceID, r.Session, fmtTime(r.CreatedAt), string(d.Mode), string(d.RunnerUp), d.Confidence, d.Margin,
		d.EffectiveMargin, d.Ambiguous, d.Warmth, f.WarmthInputs, f.Scores, f.Signals, f.Guards, wid, f.NextState, r.Elapsed.Nanoseconds())
	if err != nil {
		return fmt.Errorf("insert routing decision: %w", err)
	}
	return nil
}

func (t *tx) SetVerdictOutcome(ctx context.Context, traceID string, o kb.Outcome, heeded *bool, at time.Time) error {
	var prevOutcome sql.NullString
	var prevHeeded sql.NullBool
	err := t.tx.QueryRowContext(ctx, `SELECT outcome, heeded FROM verdict_log WHERE trace_id = ?`, traceID).Scan(&prevOutcome, &prevHeeded)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("read verdict %s: %w", traceID, err)
	}
	var ph *bool
	if prevHeeded.Valid {
		ph = &prevHeeded.Bool
	}
	outcome, h, censored, changed := storerow.Backfill(prevOutcome.String, ph, o, heeded)
	if !changed {
		return nil
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE verdict_log SET outcome = ?, outcome_at = ?, heeded = ?, censored = ?
		WHERE trace_id = ?`, nullOutcome(kb.Outcome(outcome)), fmtTime(at), h, censored, traceID); err != nil {
		return fmt.Errorf("back-fill verdict %s: %w", traceID, err)
	}
	if _, err := t.tx.ExecContext(ctx, `UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'appraise_calibration_rev'`); err != nil {
		return fmt.Errorf("bump calibration revision: %w", err)
	}
	return nil
}

func (t *tx) SetMisroute(ctx context.Context, traceID string, kind route.Misroute, at time.Time) error {
	res, err := t.tx.ExecContext(ctx, `UPDATE routing_log SET misroute = ?, misroute_at = ? WHERE trace_id = ?`,
		string(kind), fmtTime(at), traceID)
	if err != nil {
		return fmt.Errorf("record misroute: %w", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("record misroute: %w", err)
	} else if n == 0 {
		return kb.ErrNotFound
	}
	return nil
}
