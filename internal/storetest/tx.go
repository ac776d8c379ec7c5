package storetest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
	"github.com/innate-mcp/innate-mcp/terms"
)

// The cases of the kb.Tx methods beyond lessons and traces (evidence,
// links, the logs, patterns, directives, the verdict and routing logs) and
// of the kb.Store and kb.Admin reads of what they write.

// update runs fn in one write transaction and fails the test when it
// fails.
func update(t *testing.T, s kb.Store, fn func(ctx context.Context, tx kb.Tx) error) {
	t.Helper()
	ctx := context.Background()
	if err := s.Update(ctx, func(tx kb.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
}

// addTraces stores traces of a tool in a session.
func addTraces(t *testing.T, s kb.Store, tool, session string, ids ...string) {
	t.Helper()
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, id := range ids {
			tr := kb.Trace{ID: id, Tool: tool, Session: session, CreatedAt: time.Now(), Request: []byte(`{}`), Response: []byte(`{}`)}
			if err := tx.InsertTrace(ctx, tr); err != nil {
				return err
			}
		}
		return nil
	})
}

// base is a fixed time the cases write, at nanosecond precision.
var base = time.Date(2026, 3, 4, 5, 6, 7, 123456789, time.UTC)

func evidenceReplace(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	a := insert(t, s, newLesson("Evidence lesson alpha.", ""))
	b := insert(t, s, newLesson("Evidence lesson beta.", ""))
	addTraces(t, s, "recall", "s1", "t_ev")
	put := func(ctx context.Context, tx kb.Tx, e kb.Evidence, wantPrev string) error {
		e.TraceID = "t_ev"
		prev, err := tx.PutEvidence(ctx, e)
		if err != nil {
			return err
		}
		if prev != wantPrev {
			t.Errorf("PutEvidence %s/%s: previous %q, want %q", e.LessonID, e.Kind, prev, wantPrev)
		}
		return nil
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, c := range []struct {
			e    kb.Evidence
			prev string
		}{
			{kb.Evidence{LessonID: b.ID, Kind: kb.EvidenceUsed, Signal: "used", Session: "s1", CreatedAt: base}, ""},
			{kb.Evidence{LessonID: a.ID, Kind: kb.EvidenceFeedback, Signal: "up", Reason: "helpful", Session: "s1", CreatedAt: base}, ""},
			{kb.Evidence{LessonID: a.ID, Kind: kb.EvidenceOutcome, Signal: "success", Session: "s1", CreatedAt: base}, ""},
		} {
			if err := put(ctx, tx, c.e, c.prev); err != nil {
				return err
			}
		}
		// The transaction reads its own writes.
		if ev, err := tx.Evidence(ctx, "t_ev"); err != nil || len(ev) != 3 {
			t.Errorf("evidence in the transaction: %+v, %v", ev, err)
		}
		return nil
	})
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		e := kb.Evidence{LessonID: a.ID, Kind: kb.EvidenceFeedback, Signal: "down", Reason: "wrong after all: " + secret,
			Session: "s1", CreatedAt: base.Add(time.Minute)}
		if err := put(ctx, tx, e, "up"); err != nil {
			return err
		}
		ev, err := tx.Evidence(ctx, "t_ev")
		if err != nil {
			return err
		}
		type key struct{ lesson, kind, signal string }
		want := []key{{b.ID, "used", "used"}, {a.ID, "feedback", "down"}, {a.ID, "outcome", "success"}}
		slices.SortFunc(want, func(x, y key) int {
			return cmp.Or(strings.Compare(x.lesson, y.lesson), strings.Compare(x.kind, y.kind))
		})
		var got []key
		for _, e := range ev {
			got = append(got, key{e.LessonID, string(e.Kind), e.Signal})
			if e.TraceID != "t_ev" || e.Session != "s1" {
				t.Errorf("evidence %+v", e)
			}
			if e.Kind == kb.EvidenceFeedback && (strings.Contains(e.Reason, secret) || !strings.Contains(e.Reason, "wrong after all")) {
				t.Errorf("the replaced reason is %q: want it replaced, redacted", e.Reason)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("evidence %v, want %v: one per (lesson, kind), ordered by lesson id and kind", got, want)
		}
		if ev, err := tx.Evidence(ctx, "t_none"); err != nil || len(ev) != 0 {
			t.Errorf("evidence of an unknown trace: %+v, %v", ev, err)
		}
		return nil
	})
}

