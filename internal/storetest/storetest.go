// Package storetest is the conformance suite of knowledge-base stores:
// every implementation of kb.Admin (the SQLite store today, the
// PostgreSQL team store next) runs the same tests, so that the two can
// never drift. Each test states a guarantee the kb.Store documentation
// promises.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/terms"
)

// Opener opens a store for a test, empty, with the retention
// kb.DefaultRetention() (see Pruner). Reopen opens a second handle on the
// same data, as another process would; the store is closed when the test
// ends.
type Opener func(t *testing.T) (store kb.Admin, reopen func() kb.Admin)

// secret is a credential of a real shape (not a live one): a store must
// never keep it.
const secret = "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"

// Run runs the conformance suite against the stores open makes.
func Run(t *testing.T, open Opener) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s kb.Admin, reopen func() kb.Admin)
	}{
		{"LessonRoundTrip", lessonRoundTrip},
		{"LessonsFilterAndOrder", lessonsFilterAndOrder},
		{"UpdateRollsBackOnError", updateRollsBack},
		{"OtherHandleSeesWrites", otherHandleSeesWrites},
		{"TracesAndOutcomes", tracesAndOutcomes},
		{"CorrectionsByProjectNewestFirst", correctionsByProject},
		{"Tokens", func(t *testing.T, s kb.Admin, _ func() kb.Admin) { Tokens(t, s) }},
		{"SecretsAreRedacted", secretsRedacted},
		{"ConcurrentWritesAllLand", concurrentWrites},
		{"LexicalSearchFindsALesson", lexicalSearch},
		{"StatsOverLoggedCalls", statsOverLoggedCalls},
		{"ContradictionsResolved", contradictionsResolved},
		{"RegulateStoresAndLogs", regulateStoresAndLogs},
		{"PruneKeepsAllTimeStats", pruneKeepsAllTimeStats},
		{"MetaPrefixed", metaPrefixed},
		// The cases of tx.go.
		{"EvidenceReplacedWithThePreviousSignal", evidenceReplace},
		{"LinksIdempotentOldestFirst", linksIdempotent},
		{"LessonByHashAndNearDuplicate", nearDuplicate},
		{"UpdateLessonWrites", updateLessonWrites},
		{"UpdateLessonKeepsSearchChannelsInStep", updateLessonSearchChannels},
		{"ContextOutcomeNeverBelowZero", contextOutcome},
		{"CountRecalls", countRecalls},
		{"PatternsPutReplaceDelete", patterns},
		{"HesitationLogAndReview", hesitationLog},
		{"HistoryInOrder", historyOrder},
		{"DirectivesAndVersion", directives},
		{"ChecksStoredAndScoped", checksStoredAndScoped},
		{"VerdictOutcomeAndCalibration", verdictCalibration},
		{"RoutingAndMisroute", routingMisroute},
		{"AppraiseStateWindow", appraiseStateWindow},
		// The cases of dashboard.go.
		{"LessonActivityNewestFirst", lessonActivity},
		{"HeldDraftsAndHesitationScores", heldDrafts},
		{"ModeSeriesPerUTCDay", modeSeries},
		{"CalibrationSeriesPerUTCDay", calibrationSeries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, reopen := open(t)
			if err := s.SetEmbedderInfo(context.Background(), "storetest", dim); err != nil {
				t.Fatal(err)
			}
			tt.fn(t, s, reopen)
		})
	}
}

func insert(t *testing.T, s kb.Store, nl kb.NewLesson) kb.Lesson {
	t.Helper()
	var l kb.Lesson
	err := s.Update(context.Background(), func(tx kb.Tx) error {
		var err error
		l, err = tx.InsertLesson(context.Background(), nl, time.Now())
		return err
	})
	if err != nil {
		t.Fatalf("insert %q: %v", nl.Content, err)
	}
	return l
}

// dim is the vector dimension of the suite's lessons.
const dim = 8

