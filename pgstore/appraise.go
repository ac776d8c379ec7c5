package pgstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/internal/storerow"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

// The verdict and routing logs, as storage keeps them (storage/appraise.go;
// the rules both follow are package storerow's).

// calibrationPoint is the SQL condition (over verdict_log v) of a verdict
// the calibration is fitted on (see storerow.CalibrationPoint); the partial
// index verdict_log_outcome covers it.
var calibrationPoint = storerow.CalibrationPoint(func(col string) string { return "NOT " + col })

// calibrationSeqs selects the seq of every calibration point, those of the
// verdict log and those archived by Prune, newest first.
var calibrationSeqs = `SELECT v.seq FROM verdict_log v WHERE ` + calibrationPoint + `
	UNION ALL SELECT seq FROM calibration_archive ORDER BY 1 DESC`

// AppraiseState implements kb.Store. SessionTraces is capped at
// storerow.MaxSessionTraces, as in storage.
func (db *DB) AppraiseState(ctx context.Context, session string, window int) (kb.AppraiseState, error) {
	var st kb.AppraiseState
	var next *string
	err := db.pool.QueryRow(ctx, `SELECT
		(SELECT count(*) FROM (SELECT 1 FROM traces WHERE session = $1 LIMIT $2) s),
		(SELECT next_state FROM routing_log WHERE session = $1 ORDER BY seq DESC LIMIT 1),
		(SELECT value::bigint FROM meta WHERE key = 'appraise_calibration_rev')`, session, storerow.MaxSessionTraces).
		Scan(&st.SessionTraces, &next, &st.CalibrationRev)
	if err != nil {
		return kb.AppraiseState{}, fmt.Errorf("read session state: %w", err)
	}
	if next != nil {
		st.Route = storerow.RouteState(*next)
	}
	if window <= 0 {
		return st, nil
	}
	// An appraisal that raised nothing has one row, with no lesson.
	rows, err := db.pool.Query(ctx, `SELECT v.trace_id, r.lesson_id
		FROM (SELECT seq, trace_id FROM verdict_log WHERE session = $1 ORDER BY seq DESC LIMIT $2) v
		LEFT JOIN raise_log r ON r.trace_id = v.trace_id AND r.raised
		ORDER BY v.seq DESC, r.lesson_id COLLATE "C"`, session, window)
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

// CalibrationPoints implements kb.Store: the newest
// storerow.MaxCalibrationPoints verdicts with an outcome, held in the
// verdict log or archived when their traces were pruned.
func (db *DB) CalibrationPoints(ctx context.Context) ([]appraise.Point, error) {
	rows, err := db.pool.Query(ctx, `SELECT v.seq, v.strength, `+storerow.CalibrationHit+` FROM verdict_log v WHERE `+calibrationPoint+`
		UNION ALL SELECT seq, strength, hit FROM calibration_archive ORDER BY 1 DESC LIMIT $1`, storerow.MaxCalibrationPoints)
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
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read calibration points: %w", err)
	}
	return out, nil
}

// InsertVerdict logs one verdict with its raised and skipped points.
func (t *Tx) InsertVerdict(ctx context.Context, v kb.VerdictRecord) error {
	contrib, err := storerow.Contributors(v.Contributors)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO verdict_log (trace_id, session, created_at, mode, has_candidate, support,
		valence, directional, strength, confidence, dispersion, tier, abstained, abstain_reason, evidence, agreement,
		resonating, top_resonance, contributors) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)`,
		v.TraceID, v.Session, fmtTime(v.CreatedAt), string(v.Mode), v.HasCandidate, v.Support,
		string(v.Valence), string(v.Directional), v.Strength, v.Confidence, v.Dispersion, string(v.Band),
		v.Abstained, string(v.AbstainReason), v.Evidence, v.Agreement, v.Resonating, v.TopResonance, contrib)
	if err != nil {
		return fmt.Errorf("insert verdict: %w", err)
	}
	for _, r := range v.Raises {
		if _, err := t.tx.Exec(ctx, `INSERT INTO raise_log (trace_id, lesson_id, relevance, novelty, confidence,
			damping, will, raised, reason) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, v.TraceID, r.LessonID, r.Relevance,
			r.Novelty, r.Confidence, r.Damping, r.Will, r.Raised, r.Reason); err != nil {
			return fmt.Errorf("insert raise: %w", err)
		}
	}
	return nil
}