func linksIdempotent(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	a := insert(t, s, newLesson("Link lesson alpha.", ""))
	b := insert(t, s, newLesson("Link lesson beta.", ""))
	c := insert(t, s, newLesson("Link lesson gamma.", ""))
	want := []kb.Link{
		{A: a.ID, B: b.ID, Kind: "contradicts", Reason: "first reason", At: base},
		{A: c.ID, B: a.ID, Kind: "supersedes", Reason: "newer", At: base.Add(2 * time.Minute)},
	}
	check := func(what string, got []kb.Link, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %+v, want %+v", what, got, want)
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.A != w.A || g.B != w.B || g.Kind != w.Kind || g.Reason != w.Reason || !g.At.Equal(w.At) {
				t.Errorf("%s: link %d is %+v, want %+v", what, i, g, w)
			}
		}
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, l := range []kb.Link{
			want[0],
			{A: a.ID, B: b.ID, Kind: "contradicts", Reason: "second reason " + secret, At: base.Add(time.Minute)}, // a repeat: changes nothing
			want[1],
			{A: b.ID, B: c.ID, Kind: "contradicts", Reason: "not about alpha", At: base.Add(3 * time.Minute)},
		} {
			if err := tx.LinkLessons(ctx, l.A, l.B, l.Kind, l.Reason, l.At); err != nil {
				return err
			}
		}
		got, err := tx.Links(ctx, a.ID)
		check("in the transaction", got, err)
		return nil
	})
	// Repeated in a later transaction: still nothing changes.
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		return tx.LinkLessons(ctx, a.ID, b.ID, "contradicts", "third reason", base.Add(time.Hour))
	})
	got, err := s.Links(context.Background(), a.ID)
	check("after commit", got, err)
}

func nearDuplicate(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	const first, second = "Concurrent lesson number 1: keep handlers small.", "Concurrent lesson number 2: keep handlers small."
	old := insert(t, s, newLesson(first, "/p"))
	newer := insert(t, s, newLesson(second, "/p"))
	insert(t, s, newLesson("Concurrent lesson number 3: keep handlers small.", "/q"))
	shape := kb.ShapeHash(first, "")
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if l, err := tx.LessonByHash(ctx, kb.LessonHash(second, "", "/p")); err != nil || l.ID != newer.ID {
			t.Errorf("by hash: %s, %v; want %s", l.ID, err, newer.ID)
		}
		if _, err := tx.LessonByHash(ctx, kb.ContentHash("Never stored.", "")); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("unknown hash: %v, want ErrNotFound", err)
		}
		if l, err := tx.NearDuplicate(ctx, shape, "/p", kb.KindRule); err != nil || l.ID != old.ID {
			t.Errorf("near duplicate: %s, %v; want the oldest, %s", l.ID, err, old.ID)
		}
		if _, err := tx.NearDuplicate(ctx, shape, "/p", kb.KindCaution); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("another kind: %v, want ErrNotFound", err)
		}
		if _, err := tx.NearDuplicate(ctx, shape, "/r", kb.KindRule); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("another project: %v, want ErrNotFound", err)
		}
		// An archived lesson is no near duplicate.
		l, err := tx.Lesson(ctx, old.ID)
		if err != nil {
			return err
		}
		l.State = kb.StateArchived
		if err := tx.UpdateLesson(ctx, l); err != nil {
			return err
		}
		if l, err := tx.NearDuplicate(ctx, shape, "/p", kb.KindRule); err != nil || l.ID != newer.ID {
			t.Errorf("near duplicate after the oldest was archived: %s, %v; want %s", l.ID, err, newer.ID)
		}
		return nil
	})
}