// Dim is the vector dimension of NewLesson's lessons: a store the suite
// runs on records its embedder with it.
const Dim = dim

// NewLesson returns an active, user-stated rule of content in project with
// a vector of its own per text (the suite tests storage, not ranking), for
// a store's own tests as for the suite.
func NewLesson(content, project string) kb.NewLesson {
	return newLesson(content, project)
}

func newLesson(content, project string) kb.NewLesson {
	v := make([]float32, dim)
	for i, r := range content {
		v[i%dim] += float32(r % 7)
	}
	v[0]++
	return kb.NewLesson{Content: content, Project: project, Origin: kb.OriginUserStated, Kind: kb.KindRule,
		State: kb.StateActive, Confidence: 0.7, ContentVec: v}
}

func lessonRoundTrip(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	l := insert(t, s, newLesson("Use pnpm, not npm.", "/srv/shop"))
	if l.ID == "" {
		t.Fatal("no id")
	}
	got, err := s.Lesson(ctx, l.ID)
	if err != nil || got.Content != "Use pnpm, not npm." || got.Project != "/srv/shop" || got.Origin != kb.OriginUserStated {
		t.Errorf("lesson %+v, %v", got, err)
	}
	if _, err := s.Lesson(ctx, "L_missing"); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("missing lesson: %v, want ErrNotFound", err)
	}
}

func lessonsFilterAndOrder(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	a := insert(t, s, newLesson("Alpha rule for the shop.", "/srv/shop"))
	b := insert(t, s, newLesson("Beta rule for everyone.", ""))
	c := insert(t, s, newLesson("Gamma rule for the shop.", "/srv/shop"))
	collect := func(f kb.LessonFilter) []string {
		var ids []string
		if err := s.Lessons(ctx, f, func(l kb.Lesson) error { ids = append(ids, l.ID); return nil }); err != nil {
			t.Fatal(err)
		}
		return ids
	}
	if got := collect(kb.LessonFilter{Project: "/srv/shop"}); !slices.Equal(got, []string{a.ID, c.ID}) {
		t.Errorf("project filter: %v, want %v in the order stored", got, []string{a.ID, c.ID})
	}
	if got := collect(kb.LessonFilter{Global: true}); !slices.Equal(got, []string{b.ID}) {
		t.Errorf("global filter: %v", got)
	}
	if got := collect(kb.LessonFilter{}); len(got) != 3 {
		t.Errorf("no filter: %v", got)
	}
}

var errStop = errors.New("stop here")

func updateRollsBack(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	var id string
	err := s.Update(ctx, func(tx kb.Tx) error {
		l, err := tx.InsertLesson(ctx, newLesson("Never kept.", ""), time.Now())
		id = l.ID
		if err != nil {
			return err
		}
		return fmt.Errorf("wrapped: %w", errStop)
	})
	if !errors.Is(err, errStop) {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	if _, err := s.Lesson(ctx, id); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("the lesson of a failed transaction is there: %v", err)
	}
}

func otherHandleSeesWrites(t *testing.T, s kb.Admin, reopen func() kb.Admin) {
	ctx := context.Background()
	other := reopen()
	l := insert(t, s, newLesson("Written by one process.", "/p"))
	got, err := other.Lesson(ctx, l.ID)
	if err != nil || got.Content != l.Content {
		t.Errorf("the other handle reads %+v, %v", got, err)
	}
	l2 := insert(t, other, newLesson("Written by the other.", "/p"))
	if _, err := s.Lesson(ctx, l2.ID); err != nil {
		t.Errorf("the first handle does not see the other's write: %v", err)
	}
}

