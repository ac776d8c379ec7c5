package kb_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/answerfree"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

func (e *env) appraise(tb testing.TB, req kb.AppraiseRequest) kb.AppraiseResult {
	tb.Helper()
	res, err := e.kb.Appraise(context.Background(), req)
	if err != nil {
		tb.Fatalf("appraise %q: %v", req.Query, err)
	}
	return res
}

func withOrigin(o kb.Origin, ls ...kb.NewLesson) []kb.NewLesson {
	out := make([]kb.NewLesson, len(ls))
	for i, l := range ls {
		l.Origin = o
		out[i] = l
	}
	return out
}

const nilMapQuery = "panic: assignment to entry in nil map when writing to a map"

// TestAppraise_sparseEvidence: a fresh knowledge base of rules the user
// wrote gives footing at once; the same rules as unconfirmed agent guesses
// do not.
func TestAppraise_sparseEvidence(t *testing.T) {
	user := newEnv(t)
	user.add(t, withOrigin(kb.OriginUserStated, baseLessons...)...)
	v := user.appraise(t, kb.AppraiseRequest{Query: nilMapQuery})
	if v.Abstained || v.Valence != appraise.Affirm || len(v.Contributors) == 0 || v.Contributors[0].LessonID != "nil-map" {
		t.Fatalf("user rules: %+v, want an affirming verdict on nil-map", v.Verdict)
	}

	agent := newEnv(t)
	agent.add(t, withOrigin(kb.OriginAgentInferred, baseLessons...)...)
	v = agent.appraise(t, kb.AppraiseRequest{Query: nilMapQuery})
	if !v.Abstained || v.AbstainReason != appraise.SparseEvidence {
		t.Fatalf("agent guesses: abstained=%v reason=%q, want sparse_evidence", v.Abstained, v.AbstainReason)
	}
	if v.Confidence != 0 || len(v.FlaggedPoints) != 0 || len(v.Contributors) == 0 {
		t.Fatalf("abstention must keep contributors and have no confidence or flags: %+v", v.Verdict)
	}
}

func TestAppraise_weakResonance(t *testing.T) {
	e := newEnv(t)
	e.add(t, withOrigin(kb.OriginUserStated, baseLessons...)...)
	v := e.appraise(t, kb.AppraiseRequest{Query: "bake a chocolate cake with vanilla frosting"})
	if !v.Abstained || v.AbstainReason != appraise.WeakResonance || v.Strength != 0 {
		t.Fatalf("unrelated situation: %+v, want a weak_resonance abstention", v.Verdict)
	}
}

// TestAppraise_candidateFootingAndNoEcho: a candidate the lessons back gets
// more footing than one they do not, and the candidate never comes back.
func TestAppraise_candidateFootingAndNoEcho(t *testing.T) {
	e := newEnv(t)
	e.add(t, withOrigin(kb.OriginUserStated, baseLessons...)...)
	backed := e.appraise(t, kb.AppraiseRequest{Query: "how do I avoid a panic when writing to a Go map",
		Candidate: "Initialise the map with make before writing to it"})
	other := e.appraise(t, kb.AppraiseRequest{Query: "how do I avoid a panic when writing to a Go map",
		Candidate: "Wrap the assignment in a recover block and restart the goroutine supervisor"})
	if backed.Abstained || !(backed.Strength > other.Strength) {
		t.Fatalf("backed %+v vs unbacked %+v: want more footing for the backed candidate", backed.Verdict, other.Verdict)
	}
	b, _ := json.Marshal(other)
	if strings.Contains(string(b), "recover block") {
		t.Fatalf("result echoes the candidate: %s", b)
	}
}

// TestAppraiseResult_answerFree walks the whole appraise result, route
// included: no field or key is named like an answer, and a flagged summary
// built from a lesson that quotes the candidate does not contain it.
func TestAppraiseResult_answerFree(t *testing.T) {
	answerfree.CheckType(t, reflect.TypeFor[kb.AppraiseResult]())
	e := newEnv(t)
	candidate := "use fmt.Errorf with %w to wrap the error"
	e.add(t, kb.NewLesson{ID: "wrap", Origin: kb.OriginUserStated, Kind: kb.KindCaution,
		Content: "Wrapping with %w needs Go 1.13; older toolchains print it literally.",
		Trigger: "when you use fmt.Errorf with %w to wrap the error"})
	res := e.appraise(t, kb.AppraiseRequest{Query: "wrap the error returned by os.Open", Candidate: candidate, Mode: "brainstorm"})
	if len(res.FlaggedPoints) == 0 {
		t.Fatalf("setup: no flagged point: %+v", res.Verdict)
	}
	for _, p := range res.FlaggedPoints {
		if strings.Contains(strings.ToLower(p.Summary), candidate) {
			t.Fatalf("summary %q contains the candidate", p.Summary)
		}
	}
	b := answerfree.CheckJSON(t, res)
	if res.Advisory != appraise.Advisory || res.TraceID == "" || res.Route.Mode == "" || len(res.Route.Scores) != 5 {
		t.Fatalf("advisory, trace or route missing: %s", b)
	}
}