func updateLessonWrites(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	l := insert(t, s, newLesson("Update lesson fields.", "/p"))
	before := time.Now()
	last := base.Add(time.Hour)
	l.State, l.Origin = kb.StatePending, kb.OriginImported
	l.Confidence, l.Tier = 0.42, confidence.TierTentative
	l.Counters = kb.Counters{Recalls: 2, Uses: 3, Successes: 4, Failures: 5, Approvals: 6, Rejects: 7, Observed: 8}
	l.Tags = []string{"build", "ci"}
	l.LastUsedAt = &last
	l.Conf = confidence.State{Origin: kb.OriginImported, Lifecycle: confidence.Pending, Observations: 3, Successes: 4,
		VerdictAt: base, Composite: 0.42, Tier: confidence.TierTentative}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.UpdateLesson(ctx, l); err != nil {
			return err
		}
		missing := l
		missing.ID = "L_missing"
		if err := tx.UpdateLesson(ctx, missing); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("unknown lesson: %v, want ErrNotFound", err)
		}
		return nil
	})
	got, err := s.Lesson(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != kb.StatePending || got.Origin != kb.OriginImported || got.Confidence != 0.42 || got.Tier != confidence.TierTentative ||
		got.Counters != l.Counters || !slices.Equal(got.Tags, l.Tags) || got.LastUsedAt == nil || !got.LastUsedAt.Equal(last) {
		t.Errorf("updated lesson %+v, want %+v", got, l)
	}
	if got.Content != l.Content || got.Project != "/p" || !got.CreatedAt.Equal(l.CreatedAt) {
		t.Errorf("UpdateLesson changed what it does not write: %+v", got)
	}
	if got.UpdatedAt.Before(before.Add(-time.Second)) {
		t.Errorf("updated at %v, before the update (%v)", got.UpdatedAt, before)
	}
	gc, _ := json.Marshal(got.Conf)
	wc, _ := json.Marshal(l.Conf)
	if string(gc) != string(wc) {
		t.Errorf("confidence state %s, want %s", gc, wc)
	}
}

// updateLessonSearchChannels: an archived lesson leaves both search
// channels and the document frequencies, at once for every handle, and
// comes back when restored. It needs Search and DocFreqs.
func updateLessonSearchChannels(t *testing.T, s kb.Admin, reopen func() kb.Admin) {
	ctx := context.Background()
	nl := newLesson("Rotate the zeppelin credentials every quarter.", "")
	l := insert(t, s, nl)
	insert(t, s, newLesson("Indent with tabs in the Makefile.", ""))
	other := reopen()
	term := terms.Tokens("zeppelin")
	probe := kb.Probe{Vector: nl.ContentVec, Terms: term, Pool: 10}
	check := func(what string, want bool) {
		t.Helper()
		df, err := s.DocFreqs(ctx, term)
		if err != nil {
			t.Fatalf("%s: DocFreqs: %v", what, err)
		}
		if n, ok := df[term[0]]; want && n != 1 || !want && ok {
			t.Errorf("%s: document frequency of %q %d (held %v), want it held by the lesson: %v", what, term[0], n, ok, want)
		}
		for i, st := range []kb.Admin{s, other} {
			for _, lexOnly := range []bool{false, true} {
				p := probe
				p.LexicalOnly = lexOnly
				cands, err := st.Search(ctx, p)
				if err != nil {
					t.Fatalf("%s: Search: %v", what, err)
				}
				if found := slices.ContainsFunc(cands, func(c kb.Candidate) bool { return c.Lesson.ID == l.ID }); found != want {
					t.Errorf("%s: handle %d, lexical only %v: the lesson is a candidate: %v, want %v", what, i, lexOnly, found, want)
				}
			}
		}
	}
	set := func(state kb.State) {
		t.Helper()
		update(t, s, func(ctx context.Context, tx kb.Tx) error {
			cur, err := tx.Lesson(ctx, l.ID)
			if err != nil {
				return err
			}
			cur.State = state
			return tx.UpdateLesson(ctx, cur)
		})
	}
	check("recallable", true) // the other handle's index is built now
	set(kb.StateActive)       // recallable to recallable: counted once
	check("updated, still recallable", true)
	set(kb.StateArchived)
	check("archived", false)
	set(kb.StateArchived) // archived to archived: withdrawn once
	check("updated, still archived", false)
	set(kb.StatePending)
	check("restored", true)
}