func tracesAndOutcomes(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	tr := kb.Trace{ID: "t_conf1", Tool: "recall", Session: "s", Project: "/p", CreatedAt: time.Now(),
		Request: []byte(`{"query":"q"}`), Response: []byte(`{"empty":true}`)}
	err := s.Update(ctx, func(tx kb.Tx) error {
		if err := tx.InsertTrace(ctx, tr); err != nil {
			return err
		}
		return tx.SetTraceOutcome(ctx, tr.ID, kb.OutcomeSuccess)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Update(ctx, func(tx kb.Tx) error {
		got, err := tx.Trace(ctx, tr.ID)
		if err != nil {
			return err
		}
		if got.Tool != "recall" || got.Outcome != kb.OutcomeSuccess || string(got.Request) != `{"query":"q"}` {
			t.Errorf("trace %+v", got)
		}
		if _, err := tx.Trace(ctx, "t_missing"); !errors.Is(err, kb.ErrNotFound) {
			t.Errorf("missing trace: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func correctionsByProject(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	base := time.Now().Add(-time.Hour)
	for i, c := range []kb.Correction{
		{Project: "/p", Text: "first", CreatedAt: base},
		{Project: "/q", Text: "other project", CreatedAt: base.Add(time.Minute)},
		{Project: "/p", Text: "second", CreatedAt: base.Add(2 * time.Minute)},
	} {
		c.Session = fmt.Sprint(i)
		if err := s.Update(ctx, func(tx kb.Tx) error { return tx.InsertCorrection(ctx, c) }); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Corrections(ctx, "/p", base.Add(-time.Minute), 10)
	if err != nil || len(got) != 2 || got[0].Text != "second" || got[1].Text != "first" {
		t.Errorf("corrections %+v, %v", got, err)
	}
}

// TokenStore is the token part of kb.Admin.
type TokenStore interface {
	CreateToken(ctx context.Context, t kb.Token, hash string) error
	Tokens(ctx context.Context) ([]kb.Token, error)
	TokenByHash(ctx context.Context, hash string) (kb.Token, error)
	RevokeToken(ctx context.Context, nameOrID string, at time.Time) error
}

// Tokens is the suite's token case on its own, for a store that does not
// implement all of kb.Admin yet (the PostgreSQL store while it is being
// built); s must be empty of tokens.
func Tokens(t *testing.T, s TokenStore) {
	ctx := context.Background()
	now := time.Now().UTC()
	if err := s.CreateToken(ctx, kb.Token{ID: "tk_1", Name: "ci", Scope: "read", Projects: []string{"/p"}, CreatedAt: now}, "hash1"); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateToken(ctx, kb.Token{ID: "tk_2", Name: "ci", Scope: "write", CreatedAt: now}, "hash2"); !errors.Is(err, kb.ErrExists) {
		t.Errorf("duplicate name: %v, want ErrExists", err)
	}
	if tok, err := s.TokenByHash(ctx, "hash1"); err != nil || tok.Name != "ci" || tok.Projects[0] != "/p" {
		t.Errorf("by hash: %+v, %v", tok, err)
	}
	if err := s.RevokeToken(ctx, "ci", now); err != nil {
		t.Fatal(err)
	}
	if ts, err := s.Tokens(ctx); err != nil || len(ts) != 1 || ts[0].RevokedAt == nil {
		t.Errorf("tokens %+v, %v", ts, err)
	}
	if err := s.RevokeToken(ctx, "nobody", now); !errors.Is(err, kb.ErrNotFound) {
		t.Errorf("unknown token: %v", err)
	}
}

func secretsRedacted(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	tr := kb.Trace{ID: "t_secret", Tool: "record", CreatedAt: time.Now(),
		Request: []byte(`{"message":"the token is ` + secret + `"}`), Response: []byte(`{}`)}
	if err := s.Update(ctx, func(tx kb.Tx) error {
		if err := tx.InsertTrace(ctx, tr); err != nil {
			return err
		}
		return tx.InsertCorrection(ctx, kb.Correction{Text: "use " + secret, CreatedAt: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
	_ = s.Update(ctx, func(tx kb.Tx) error {
		got, err := tx.Trace(ctx, tr.ID)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(got.Request), secret) {
			t.Errorf("the trace keeps the secret: %s", got.Request)
		}
		return nil
	})
	cs, err := s.Corrections(ctx, "", time.Now().Add(-time.Hour), 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if strings.Contains(c.Text, secret) {
			t.Errorf("the correction keeps the secret: %s", c.Text)
		}
	}
}

func concurrentWrites(t *testing.T, s kb.Admin, reopen func() kb.Admin) {
	ctx := context.Background()
	stores := []kb.Admin{s, reopen()}
	const writers, each = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := stores[w%len(stores)]
			for i := range each {
				tr := kb.Trace{ID: fmt.Sprintf("t_c%d_%d", w, i), Tool: "recall", CreatedAt: time.Now(), Request: []byte(`{}`), Response: []byte(`{}`)}
				if err := st.Update(ctx, func(tx kb.Tx) error { return tx.InsertTrace(ctx, tr) }); err != nil {
					errs <- err
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("write: %v", err)
	}
	_ = s.Update(ctx, func(tx kb.Tx) error {
		for w := range writers {
			for i := range each {
				if _, err := tx.Trace(ctx, fmt.Sprintf("t_c%d_%d", w, i)); err != nil {
					t.Errorf("trace %d/%d lost: %v", w, i, err)
				}
			}
		}
		return nil
	})
}

func lexicalSearch(t *testing.T, s kb.Admin, _ func() kb.Admin) {
	ctx := context.Background()
	want := insert(t, s, newLesson("Generate the Doctrine migration with bin/console doctrine:migrations:diff.", "/p"))
	insert(t, s, newLesson("Prefer table tests in Go.", "/p"))
	cands, err := s.Search(ctx, kb.Probe{Terms: terms.Tokens("doctrine migration"), LexicalOnly: true, Pool: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(cands, func(c kb.Candidate) bool { return c.Lesson.ID == want.ID }) {
		t.Errorf("the lesson holding the query's words is not a candidate: %+v", cands)
	}
}

// metaPrefixed: a value set under a key is read back by any handle,
// replaced by the next SetMeta, redacted, and listed by MetaPrefixed under
// exactly the keys that begin with the prefix (its "_" and "%" are
// characters, not patterns).
func metaPrefixed(t *testing.T, s kb.Admin, reopen func() kb.Admin) {
	ctx := context.Background()
	set := func(k, v string) {
		t.Helper()
		if err := s.SetMeta(ctx, k, v); err != nil {
			t.Fatalf("SetMeta %s: %v", k, err)
		}
	}
	set("rule_sync:/src/a", "one")
	set("rule_sync:/src/a", "two")
	set("rule_sync:", "global "+secret)
	set("rule_syncX/src/b", "not under the prefix")
	set("rule_sync%", "a pattern character")
	if v, ok, err := reopen().Meta(ctx, "rule_sync:/src/a"); err != nil || !ok || v != "two" {
		t.Fatalf("Meta from another handle = %q, %v, %v; want two", v, ok, err)
	}
	if _, ok, err := s.Meta(ctx, "rule_sync:/src/none"); err != nil || ok {
		t.Fatalf("Meta of a missing key: ok %v, err %v", ok, err)
	}
	got, err := s.MetaPrefixed(ctx, "rule_sync:")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["rule_sync:/src/a"] != "two" || !strings.HasPrefix(got["rule_sync:"], "global ") {
		t.Fatalf("MetaPrefixed(rule_sync:) = %v; want the two keys under it", got)
	}
	if strings.Contains(got["rule_sync:"], secret) {
		t.Errorf("a meta value kept a secret: %q", got["rule_sync:"])
	}
	if got, err := s.MetaPrefixed(ctx, "rule_sync_"); err != nil || len(got) != 0 {
		t.Errorf("MetaPrefixed(rule_sync_) = %v, %v; want nothing (_ is no wildcard)", got, err)
	}
}