// TestAppraise_handRaiseSession: within one session a caution is raised,
// then rests; another session raises it afresh; quiet mode stays quiet.
func TestAppraise_handRaiseSession(t *testing.T) {
	e := newEnv(t)
	e.add(t, kb.NewLesson{ID: "nil-map-caution", Origin: kb.OriginUserStated, Kind: kb.KindCaution,
		Content: "Writing to a nil map panics at run time.", Trigger: "assignment to entry in nil map when writing to a map"})
	req := kb.AppraiseRequest{Query: nilMapQuery, Session: "s1"}
	var got []int
	for range 3 {
		got = append(got, len(e.appraise(t, req).FlaggedPoints))
	}
	if got[0] != 1 || got[1] != 0 {
		t.Fatalf("flagged points per turn = %v, want raised on the first turn and resting on the second", got)
	}
	if n := len(e.appraise(t, kb.AppraiseRequest{Query: nilMapQuery, Session: "s2"}).FlaggedPoints); n != 1 {
		t.Fatalf("a new session raised %d points, want 1", n)
	}
	for range 3 {
		if n := len(e.appraise(t, kb.AppraiseRequest{Query: nilMapQuery, Session: "s3", Mode: "quiet"}).FlaggedPoints); n != 0 {
			t.Fatalf("quiet mode raised %d points", n)
		}
	}
	var skipped int
	if err := e.db.SQL().QueryRow(`SELECT COUNT(*) FROM raise_log WHERE raised = 0 AND will > 0`).Scan(&skipped); err != nil || skipped < 4 {
		t.Fatalf("skipped points logged with their will = %d (%v), want at least 4", skipped, err)
	}
}

// TestAppraise_route: the verdict carries the router's decision, and every
// decision reaches the routing log.
func TestAppraise_route(t *testing.T) {
	e := newEnv(t)
	e.add(t, withOrigin(kb.OriginUserStated, baseLessons...)...)
	greet := e.appraise(t, kb.AppraiseRequest{Query: "greeting", Message: "hi there!", Session: "r1"})
	if greet.Route.Mode != route.Acknowledge {
		t.Fatalf("greeting routed to %s, want acknowledge (%+v)", greet.Route.Mode, greet.Route)
	}
	cold := newEnv(t)
	q := "why does writing to my map panic with assignment to entry in nil map?"
	if m := cold.appraise(t, kb.AppraiseRequest{Message: q, Session: "r2"}).Route.Mode; m != route.Clarify && m != route.Gather {
		t.Fatalf("question on a cold KB routed to %s, want clarify or gather", m)
	}
	if m := e.appraise(t, kb.AppraiseRequest{Message: q, Session: "r3"}).Route.Mode; m != route.Respond {
		t.Fatalf("question on a warm KB routed to %s, want respond", m)
	}
	if m := e.appraise(t, kb.AppraiseRequest{Query: q, Session: "r4"}).Route.Mode; m != route.Respond {
		t.Fatalf("no message: routed the query to %s, want respond", m)
	}
	var n int
	var signals string
	if err := e.db.SQL().QueryRow(`SELECT COUNT(*), MAX(signals) FROM routing_log`).Scan(&n, &signals); err != nil || n != 3 || !strings.Contains(signals, "greeting") {
		t.Fatalf("routing log rows = %d (%v), signals %q", n, err, signals)
	}
}

// TestRecord_appraiseBackfill: record back-fills the verdict log; a heeded
// verdict is censored and leaves calibration; misroute feedback reaches the
// routing log; verdict feedback on a recall trace is refused.
func TestRecord_appraiseBackfill(t *testing.T) {
	e := newEnv(t)
	e.add(t, withOrigin(kb.OriginUserStated, baseLessons...)...)
	ctx := context.Background()
	heeded, acted := true, false
	a := e.appraise(t, kb.AppraiseRequest{Query: nilMapQuery, Message: "fix the nil map panic"})
	b := e.appraise(t, kb.AppraiseRequest{Query: nilMapQuery})
	e.record(t, kb.RecordRequest{TraceID: a.TraceID, Outcome: kb.OutcomeSuccess, VerdictHeeded: &heeded})
	res := e.record(t, kb.RecordRequest{TraceID: b.TraceID, Outcome: kb.OutcomeFailure, VerdictHeeded: &acted})
	if !strings.Contains(res.Changes[len(res.Changes)-1].What, "verdict log outcome failure") {
		t.Fatalf("changes = %+v", res.Changes)
	}
	rows := map[string][3]any{}
	r, err := e.db.SQL().Query(`SELECT trace_id, outcome, heeded, censored FROM verdict_log`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var id, outcome string
		var h, c int
		if err := r.Scan(&id, &outcome, &h, &c); err != nil {
			t.Fatal(err)
		}
		rows[id] = [3]any{outcome, h, c}
	}
	r.Close()
	if rows[a.TraceID] != [3]any{"success", 1, 1} || rows[b.TraceID] != [3]any{"failure", 0, 0} {
		t.Fatalf("verdict log = %v", rows)
	}
	pts, err := e.db.CalibrationPoints(ctx)
	if err != nil || len(pts) != 1 || pts[0].Hit {
		t.Fatalf("calibration points = %+v (%v), want only the unheeded affirm, a miss", pts, err)
	}

	e.record(t, kb.RecordRequest{TraceID: a.TraceID, Misroute: "missed_clarify"})
	var mis string
	if err := e.db.SQL().QueryRow(`SELECT misroute FROM routing_log WHERE trace_id = ?`, a.TraceID).Scan(&mis); err != nil || mis != "missed_clarify" {
		t.Fatalf("misroute = %q (%v)", mis, err)
	}

	rec := e.recall(t, kb.RecallRequest{Query: nilMapQuery})
	for _, req := range []kb.RecordRequest{
		{TraceID: rec.TraceID, VerdictHeeded: &heeded},
		{TraceID: rec.TraceID, Misroute: "missed_gather"},
		{TraceID: a.TraceID, Misroute: "too_long"},
		{VerdictHeeded: &heeded},
	} {
		if _, err := e.kb.Record(ctx, req); !errors.Is(err, kb.ErrInput) {
			t.Errorf("record %+v err = %v, want ErrInput", req, err)
		}
	}
}