// contextOutcome: the per-situation tally never falls below zero; Search
// reports it.
func contextOutcome(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	l := insert(t, s, newLesson("Pin the quokka version in CI.", ""))
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, d := range []struct {
			key  string
			s, f int
		}{
			{"k1", 2, 1},
			{"k1", -5, 0}, // 2−5 stops at 0
			{"k1", 1, 0},
			{"k1", 0, 0},
			{"k2", -1, -1}, // a new tally starts at 0
		} {
			if err := tx.AddContextOutcome(ctx, l.ID, d.key, d.s, d.f); err != nil {
				return err
			}
		}
		return nil
	})
	for key, want := range map[string]kb.Tally{"k1": {Successes: 1, Failures: 1}, "k2": {}, "k3": {}} {
		cands, err := s.Search(ctx, kb.Probe{Terms: terms.Tokens("quokka"), LexicalOnly: true, Pool: 10, SituationKey: key})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(cands, func(c kb.Candidate) bool { return c.Lesson.ID == l.ID })
		if i < 0 {
			t.Fatalf("the lesson is not a candidate: %+v", cands)
		}
		if got := cands[i].SituationTally; got != want {
			t.Errorf("tally of %s: %+v, want %+v", key, got, want)
		}
	}
}

func countRecalls(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	a := insert(t, s, newLesson("Recall counter alpha.", ""))
	b := insert(t, s, newLesson("Recall counter beta.", ""))
	c := insert(t, s, newLesson("Recall counter gamma.", ""))
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.CountRecalls(ctx, []string{a.ID, b.ID, "L_missing"}); err != nil {
			return err
		}
		if err := tx.CountRecalls(ctx, nil); err != nil {
			return err
		}
		return tx.CountRecalls(ctx, []string{b.ID})
	})
	for _, w := range []struct {
		id   string
		want int
	}{{a.ID, 1}, {b.ID, 2}, {c.ID, 0}} {
		if l, err := s.Lesson(ctx, w.id); err != nil || l.Counters.Recalls != w.want {
			t.Errorf("recalls of %s: %d, %v; want %d", w.id, l.Counters.Recalls, err, w.want)
		}
	}
}

