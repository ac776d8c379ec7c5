package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
	"github.com/innate-mcp/innate-mcp/storage"
)

// testEnv is a seeded knowledge base and a dashboard over it.
type testEnv struct {
	db      *storage.DB
	held    []string // trace ids of the hesitate calls seeded
	kb      *kb.KB
	srv     *Server
	pending string // a pending lesson's id
	ruleID  string // the lesson of the rule the search finds
}

// searchQuery finds ruleID: the rule file's rule about snapshots.
const searchQuery = "update insta snapshots after running tests"

// newTestEnv seeds a knowledge base from a real rule file (or, without
// the shared evaluation data, from a few rules of its own) with recalls,
// outcomes, feedback, appraisals and hesitations, and starts a dashboard
// over it. extra adds that many generated lessons (the benchmark's 10k).
func newTestEnv(tb testing.TB, extra int) *testEnv {
	tb.Helper()
	ctx := context.Background()
	db, err := storage.Open(ctx, filepath.Join(tb.TempDir(), "kb.db"), storage.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	emb := fakeembed.New(64)
	open := func(session string) *kb.KB {
		k, err := kb.New(kb.Config{Store: db, Embedder: emb, Session: session})
		if err != nil {
			tb.Fatal(err)
		}
		return k
	}
	k := open("dashboard-test")
	e := &testEnv{db: db, kb: k}

	rules := ruleFile(tb)
	if _, err := k.ImportRuleFile(ctx, "AGENTS.md", "astral-sh/ruff", rules); err != nil {
		tb.Fatal(err)
	}
	_, err = k.Add(ctx, []kb.NewLesson{
		{Content: "Wrap errors with fmt.Errorf and %w so callers can match them with errors.Is.", Trigger: "returning errors from Go functions", Tags: []string{"go", "errors"}, Origin: kb.OriginUserStated},
		{Content: "Use pnpm, not npm, to install packages in the web app.", Trigger: "installing JavaScript packages", Project: "shop", Tags: []string{"js"}, Origin: kb.OriginUserStated},
		{Content: "Never use npm to install packages in the web app.", Trigger: "installing JavaScript packages", Project: "shop", Origin: kb.OriginImported},
	}, nil)
	if err != nil {
		tb.Fatal(err)
	}
	agent := open("agent-1")
	res, err := agent.Record(ctx, kb.RecordRequest{Project: "shop", Lesson: &kb.LessonInput{
		Content: "Retry flaky network calls in the sync worker with jittered backoff.", Trigger: "sync worker network errors", Tags: []string{"network"}}})
	if err != nil {
		tb.Fatal(err)
	}
	e.pending = res.LessonID
	if extra > 0 {
		var nls []kb.NewLesson
		topics := []string{"database migrations", "HTTP handlers", "React components", "CI pipelines", "logging", "caching", "auth tokens", "feature flags"}
		for i := range extra {
			t := topics[i%len(topics)]
			// A word of letters per lesson: lessons that differ only in a
			// number would be near-duplicates, reinforced and not stored.
			w := letters(i)
			nls = append(nls, kb.NewLesson{Content: fmt.Sprintf("In the %s module, keep %s changes small and reviewed, and test %s before merging.", w, t, t),
				Trigger: "working on " + t, Project: fmt.Sprintf("project-%d", i%12), Tags: []string{fmt.Sprintf("t%d", i%20)}, Origin: kb.OriginImported})
		}
		rep, err := k.Add(ctx, nls, nil)
		if err != nil {
			tb.Fatal(err)
		}
		if rep.Added != extra {
			tb.Fatalf("added %d of %d generated lessons (%d duplicates, %d reinforced)", rep.Added, extra, rep.Duplicates, rep.Reinforced)
		}
	}

	// Recalls with outcomes and feedback from several sessions.
	queries := []string{searchQuery, "run clippy on the workspace", "how should this Go function return the error from os.Open",
		"install packages for the web app", "run the tests of one crate"}
	for i := range 12 {
		s := open(fmt.Sprintf("agent-%d", i+2))
		q := queries[i%len(queries)]
		rec, err := s.Recall(ctx, kb.RecallRequest{Query: q, Project: "astral-sh/ruff"})
		if err != nil {
			tb.Fatal(err)
		}
		if q == searchQuery && len(rec.Lessons) > 0 && e.ruleID == "" {
			e.ruleID = rec.Lessons[0].ID
		}
		if len(rec.Lessons) == 0 {
			continue
		}
		out := kb.OutcomeSuccess
		if i%4 == 3 {
			out = kb.OutcomeFailure
		}
		req := kb.RecordRequest{TraceID: rec.TraceID, Outcome: out, Used: []string{rec.Lessons[0].ID}}
		if i%3 == 0 {
			req.Feedback = []kb.FeedbackItem{{LessonID: rec.Lessons[0].ID, Signal: "up"}}
		}
		if _, err := s.Record(ctx, req); err != nil {
			tb.Fatal(err)
		}
		ap, err := s.Appraise(ctx, kb.AppraiseRequest{Query: q, Project: "astral-sh/ruff", Candidate: "I will " + q})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := s.Record(ctx, kb.RecordRequest{TraceID: ap.TraceID, Outcome: out}); err != nil && !strings.Contains(err.Error(), "abstain") {
			tb.Logf("record appraisal outcome: %v", err)
		}
	}
	// Hesitations: drafts that claim success with no test run are held.
	drafts := []string{"Fixed, all tests pass now. The bug is definitely gone and this will always work.",
		"Done: the migration is guaranteed safe, no need to check anything.",
		"I think the cache is probably fine, but I have not run the tests yet."}
	for _, d := range drafts {
		h, err := k.Hesitate(ctx, kb.HesitateRequest{Draft: d, Actions: []string{"commit"}})
		if err != nil {
			tb.Fatal(err)
		}
		e.held = append(e.held, h.TraceID)
	}
	// Routing decisions and verdicts with outcomes, logged over two weeks
	// (the calls above are all of today): the charts per day have history.
	day0 := time.Now().UTC().AddDate(0, 0, -14)
	err = db.Update(ctx, func(tx kb.Tx) error {
		for d := range 14 {
			at := day0.AddDate(0, 0, d).Add(12 * time.Hour)
			for j, m := range route.Modes() {
				for n := range (d*3+j*7)%5 + 1 {
					id := fmt.Sprintf("t_route_%d_%d_%d", d, j, n)
					if err := tx.InsertTrace(ctx, kb.Trace{ID: id, Tool: "appraise", Session: "history", CreatedAt: at}); err != nil {
						return err
					}
					if err := tx.InsertRouting(ctx, kb.RoutingRecord{TraceID: id, Session: "history", CreatedAt: at, Decision: route.Decision{Mode: m}}); err != nil {
						return err
					}
				}
			}
			for j := range 12 {
				id := fmt.Sprintf("t_verdict_%d_%d", d, j)
				strength := float64((d*5+j*13)%100) / 100
				valence, out := appraise.Affirm, kb.OutcomeSuccess
				if j%3 == 0 {
					valence = appraise.Caution
				}
				if float64((j*29+d)%100)/100 >= strength {
					out = kb.OutcomeFailure
					if valence == appraise.Caution {
						out = kb.OutcomeSuccess
					}
				}
				if err := tx.InsertTrace(ctx, kb.Trace{ID: id, Tool: "appraise", Session: "history", CreatedAt: at}); err != nil {
					return err
				}
				if err := tx.InsertVerdict(ctx, kb.VerdictRecord{TraceID: id, Session: "history", CreatedAt: at, Mode: appraise.Focus, Band: appraise.Medium, Valence: valence,
					Directional: valence, Strength: strength, Confidence: strength, HasCandidate: true}); err != nil {
					return err
				}
				if err := tx.SetVerdictOutcome(ctx, id, out, nil, at.Add(time.Hour)); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	// One regulator change, revertible.
	if _, err := db.Regulate(ctx, func(map[string]float64, []regulate.Change) regulate.Result {
		h := float64(k.HesitationConfig().HedgeThreshold)
		return regulate.Result{Changes: []regulate.Change{{Kind: regulate.KindChange, Param: regulate.ParamHesitationHedge, Before: h, After: h + 2,
			Metric: "hesitation.confirm_ratio", MetricValue: 0.31, Severity: 0.4, Want: 1, At: time.Now().UTC().Add(-30 * time.Hour).Truncate(time.Second),
			Reason: "hesitation.confirm_ratio = 0.31 outside [0.5, 1]: raise the hedge threshold"}}}
	}); err != nil {
		tb.Fatal(err)
	}
	if e.ruleID == "" {
		tb.Fatal("the seeded search returned no lesson")
	}
	srv, err := New(Config{Store: db, KB: k, Addr: "127.0.0.1:8999", Where: "test.db"})
	if err != nil {
		tb.Fatal(err)
	}
	e.srv = srv
	return e
}

// letters spells n in base 26 with the letters a to z.
func letters(n int) string {
	s := ""
	for {
		s = string(rune('a'+n%26)) + s
		n /= 26
		if n == 0 {
			return "mod" + s
		}
	}
}

// ruleFile is a real rule file of the shared evaluation data, or a small
// one of the same kind when the data is absent.
func ruleFile(tb testing.TB) []byte {
	tb.Helper()
	if dir := evaldataDir(); dir != "" {
		if b, err := os.ReadFile(filepath.Join(dir, "rules", "rules", "astral-sh-ruff.md")); err == nil {
			return b
		}
	}
	return []byte("# Ruff\n\n## Running Tests\n\nRun a specific crate's tests with `cargo nextest run -p CRATE`.\n\nUpdate insta snapshots after running tests with `cargo insta accept`.\n\n## Running Clippy\n\nRun `cargo clippy --workspace --all-targets --all-features -- -D warnings` on the workspace.\n")
}

// evaldataDir is the shared evaluation data's directory (as evaldata.Dir
// finds it), "" when absent.
func evaldataDir() string {
	if d := os.Getenv("INNATE_EVAL_DIR"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for dir := wd; filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if st, err := os.Stat(filepath.Join(dir, "shared", "eval")); err == nil && st.IsDir() {
			return filepath.Join(dir, "shared", "eval")
		}
	}
	return ""
}

// session logs in with the one-time token and returns the session cookie
// and the CSRF token of the session.
func (e *testEnv) session(tb testing.TB) (*http.Cookie, string) {
	tb.Helper()
	u, _ := url.Parse(e.srv.LoginURL())
	rec := e.do(httptest.NewRequest("GET", u.RequestURI(), nil), nil)
	if rec.Code != http.StatusSeeOther {
		tb.Fatalf("login: %d %s", rec.Code, rec.Body)
	}
	var c *http.Cookie
	for _, k := range rec.Result().Cookies() {
		if k.Name == cookieName {
			c = k
		}
	}
	if c == nil {
		tb.Fatal("login set no session cookie")
	}
	req := httptest.NewRequest("GET", "/", nil)
	req.AddCookie(c)
	csrf, ok := e.srv.sessions.csrfOf(req)
	if !ok {
		tb.Fatal("no CSRF token for the session")
	}
	return c, csrf
}

// do serves one request with the dashboard's Host (unless set) and a
// cookie.
func (e *testEnv) do(r *http.Request, c *http.Cookie) *httptest.ResponseRecorder {
	if r.Host == "example.com" {
		r.Host = "127.0.0.1:8999"
	}
	if c != nil {
		r.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	e.srv.ServeHTTP(rec, r)
	return rec
}
