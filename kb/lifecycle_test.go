package kb_test

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/kb"
)

// clock is a settable time source for lifecycle tests.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func withClock(c *clock, session string) func(*kb.Config) {
	return func(cfg *kb.Config) {
		cfg.Now = c.now
		cfg.Session = session
	}
}

// useOnce recalls query in e, and reports the lesson used with outcome.
func useOnce(t *testing.T, e *env, query, id string, o kb.Outcome) kb.RecordResult {
	t.Helper()
	rec := e.recall(t, kb.RecallRequest{Query: query})
	found := false
	for _, l := range rec.Lessons {
		found = found || l.ID == id
	}
	if !found {
		t.Fatalf("recall %q did not return %s: %v", query, id, ids(rec))
	}
	return e.record(t, kb.RecordRequest{TraceID: rec.TraceID, Outcome: o, Used: []string{id}})
}

func TestLifecycle_pendingPromotedBySuccessInSeparateSessions(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	a := newEnv(t, withClock(c, "session-a"))
	res := a.record(t, kb.RecordRequest{Lesson: &kb.LessonInput{Content: "Retry flaky network calls in the sync worker with jittered backoff.",
		Trigger: "sync worker network errors"}})
	id := res.LessonID
	if l := a.lesson(t, id); l.State != kb.StatePending {
		t.Fatalf("agent-inferred lesson starts %s", l.State)
	}
	q := "sync worker network errors, retry with backoff"
	// Successes in the creating session do not confirm it.
	useOnce(t, a, q, id, kb.OutcomeSuccess)
	useOnce(t, a, q, id, kb.OutcomeSuccess)
	if l := a.lesson(t, id); l.State != kb.StatePending {
		t.Fatalf("promoted by its own session: %s", l.State)
	}
	// Two other sessions confirm it.
	for _, s := range []string{"session-b", "session-c"} {
		c.t = c.t.Add(time.Hour)
		e := openEnv(t, a.path, withClock(c, s))
		useOnce(t, e, q, id, kb.OutcomeSuccess)
	}
	if l := a.lesson(t, id); l.State != kb.StateActive {
		t.Fatalf("after two other sessions' successes: %s (conf %+v)", l.State, l.Conf)
	}
}

func TestLifecycle_noSelfConfirmation(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	e := newEnv(t, withClock(c, "s1"))
	id := e.add(t, kb.NewLesson{Content: "Pin tool versions in go.mod with a tools.go file.", Trigger: "adding a Go tool dependency"})[0]
	q := "adding a Go tool dependency and pinning its version"
	useOnce(t, e, q, id, kb.OutcomeSuccess)
	after1 := e.lesson(t, id).Conf
	for range 5 {
		useOnce(t, e, q, id, kb.OutcomeSuccess)
	}
	after6 := e.lesson(t, id).Conf
	if after6.SuccessSessions != after1.SuccessSessions || after6.Ignored == 0 {
		t.Fatalf("one session confirmed a lesson %d times (sessions %d → %d, ignored %d)",
			6, after1.SuccessSessions, after6.SuccessSessions, after6.Ignored)
	}
	// Success without reporting the lesson as used credits nothing.
	before := e.lesson(t, id).Conf
	rec := e.recall(t, kb.RecallRequest{Query: q})
	e.record(t, kb.RecordRequest{TraceID: rec.TraceID, Outcome: kb.OutcomeSuccess})
	if got := e.lesson(t, id).Conf; got.Successes != before.Successes {
		t.Fatalf("unreported use credited: %d → %d", before.Successes, got.Successes)
	}
	// Failures are never limited: they count every time (both traces are
	// taken first: after failures the lesson may fall below injection).
	r1, r2 := e.recall(t, kb.RecallRequest{Query: q}), e.recall(t, kb.RecallRequest{Query: q})
	for _, r := range []kb.RecallResult{r1, r2} {
		e.record(t, kb.RecordRequest{TraceID: r.TraceID, Outcome: kb.OutcomeFailure, Used: []string{id}})
	}
	if got := e.lesson(t, id).Conf; got.Failures != before.Failures+2 {
		t.Fatalf("failures = %d, want %d", got.Failures, before.Failures+2)
	}
}