func patterns(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	p1 := hesitation.Pattern{ID: "p_friday", Keywords: []string{"deploy", "friday"}, Description: "no deploys on a Friday",
		Source: hesitation.SourceUserCorrection, Strength: 0.5, Corrections: 1, CreatedAt: base, LastTriggeredAt: base}
	p2 := hesitation.Pattern{ID: "p_force", Keywords: []string{"force", "push"}, Description: "never force-push main",
		Source: hesitation.SourceSelfReview, Strength: 0.8, Corrections: 1, CreatedAt: base.Add(time.Hour), LastTriggeredAt: base.Add(time.Hour)}
	ids := func(ps []hesitation.Pattern) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		return out
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, p := range []hesitation.Pattern{p1, p2} {
			if err := tx.PutPattern(ctx, p); err != nil {
				return err
			}
		}
		if ps, err := tx.ErrorPatterns(ctx); err != nil || !slices.Equal(ids(ps), []string{p2.ID, p1.ID}) {
			t.Errorf("patterns in the transaction: %v, %v; want the strongest first", ids(ps), err)
		}
		return nil
	})
	// Replacing keeps the creation time of the first insert.
	r := p1
	r.Strength, r.TriggerCount, r.Corrections = 0.9, 3, 2
	r.Description = "no deploys on a Friday, token " + secret
	r.Keywords = []string{"deploy", "friday", "release"}
	r.CreatedAt, r.LastTriggeredAt = base.Add(5*time.Hour), base.Add(5*time.Hour)
	update(t, s, func(ctx context.Context, tx kb.Tx) error { return tx.PutPattern(ctx, r) })
	ps, err := s.ErrorPatterns(ctx)
	if err != nil || !slices.Equal(ids(ps), []string{p1.ID, p2.ID}) {
		t.Fatalf("patterns %v, %v; want the replaced one first, now the strongest", ids(ps), err)
	}
	got := ps[0]
	if got.Strength != 0.9 || got.TriggerCount != 3 || got.Corrections != 2 || got.Source != hesitation.SourceUserCorrection ||
		!slices.Equal(got.Keywords, r.Keywords) || !got.CreatedAt.Equal(base) || !got.LastTriggeredAt.Equal(r.LastTriggeredAt) {
		t.Errorf("replaced pattern %+v: want strength 0.9, 3 triggers, 2 corrections, keywords %v, created at %v, last triggered at %v",
			got, r.Keywords, base, r.LastTriggeredAt)
	}
	if strings.Contains(got.Description, secret) || !strings.HasPrefix(got.Description, "no deploys") {
		t.Errorf("description %q: want it redacted", got.Description)
	}
	if err := s.DeletePattern(ctx, p2.ID); err != nil {
		t.Fatal(err)
	}
	if ps, err := s.ErrorPatterns(ctx); err != nil || !slices.Equal(ids(ps), []string{p1.ID}) {
		t.Errorf("after the delete: %v, %v", ids(ps), err)
	}
	if err := s.DeletePattern(ctx, p2.ID); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("deleting a pattern that is gone: %v, want ErrNotFound", err)
	}
}

func hesitationLog(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	addTraces(t, s, "hesitate", "s1", "t_hes")
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		return tx.LogHesitation(ctx, kb.HesitationEntry{TraceID: "t_hes", CreatedAt: base, Held: true,
			Actions: []hesitation.Action{"deploy"},
			Result: hesitation.Result{Score: 40, Threshold: 30, Signals: []hesitation.Signal{{Type: "error_pattern", Detail: "deploy on friday", Weight: 40}},
				MatchedPatterns: []string{"p_friday"}}})
	})
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.ReviewHesitation(ctx, "t_hes", "confirmed", base.Add(time.Minute)); err != nil {
			return err
		}
		if err := tx.ReviewHesitation(ctx, "t_none", "confirmed", base.Add(time.Minute)); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("review of an unknown hesitate call: %v, want ErrNotFound", err)
		}
		return nil
	})
}

func historyOrder(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	l := insert(t, s, newLesson("History lesson.", ""))
	other := insert(t, s, newLesson("Another history lesson.", ""))
	changes := []confidence.Change{
		{At: base, Kind: confidence.KindObserved, Reason: "stated again", Before: confidence.Scores{Composite: 0.5},
			After: confidence.Scores{Composite: 0.6, Tier: confidence.TierModerate}, LifecycleBefore: confidence.Pending, LifecycleAfter: confidence.Active},
		{At: base, Kind: confidence.KindAppliedSuccess, Reason: "self-confirmation", Ignored: true,
			LifecycleBefore: confidence.Active, LifecycleAfter: confidence.Active},
		{At: base.Add(-time.Hour), Kind: confidence.KindUserRejected, Reason: "the user said no", Before: confidence.Scores{Human: 0.5},
			After: confidence.Scores{Human: 0.2}, LifecycleBefore: confidence.Active, LifecycleAfter: confidence.Archived},
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error { return tx.AddHistory(ctx, l.ID, changes[:2]) })
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.AddHistory(ctx, other.ID, changes[:1]); err != nil {
			return err
		}
		return tx.AddHistory(ctx, l.ID, changes[2:])
	})
	got, err := s.History(ctx, l.ID)
	if err != nil || len(got) != len(changes) {
		t.Fatalf("history %+v, %v; want %d changes", got, err, len(changes))
	}
	for i, w := range changes {
		g := got[i]
		if !g.At.Equal(w.At) || g.Kind != w.Kind || g.Reason != w.Reason || g.Before != w.Before || g.After != w.After ||
			g.LifecycleBefore != w.LifecycleBefore || g.LifecycleAfter != w.LifecycleAfter || g.Ignored != w.Ignored {
			t.Errorf("change %d: %+v, want %+v (in the order added, whatever their times)", i, g, w)
		}
	}
	if got, err := s.History(ctx, "L_missing"); err != nil || len(got) != 0 {
		t.Errorf("history of an unknown lesson: %+v, %v", got, err)
	}
}