func TestAppraise_inputErrors(t *testing.T) {
	e := newEnv(t)
	for _, req := range []kb.AppraiseRequest{
		{},
		{Query: "ok", Mode: "loud"},
		{Query: "ok", Candidate: strings.Repeat("x", kb.MaxQueryBytes+1)},
		{Query: "ok", Message: "bad \xff"},
		{Query: "ok", Session: strings.Repeat("s", kb.MaxSessionBytes+1)},
	} {
		if _, err := e.kb.Appraise(context.Background(), req); !errors.Is(err, kb.ErrInput) {
			t.Errorf("Appraise(%+.40v) err = %v, want ErrInput", req, err)
		}
	}
}

// TestAppraise_planAgainstUserRule: a plan that does what a user rule
// forbids is cautioned, with a flagged point; the compliant plan is not.
func TestAppraise_planAgainstUserRule(t *testing.T) {
	e := newEnv(t)
	e.add(t, kb.NewLesson{ID: "no-main", Origin: kb.OriginUserStated,
		Content: "Never commit directly to main; open a pull request.", Trigger: "committing changes to the main branch"})
	bad := e.appraise(t, kb.AppraiseRequest{Query: "commit the fix to the main branch", Candidate: "Push the commit directly to main", Session: "p1"})
	if bad.Abstained || bad.Valence != appraise.Caution || len(bad.FlaggedPoints) != 1 {
		t.Fatalf("plan against the rule: %+v", bad.Verdict)
	}
	good := e.appraise(t, kb.AppraiseRequest{Query: "commit the fix to the main branch",
		Candidate: "Open a pull request with the commit instead of committing to main", Session: "p2"})
	if good.Valence == appraise.Caution || len(good.FlaggedPoints) != 0 {
		t.Fatalf("plan that follows the rule: %+v", good.Verdict)
	}
}

// TestAppraise_planMakesFile: a plan that says it makes a file where a
// check forbids new files is cautioned citing its rule, as a Write of that
// file would be; a plan making it where the check allows is not. The rule's
// words name no path: the check alone decides.
func TestAppraise_planMakesFile(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rules := "# Repros\n\n- Name each repro script after the issue it reproduces.\n- Keep handlers small.\n"
	if _, err := e.kb.ImportRuleFile(ctx, "/src/api/CLAUDE.md", "api", []byte(rules)); err != nil {
		t.Fatal(err)
	}
	var lesson string
	if err := e.kb.Lessons(ctx, kb.LessonFilter{Project: "api"}, func(l kb.Lesson) error {
		if strings.Contains(l.Content, "repro script") {
			lesson = l.ID
		}
		return nil
	}); err != nil || lesson == "" {
		t.Fatalf("the rule's lesson: %q, %v", lesson, err)
	}
	if _, err := e.kb.AddCheck(ctx, lesson, check.Check{Kind: check.Forbid, From: check.Provenance{By: check.ByPerson},
		Write: &check.WritePattern{Paths: []string{"repros/*", "!repros/[0-9]*.py"}, New: true}}); err != nil {
		t.Fatal(err)
	}
	cited := func(plan string) bool {
		res, err := e.kb.Appraise(ctx, kb.AppraiseRequest{Project: "api", Query: "I want to show the cache bug from issue 4312 in a small script", Candidate: plan})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.FlaggedPoints {
			if strings.Contains(p.Summary, "repro script") {
				return true
			}
		}
		return false
	}
	if !cited("Write the script to repros/cache_ignores_params.py and run it.") {
		t.Error("a plan making a file the check forbids is not cautioned")
	}
	if cited("Write the script to repros/4312.py and run it.") {
		t.Error("a plan making the file the check allows is cautioned")
	}
}