// InsertRouting logs one routing decision; its weights are stored once
// per distinct set.
func (t *Tx) InsertRouting(ctx context.Context, r kb.RoutingRecord) error {
	d := r.Decision
	f, err := storerow.RoutingRow(r)
	if err != nil {
		return err
	}
	// The weights rarely change: look them up, insert only a new set.
	var wid int64
	err = t.tx.QueryRow(ctx, `SELECT id FROM routing_weights WHERE params = $1`, f.Weights).Scan(&wid)
	if errors.Is(err, pgx.ErrNoRows) {
		err = t.tx.QueryRow(ctx, `INSERT INTO routing_weights (params) VALUES ($1) RETURNING id`, f.Weights).Scan(&wid)
	}
	if err != nil {
		return fmt.Errorf("log routing weights: %w", err)
	}
	_, err = t.tx.Exec(ctx, `INSERT INTO routing_log (trace_id, session, created_at, mode, runner_up, confidence,
		margin, effective_margin, ambiguous, warmth, warmth_inputs, scores, signals, guards, weights_id, next_state, elapsed_ns)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
		r.TraceID, r.Session, fmtTime(r.CreatedAt), string(d.Mode), string(d.RunnerUp), d.Confidence, d.Margin,
		d.EffectiveMargin, d.Ambiguous, d.Warmth, f.WarmthInputs, f.Scores, f.Signals, f.Guards, wid, f.NextState, r.Elapsed.Nanoseconds())
	if err != nil {
		return fmt.Errorf("insert routing decision: %w", err)
	}
	return nil
}

// SetVerdictOutcome back-fills the outcome of the verdict of a trace (""
// keeps the one stored) and, when heeded is not nil, whether the agent
// heeded it (a heeded verdict is censored). When anything changed it moves
// the calibration revision AppraiseState reports. kb.ErrNotFound when no
// verdict has that trace id.
func (t *Tx) SetVerdictOutcome(ctx context.Context, traceID string, o kb.Outcome, heeded *bool, at time.Time) error {
	var prevOutcome *string
	var prevHeeded *bool
	err := t.tx.QueryRow(ctx, `SELECT outcome, heeded FROM verdict_log WHERE trace_id = $1`, traceID).Scan(&prevOutcome, &prevHeeded)
	if errors.Is(err, pgx.ErrNoRows) {
		return kb.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("read verdict %s: %w", traceID, err)
	}
	prev := ""
	if prevOutcome != nil {
		prev = *prevOutcome
	}
	outcome, h, censored, changed := storerow.Backfill(prev, prevHeeded, o, heeded)
	if !changed {
		return nil
	}
	if _, err := t.tx.Exec(ctx, `UPDATE verdict_log SET outcome = $1, outcome_at = $2, heeded = $3, censored = $4
		WHERE trace_id = $5`, nullOutcome(kb.Outcome(outcome)), fmtTime(at), h, censored, traceID); err != nil {
		return fmt.Errorf("back-fill verdict %s: %w", traceID, err)
	}
	if _, err := t.tx.Exec(ctx, `UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'appraise_calibration_rev'`); err != nil {
		return fmt.Errorf("bump calibration revision: %w", err)
	}
	return nil
}

// SetMisroute records misroute feedback on the routing decision of a
// trace; kb.ErrNotFound when there is none.
func (t *Tx) SetMisroute(ctx context.Context, traceID string, kind route.Misroute, at time.Time) error {
	tag, err := t.tx.Exec(ctx, `UPDATE routing_log SET misroute = $1, misroute_at = $2 WHERE trace_id = $3`,
		string(kind), fmtTime(at), traceID)
	if err != nil {
		return fmt.Errorf("record misroute: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return kb.ErrNotFound
	}
	return nil
}