func directives(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	if v, err := s.DirectiveVersion(ctx); err != nil || v != 0 {
		t.Errorf("directive version of a new store: %d, %v; want 0", v, err)
	}
	a := insert(t, s, newLesson("Use pnpm, not npm.", ""))
	b := insert(t, s, newLesson("Write tests first.", ""))
	d := directive.Directive{Version: 3, Polarity: directive.Prefer, Do: []directive.Object{{Text: "pnpm"}},
		Dont: []directive.Object{{Text: "npm"}}, Subject: "package manager"}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		return tx.SetDirectives(ctx, 3, map[string]directive.Directive{a.ID: d})
	})
	if v, err := s.DirectiveVersion(ctx); err != nil || v != 3 {
		t.Errorf("directive version %d, %v; want 3", v, err)
	}
	got, err := s.Lesson(ctx, a.ID)
	gj, _ := json.Marshal(got.Directive)
	wj, _ := json.Marshal(d)
	if err != nil || string(gj) != string(wj) {
		t.Errorf("directive %s, %v; want %s", gj, err, wj)
	}
	if got, err := s.Lesson(ctx, b.ID); err != nil || got.Directive != nil {
		t.Errorf("a lesson given no directive has %+v, %v", got.Directive, err)
	}
	// A new version with no directives keeps the stored ones.
	update(t, s, func(ctx context.Context, tx kb.Tx) error { return tx.SetDirectives(ctx, 4, nil) })
	if v, err := s.DirectiveVersion(ctx); err != nil || v != 4 {
		t.Errorf("directive version %d, %v; want 4", v, err)
	}
	if got, err := s.Lesson(ctx, a.ID); err != nil || got.Directive == nil {
		t.Errorf("the directive is gone: %+v, %v", got.Directive, err)
	}
}

// verdict is a verdict record of an appraise trace.
func verdict(trace, session string, valence appraise.Valence, strength float64, raises ...appraise.Raise) kb.VerdictRecord {
	return kb.VerdictRecord{TraceID: trace, Session: session, CreatedAt: base, Mode: appraise.Focus, HasCandidate: true,
		Support: 0.3, Valence: valence, Directional: valence, Strength: strength, Confidence: strength, Dispersion: 0.1,
		Band: appraise.Medium, Evidence: 2.5, Agreement: 0.75, Resonating: 3, TopResonance: 0.66,
		Contributors: []appraise.Contributor{{LessonID: "L_c", Valence: valence, Strength: strength}}, Raises: raises}
}

