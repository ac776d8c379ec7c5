package storerow

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// The dashboard's reads (kb.DashboardReader): what both stores compute
// around their SQL.

// EvidenceOrder is the SQL expression (over evidence e, valid in SQLite
// and PostgreSQL) that orders a lesson's activities of one time and trace:
// the evidence after the return it follows (which is 0), used before its
// outcome credit before feedback; kb.DashboardReader.LessonActivity sorts
// by it, descending, after the time.
const EvidenceOrder = `CASE e.kind WHEN 'used' THEN 1 WHEN 'outcome' THEN 2 ELSE 3 END`

// RequestHead is how many characters of a hesitate trace's request a
// store reads for HeldDraft's excerpt: the request's JSON starts with the
// draft (kb.HesitateRequest), and this many characters hold more of it
// than the excerpt shows, whatever its escapes.
const RequestHead = 4096

// ExcerptBytes bounds a held draft's excerpt.
const ExcerptBytes = 200

// HeldDraft reads one hesitation_log row (at as the store parsed it;
// review "" when not reviewed; requestHead the first RequestHead
// characters of its trace's request) as a held draft. ok is false when the
// call neither held nor hedged nor flagged any action: it is not one. A
// signal list or a plan that does not decode reads as empty.
func HeldDraft(traceID string, at time.Time, score, threshold int, held bool, signals, plan, review, requestHead string) (d kb.HeldDraft, ok bool) {
	d = kb.HeldDraft{TraceID: traceID, At: at, Score: float64(score), Threshold: threshold, Review: review,
		Signals: []string{}, Actions: []string{}, Behaviours: []string{}}
	var steps []hesitation.Step
	_ = json.Unmarshal([]byte(plan), &steps) // a plan that does not decode holds no step
	ok = held
	for _, s := range steps {
		d.Actions = append(d.Actions, string(s.Action))
		d.Behaviours = append(d.Behaviours, string(s.Behaviour))
		ok = ok || s.Behaviour != hesitation.Proceed
	}
	if !ok {
		return kb.HeldDraft{}, false
	}
	var sigs []hesitation.Signal
	_ = json.Unmarshal([]byte(signals), &sigs) // signals that do not decode are none, as kb.HesitationTally counts them
	for _, s := range sigs {
		if t := string(s.Type); !slices.Contains(d.Signals, t) {
			d.Signals = append(d.Signals, t)
		}
	}
	d.Excerpt = DraftExcerpt(requestHead)
	return d, true
}

// DraftExcerpt returns the start of the draft of a hesitate trace's
// request, on one line and at most ExcerptBytes (clip.Line), from the
// first characters of the request's JSON: "" when they do not start with
// the draft, "…" marking a draft cut here or by the head's end.
func DraftExcerpt(requestHead string) string {
	const open = `{"draft":"`
	if !strings.HasPrefix(requestHead, open) {
		return ""
	}
	// Find the end of the draft's JSON string, or of the last whole
	// character or escape before the head ends.
	i, end, closed := len(open), len(open), false
scan:
	for i < len(requestHead) {
		switch requestHead[i] {
		case '"':
			closed = true
			break scan
		case '\\':
			n := 2
			if i+1 < len(requestHead) && requestHead[i+1] == 'u' {
				n = 6
			}
			if i+n > len(requestHead) {
				break scan
			}
			i += n
		default:
			i++
		}
		end = i
	}
	var draft string
	if err := json.Unmarshal([]byte(requestHead[len(open)-1:end]+`"`), &draft); err != nil {
		return ""
	}
	excerpt := clip.Line(draft, ExcerptBytes)
	if !closed && !strings.HasSuffix(excerpt, "…") {
		excerpt += "…"
	}
	return excerpt
}

// AddDayPoint adds one calibration point of a day to a series being built
// from points read in day order.
func AddDayPoint(series []kb.DayPoints, day string, p appraise.Point) []kb.DayPoints {
	if n := len(series); n == 0 || series[n-1].Day != day {
		series = append(series, kb.DayPoints{Day: day})
	}
	last := &series[len(series)-1]
	last.Points = append(last.Points, p)
	return series
}

// ActivityRow decodes one row of a lesson's activity: its time, kind,
// trace, tool, rank, score, signal, reason and the trace's outcome, the
// columns both stores' LessonActivity select.
func ActivityRow(scan Scan) (kb.Activity, error) {
	var a kb.Activity
	var at, outcome string
	if err := scan(&at, &a.Kind, &a.TraceID, &a.Tool, &a.Rank, &a.Score, &a.Signal, &a.Reason, &outcome); err != nil {
		return kb.Activity{}, err
	}
	a.At, a.Outcome = ParseTime(at), kb.Outcome(outcome)
	return a, nil
}

// HeldDrafts reads the rows of the hesitation log both stores' HeldDrafts
// select (trace id, time, score, threshold, held, signals, plan, review,
// the head of the call's request), newest first, and keeps at most limit
// of the calls that held or hedged something (see HeldDraft).
func HeldDrafts(rows Rows, limit int) ([]kb.HeldDraft, error) {
	var out []kb.HeldDraft
	for len(out) < limit && rows.Next() {
		var id, created, signals, plan, review, head string
		var score, threshold int
		var held bool
		if err := rows.Scan(&id, &created, &score, &threshold, &held, &signals, &plan, &review, &head); err != nil {
			return nil, err
		}
		if d, ok := HeldDraft(id, ParseTime(created), score, threshold, held, signals, plan, review, head); ok {
			out = append(out, d)
		}
	}
	return out, rows.Err()
}

// ScoreRow decodes a hesitation score (stored as a whole number).
func ScoreRow(scan Scan) (float64, error) {
	var score int
	err := scan(&score)
	return float64(score), err
}

// DayCountRow decodes a day, a mode and a count.
func DayCountRow(scan Scan) (kb.DayCount, error) {
	var c kb.DayCount
	err := scan(&c.Day, &c.Mode, &c.Count)
	return c, err
}

// DayPoints reads rows of a day, a strength and a hit, ordered by day,
// into the calibration points of each day (see AddDayPoint).
func DayPoints(rows Rows) ([]kb.DayPoints, error) {
	var out []kb.DayPoints
	for rows.Next() {
		var day string
		var p appraise.Point
		if err := rows.Scan(&day, &p.Strength, &p.Hit); err != nil {
			return nil, err
		}
		out = AddDayPoint(out, day, p)
	}
	return out, rows.Err()
}