func TestLifecycle_decayAfterDowntimeIsIdempotentAndPersisted(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
	e := newEnv(t, withClock(c, "s1"))
	id := e.add(t, kb.NewLesson{Content: "Vendor nothing; use the module proxy.", Trigger: "adding dependencies"})[0]
	fresh := e.lesson(t, id)
	// The server is off for a month.
	c.t = c.t.Add(31 * 24 * time.Hour)
	e.recall(t, kb.RecallRequest{Query: "adding dependencies via the module proxy"})
	decayed := e.lesson(t, id)
	if decayed.Confidence >= fresh.Confidence || decayed.Conf.DecayWeeks != 4 {
		t.Fatalf("after a month: confidence %.3f → %.3f, %d decay weeks", fresh.Confidence, decayed.Confidence, decayed.Conf.DecayWeeks)
	}
	// Reading again at the same time changes nothing.
	e.recall(t, kb.RecallRequest{Query: "adding dependencies via the module proxy"})
	if again := e.lesson(t, id); again.Confidence != decayed.Confidence || again.Conf.DecayWeeks != 4 {
		t.Fatalf("second read moved it: %.4f → %.4f", decayed.Confidence, again.Confidence)
	}
}

func TestLifecycle_deprecatedArchivedAfter30DaysNeverDeleted(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
	e := newEnv(t, withClock(c, "s1"))
	id := e.add(t, kb.NewLesson{Content: "Always use global variables for configuration.", Trigger: "configuring services",
		Origin: kb.OriginAgentInferred})[0]
	for _, reason := range []string{"wrong", "still wrong"} {
		if _, _, err := e.kb.ApplyAction(context.Background(), id, kb.ActionReject, reason); err != nil {
			t.Fatal(err)
		}
	}
	l := e.lesson(t, id)
	if l.Tier != confidence.TierDeprecated && l.Tier != confidence.TierTentative {
		t.Fatalf("rejected lesson tier %s (%.2f)", l.Tier, l.Confidence)
	}
	// Not injected while tentative or deprecated.
	if res := e.recall(t, kb.RecallRequest{Query: "configuring services with global variables"}); len(res.Lessons) > 0 {
		t.Fatalf("a %s lesson was injected: %v", l.Tier, ids(res))
	}
	c.t = c.t.Add(200 * 24 * time.Hour)
	e.recall(t, kb.RecallRequest{Query: "configuring services with global variables"})
	l = e.lesson(t, id)
	if l.State != kb.StateArchived {
		t.Fatalf("deprecated for months but %s (tier %s, %.2f)", l.State, l.Tier, l.Confidence)
	}
	// Restorable, with its evidence.
	l, _, err := e.kb.ApplyAction(context.Background(), id, kb.ActionRestore, "")
	if err != nil || l.State == kb.StateArchived || l.Conf.StrongRejections != 2 {
		t.Fatalf("restore: %+v %v", l.Conf, err)
	}
	hist, err := e.db.History(context.Background(), id)
	if err != nil || len(hist) < 4 {
		t.Fatalf("history = %d rows, %v", len(hist), err)
	}
}

func TestLifecycle_contradictionSupersedesWeaker(t *testing.T) {
	e := newEnv(t)
	old := e.add(t, kb.NewLesson{Content: "Use panic for error handling in library code.", Trigger: "error handling in Go libraries",
		Origin: kb.OriginAgentInferred})[0]
	res := e.record(t, kb.RecordRequest{Author: kb.AuthorPerson, Lesson: &kb.LessonInput{Content: "Never use panic for error handling in library code.",
		Trigger: "error handling in Go libraries", Origin: kb.OriginUserStated}})
	superseded := false
	for _, c := range res.Changes {
		superseded = superseded || (c.LessonID == old)
	}
	if !superseded {
		t.Fatalf("no supersession reported: %+v", res.Changes)
	}
	if l := e.lesson(t, old); l.State != kb.StateArchived || l.Conf.ArchiveReason != confidence.ArchiveSuperseded {
		t.Fatalf("weaker lesson: %s (%s)", l.State, l.Conf.ArchiveReason)
	}
	if l := e.lesson(t, res.LessonID); l.State != kb.StateActive {
		t.Fatalf("user-stated winner: %s", l.State)
	}
	links, err := e.db.Links(context.Background(), old)
	if err != nil || len(links) != 2 {
		t.Fatalf("links = %+v, %v", links, err)
	}
}