func verdictCalibration(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	addTraces(t, s, "appraise", "s_cal", "t_v1", "t_v2", "t_v3", "t_v4", "t_v5")
	abstained := verdict("t_v3", "s_cal", appraise.Neutral, 0.6)
	abstained.Abstained, abstained.AbstainReason, abstained.Directional = true, appraise.SparseEvidence, appraise.Affirm
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, v := range []kb.VerdictRecord{
			verdict("t_v1", "s_cal", appraise.Affirm, 0.9),
			verdict("t_v2", "s_cal", appraise.Caution, 0.7),
			abstained,
			verdict("t_v4", "s_cal", appraise.Mixed, 0.5),
			verdict("t_v5", "s_cal", appraise.Affirm, 0.4),
		} {
			if err := tx.InsertVerdict(ctx, v); err != nil {
				return err
			}
		}
		return nil
	})
	rev := func() int64 {
		t.Helper()
		st, err := s.AppraiseState(ctx, "s_cal", 0)
		if err != nil {
			t.Fatal(err)
		}
		return st.CalibrationRev
	}
	points := func(want ...appraise.Point) {
		t.Helper()
		got, err := s.CalibrationPoints(ctx)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("calibration points %v, %v; want %v, newest first", got, err, want)
		}
	}
	outcome := func(trace string, o kb.Outcome, heeded *bool, moves bool) {
		t.Helper()
		r := rev()
		update(t, s, func(ctx context.Context, tx kb.Tx) error { return tx.SetVerdictOutcome(ctx, trace, o, heeded, base) })
		if got := rev(); (got != r) != moves {
			t.Errorf("%s ← %q, heeded %v: calibration revision %d → %d; want it moved: %v", trace, o, heeded, r, got, moves)
		}
	}
	yes, no := true, false
	points()
	outcome("t_v1", kb.OutcomeSuccess, nil, true)
	outcome("t_v1", kb.OutcomeSuccess, nil, false) // nothing changes
	outcome("t_v1", "", nil, false)                // "" keeps the outcome
	outcome("t_v2", kb.OutcomeSuccess, nil, true)  // a caution that missed
	outcome("t_v3", kb.OutcomeFailure, nil, true)  // abstained: no point
	outcome("t_v4", kb.OutcomeFailure, nil, true)  // mixed: no point
	outcome("t_v5", kb.OutcomeFailure, nil, true)  // an affirm that missed
	points(appraise.Point{Strength: 0.4}, appraise.Point{Strength: 0.7}, appraise.Point{Strength: 0.9, Hit: true})
	outcome("t_v2", "", &yes, true) // heeded: censored
	points(appraise.Point{Strength: 0.4}, appraise.Point{Strength: 0.9, Hit: true})
	outcome("t_v2", "", &yes, false)
	outcome("t_v2", "", &no, true) // not heeded after all: a point again
	points(appraise.Point{Strength: 0.4}, appraise.Point{Strength: 0.7}, appraise.Point{Strength: 0.9, Hit: true})
	outcome("t_v1", kb.OutcomeFailure, nil, true) // a changed outcome
	points(appraise.Point{Strength: 0.4}, appraise.Point{Strength: 0.7}, appraise.Point{Strength: 0.9})
	outcome("t_v1", kb.OutcomeUnknown, nil, true) // unknown: no point
	points(appraise.Point{Strength: 0.4}, appraise.Point{Strength: 0.7})
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.SetVerdictOutcome(ctx, "t_none", kb.OutcomeSuccess, nil, base); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("outcome of an unknown verdict: %v, want ErrNotFound", err)
		}
		return nil
	})
	f, err := s.VerdictFooting(ctx, "t_v1")
	if want := (kb.VerdictFooting{Support: 0.3, Evidence: 2.5, Agreement: 0.75, TopResonance: 0.66, Resonating: 3}); err != nil || f != want {
		t.Errorf("footing %+v, %v; want %+v", f, err, want)
	}
	if _, err := s.VerdictFooting(ctx, "t_none"); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("footing of an unknown verdict: %v, want ErrNotFound", err)
	}
}

