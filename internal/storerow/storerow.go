// Package storerow is what the knowledge-base stores (storage on SQLite,
// pgstore on PostgreSQL) compute in Go around their SQL: the stored form
// of kb's values (the JSON text of lessons, verdicts, routing decisions,
// hesitations, patterns and confidence history) and its reading, and the
// rules of the verdict log (which verdicts calibrate, what a back-fill
// changes), and the reading of the dashboard's rows (held drafts and their
// excerpt, series per day). Both stores use it, so that they keep the same bytes and
// behave alike; only their SQL differs.
package storerow

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

// MaxCalibrationPoints bounds the verdicts the calibration is fitted on:
// the most recent ones, so that it follows the knowledge base as it
// changes.
const MaxCalibrationPoints = 5000

// MaxSessionTraces caps the count of a session's traces AppraiseState
// reports: the router's warmth saturates long before, and counting stays
// cheap in long sessions.
const MaxSessionTraces = 100

// CalibrationPoint returns the SQL condition (over verdict_log v) of a
// verdict the calibration is fitted on: not abstained, not censored, with
// an affirm or caution valence and a success or failure outcome. isFalse
// is the dialect's test that a flag column is false (SQLite: "col = 0",
// which its partial index is written with; PostgreSQL: "NOT col").
func CalibrationPoint(isFalse func(col string) string) string {
	return `v.outcome IN ('success', 'failure') AND ` + isFalse("v.censored") + ` AND ` + isFalse("v.abstained") +
		` AND v.valence IN ('affirm', 'caution')`
}

// CalibrationHit is the SQL expression (over verdict_log v, valid in
// SQLite and PostgreSQL) of whether a calibration point hit: its valence
// matched its outcome.
const CalibrationHit = `((v.valence = 'affirm' AND v.outcome = 'success') OR (v.valence = 'caution' AND v.outcome = 'failure'))`

// Backfill is what a verdict's outcome and heeded flag become when
// SetVerdictOutcome back-fills o and heeded over the stored prevOutcome
// ("" for none) and prevHeeded (nil for none): o "" keeps the stored
// outcome, heeded nil the stored flag. A heeded verdict is censored (left
// out of calibration). Changed is false when nothing changes: the store
// then writes nothing and the calibration revision stays.
func Backfill(prevOutcome string, prevHeeded *bool, o kb.Outcome, heeded *bool) (outcome string, h *bool, censored, changed bool) {
	outcome, h = prevOutcome, prevHeeded
	if o != "" {
		outcome = string(o)
	}
	if heeded != nil {
		v := *heeded
		h = &v
	}
	same := outcome == prevOutcome && (h == nil) == (prevHeeded == nil) && (h == nil || *h == *prevHeeded)
	return outcome, h, h != nil && *h, !same
}

// RouteState reads the router state stored with a routing decision; nil
// when it does not decode or names no known mode (the session then starts
// afresh, as with no decision).
func RouteState(next string) *route.SessionState {
	var s route.SessionState
	if err := json.Unmarshal([]byte(next), &s); err != nil || (s.Mode != "" && !s.Mode.Valid()) {
		return nil
	}
	return &s
}

// AddRaise adds one row of a session's recent appraisals, read newest
// first with the lessons each raised (raised nil for an appraisal that
// raised none), to the list being built.
func AddRaise(recent []kb.RecentAppraisal, traceID string, raised *string) []kb.RecentAppraisal {
	if n := len(recent); n == 0 || recent[n-1].TraceID != traceID {
		recent = append(recent, kb.RecentAppraisal{TraceID: traceID})
	}
	if raised != nil {
		r := &recent[len(recent)-1]
		r.Raised = append(r.Raised, *raised)
	}
	return recent
}

// NonNil returns s, or an empty slice for nil, so that it encodes as [].
func NonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// encode is the JSON text of v.
func encode(v any) (string, error) {
	b, err := json.Marshal(v)
	return string(b), err
}