func TestLifecycle_approveRaisesTierAndCoreComesFirst(t *testing.T) {
	c := &clock{t: time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)}
	e := newEnv(t, withClock(c, "s0"))
	ids2 := e.add(t,
		kb.NewLesson{Content: "Run go test -race before pushing any Go change.", Trigger: "pushing Go changes"},
		kb.NewLesson{Content: "Run the linter before pushing Go changes to the branch.", Trigger: "pushing Go changes to a branch"})
	star := ids2[1]
	if _, _, err := e.kb.ApplyAction(context.Background(), star, kb.ActionApprove, ""); err != nil {
		t.Fatal(err)
	}
	q := "pushing Go changes to the branch"
	for i := range 12 {
		c.t = c.t.Add(time.Hour)
		s := openEnv(t, e.path, withClock(c, "s"+string(rune('a'+i))))
		useOnce(t, s, q, star, kb.OutcomeSuccess)
	}
	l := e.lesson(t, star)
	if l.Tier != confidence.TierCore && l.Tier != confidence.TierStrong {
		t.Fatalf("approved lesson with 12 successful sessions is %s (%.2f)", l.Tier, l.Confidence)
	}
	res := e.recall(t, kb.RecallRequest{Query: "before pushing my Go change"})
	if len(res.Lessons) == 0 {
		t.Fatal("nothing recalled")
	}
	if l.Tier == confidence.TierCore && res.Lessons[0].ID != star {
		t.Fatalf("core lesson not first: %v", ids(res))
	}
}

// TestRecord_whatMovesConfidence pins what a reported success does to a
// user-stated lesson's confidence, as the README describes it: nothing from
// the session that stated it, nothing visible from the first other session
// (two observations are inside the frequency table's first step, and one
// success inside effectiveness's neutral hold), then a step up from the
// second; the record says which.
func TestRecord_whatMovesConfidence(t *testing.T) {
	c := &clock{t: time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)}
	a := newEnv(t, withClock(c, "creator"))
	id := a.record(t, kb.RecordRequest{Author: kb.AuthorPerson, Lesson: &kb.LessonInput{Content: "Wrap errors with fmt.Errorf and %w so callers can match them with errors.Is.",
		Trigger: "returning errors from Go functions", Origin: kb.OriginUserStated}}).LessonID
	q := "how should this Go function return the error from os.Open"
	steps := []struct {
		session string
		want    string // the confidence part of the record's change
		conf    float64
	}{
		{"creator", "ignored: session creator already gave applied_success to this lesson", 0.4488},
		{"s1", "confidence 0.449 unchanged (frequency 0.300, effectiveness 0.500, human 0.575)", 0.4488},
		{"s2", "confidence 0.449 → 0.519 (moderate)", 0.5188},
		{"s3", "confidence 0.519 unchanged (frequency 0.500, effectiveness 0.500, human 0.575)", 0.5188},
		{"s4", "confidence 0.519 → 0.523 (moderate)", 0.5228},
		{"s5", "confidence 0.523 → 0.615 (strong)", 0.6150},
	}
	for _, st := range steps {
		c.t = c.t.Add(time.Hour)
		e := openEnv(t, a.path, withClock(c, st.session))
		res := useOnce(t, e, q, id, kb.OutcomeSuccess)
		last := res.Changes[len(res.Changes)-1]
		if want := "outcome success; " + st.want; last.LessonID != id || last.What != want {
			t.Errorf("session %s: change %q, want %q", st.session, last.What, want)
		}
		if got := e.lesson(t, id).Confidence; math.Abs(got-st.conf) > 5e-5 {
			t.Errorf("session %s: confidence %.4f, want %.4f", st.session, got, st.conf)
		}
	}
}