func routingMisroute(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	addTraces(t, s, "appraise", "s_route", "t_r1", "t_r2")
	addTraces(t, s, "appraise", "s_other", "t_r3")
	rec := func(trace, session string, mode route.Mode, next route.SessionState) kb.RoutingRecord {
		return kb.RoutingRecord{TraceID: trace, Session: session, CreatedAt: base, Elapsed: time.Millisecond,
			Warmth:   route.Warmth{ResonatingLessons: 2, TopResonance: 0.5, SessionTraces: 1},
			Decision: route.Decision{Mode: mode, Scores: map[route.Mode]float64{mode: 0.8}, Confidence: 0.6, Signals: map[string]float64{"question": 1}, Next: next},
			Weights:  map[string]float64{"w": 1}}
	}
	last := route.SessionState{Mode: route.Respond, Warmth: 0.5, Confidence: 0.7, LowConfidenceStreak: 2}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, r := range []kb.RoutingRecord{
			rec("t_r1", "s_route", route.Clarify, route.SessionState{Mode: route.Clarify, Warmth: 0.3}),
			rec("t_r2", "s_route", route.Respond, last), // the same weights again
			rec("t_r3", "s_other", route.Gather, route.SessionState{Mode: route.Gather}),
		} {
			if err := tx.InsertRouting(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	st, err := s.AppraiseState(ctx, "s_route", 0)
	if err != nil || st.Route == nil || *st.Route != last {
		t.Errorf("router state %+v, %v; want the last decision's, %+v", st.Route, err, last)
	}
	if st, err := s.AppraiseState(ctx, "s_none", 0); err != nil || st.Route != nil {
		t.Errorf("router state of a session with no decision: %+v, %v", st.Route, err)
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		if err := tx.SetMisroute(ctx, "t_r1", route.MissedClarify, base); err != nil {
			return err
		}
		if err := tx.SetMisroute(ctx, "t_none", route.MissedClarify, base); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("misroute of an unknown decision: %v, want ErrNotFound", err)
		}
		return nil
	})
}

func appraiseStateWindow(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	addTraces(t, s, "recall", "s_win", "t_w0")
	addTraces(t, s, "appraise", "s_win", "t_w1", "t_w2", "t_w3")
	addTraces(t, s, "appraise", "s_else", "t_x1")
	raise := func(id string, raised bool) appraise.Raise {
		return appraise.Raise{LessonID: id, Relevance: 0.5, Novelty: 1, Confidence: 0.6, Damping: 1, Will: 0.3, Raised: raised}
	}
	update(t, s, func(ctx context.Context, tx kb.Tx) error {
		for _, v := range []kb.VerdictRecord{
			verdict("t_w1", "s_win", appraise.Affirm, 0.5, raise("L_b", true), raise("L_a", true), raise("L_c", false)),
			verdict("t_w2", "s_win", appraise.Neutral, 0.1),
			verdict("t_x1", "s_else", appraise.Affirm, 0.5, raise("L_x", true)),
			verdict("t_w3", "s_win", appraise.Caution, 0.5, raise("L_z", true)),
		} {
			if err := tx.InsertVerdict(ctx, v); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		window int
		want   []kb.RecentAppraisal
	}{
		{0, nil},
		{-1, nil},
		{2, []kb.RecentAppraisal{{TraceID: "t_w3", Raised: []string{"L_z"}}, {TraceID: "t_w2"}}},
		{10, []kb.RecentAppraisal{{TraceID: "t_w3", Raised: []string{"L_z"}}, {TraceID: "t_w2"}, {TraceID: "t_w1", Raised: []string{"L_a", "L_b"}}}},
	} {
		st, err := s.AppraiseState(ctx, "s_win", c.window)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(st.Recent, c.want, func(a, b kb.RecentAppraisal) bool {
			return a.TraceID == b.TraceID && slices.Equal(a.Raised, b.Raised)
		}) {
			t.Errorf("window %d: recent %+v, want %+v (newest first, the lessons raised)", c.window, st.Recent, c.want)
		}
		if st.SessionTraces != 4 {
			t.Errorf("window %d: %d session traces, want 4", c.window, st.SessionTraces)
		}
	}
}