// Confidence is a confidence as stored: clamped to [0, 1].
func Confidence(c float64) float64 { return math.Max(0, math.Min(1, c)) }

// Strings is the stored form of a list of strings (tags, keywords): a
// JSON array, [] for none.
func Strings(s []string) (string, error) { return encode(NonNil(s)) }

// ConfState is the stored form of a lesson's confidence state.
func ConfState(s confidence.State) (string, error) { return encode(s) }

// Directive is the stored form of a directive: JSON, or "" for none.
func Directive(d *directive.Directive) (string, error) {
	if d == nil {
		return "", nil
	}
	s, err := encode(d)
	if err != nil {
		return "", fmt.Errorf("encode directive: %w", err)
	}
	return s, nil
}

// Contributors is the stored form of a verdict's contributors: a JSON
// array, [] for none.
func Contributors(cs []appraise.Contributor) (string, error) {
	if cs == nil {
		cs = []appraise.Contributor{}
	}
	s, err := encode(cs)
	if err != nil {
		return "", fmt.Errorf("encode contributors: %w", err)
	}
	return s, nil
}

// Routing is the stored form of a routing decision's structured fields,
// each JSON.
type Routing struct {
	WarmthInputs, Scores, Signals, Guards, NextState string
	// Weights is the parameter set, stored once in routing_weights and
	// referred to by id.
	Weights string
}

// RoutingRow encodes the structured fields of a routing record.
func RoutingRow(r kb.RoutingRecord) (Routing, error) {
	d := r.Decision
	var f [6]string
	for i, v := range []any{r.Warmth, d.Scores, d.Signals, NonNil(d.Guards), d.Next, r.Weights} {
		s, err := encode(v)
		if err != nil {
			return Routing{}, fmt.Errorf("encode routing decision: %w", err)
		}
		f[i] = s
	}
	return Routing{WarmthInputs: f[0], Scores: f[1], Signals: f[2], Guards: f[3], NextState: f[4], Weights: f[5]}, nil
}

// Hesitation is the stored form of a hesitate call's structured fields,
// each JSON.
type Hesitation struct {
	Signals, Actions, Plan, Patterns string
}

// HesitationRow encodes the structured fields of a hesitation log entry.
func HesitationRow(e kb.HesitationEntry) (Hesitation, error) {
	var f [4]string
	for i, v := range []any{e.Result.Signals, e.Actions, e.Result.Plan, NonNil(e.Result.MatchedPatterns)} {
		s, err := encode(v)
		if err != nil {
			return Hesitation{}, fmt.Errorf("encode hesitation log: %w", err)
		}
		f[i] = s
	}
	return Hesitation{Signals: f[0], Actions: f[1], Plan: f[2], Patterns: f[3]}, nil
}

// Scores is the stored form of a confidence change's scores before and
// after.
func Scores(ch confidence.Change) (before, after string, err error) {
	if before, err = encode(ch.Before); err != nil {
		return "", "", err
	}
	if after, err = encode(ch.After); err != nil {
		return "", "", err
	}
	return before, after, nil
}

// HistoryRow reads one stored confidence change (at as the store parsed
// it). Scores that do not decode read as zero.
func HistoryRow(at time.Time, kind, reason, before, after, lifecycleBefore, lifecycleAfter string, ignored bool) confidence.Change {
	ch := confidence.Change{At: at, Kind: confidence.Kind(kind), Reason: reason, Ignored: ignored}
	ch.LifecycleBefore, ch.LifecycleAfter = confidence.Lifecycle(lifecycleBefore), confidence.Lifecycle(lifecycleAfter)
	json.Unmarshal([]byte(before), &ch.Before)
	json.Unmarshal([]byte(after), &ch.After)
	return ch
}

// Keywords reads an error pattern's stored keywords.
func Keywords(patternID, s string) ([]string, error) {
	var kw []string
	if err := json.Unmarshal([]byte(s), &kw); err != nil {
		return nil, fmt.Errorf("error pattern %s: bad keywords: %w", patternID, err)
	}
	return kw, nil
}
