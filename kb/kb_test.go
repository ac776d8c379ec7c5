package kb_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// env is a KB over a real SQLite store in a temporary directory.
type env struct {
	kb   *kb.KB
	db   *storage.DB
	path string
}

func newEnv(tb testing.TB, opts ...func(*kb.Config)) *env {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "kb.db")
	return openEnv(tb, path, opts...)
}

func openEnv(tb testing.TB, path string, opts ...func(*kb.Config)) *env {
	tb.Helper()
	db, err := storage.Open(context.Background(), path, storage.Options{})
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	cfg := kb.Config{Store: db, Embedder: fakeembed.New(256), Session: "test-session"}
	for _, o := range opts {
		o(&cfg)
	}
	k, err := kb.New(cfg)
	if err != nil {
		tb.Fatalf("kb.New: %v", err)
	}
	return &env{kb: k, db: db, path: path}
}

func (e *env) add(tb testing.TB, lessons ...kb.NewLesson) []string {
	tb.Helper()
	rep, err := e.kb.Add(context.Background(), lessons, nil)
	if err != nil {
		tb.Fatalf("add: %v", err)
	}
	ids := make([]string, len(rep.Items))
	for i, it := range rep.Items {
		if it.Status == kb.AddRejected {
			tb.Fatalf("lesson %d rejected: %s", i, it.Reason)
		}
		ids[i] = it.ID
	}
	return ids
}

func (e *env) recall(tb testing.TB, req kb.RecallRequest) kb.RecallResult {
	tb.Helper()
	res, err := e.kb.Recall(context.Background(), req)
	if err != nil {
		tb.Fatalf("recall %q: %v", req.Query, err)
	}
	return res
}

func ids(res kb.RecallResult) []string {
	var out []string
	for _, l := range res.Lessons {
		out = append(out, l.ID)
	}
	return out
}

var baseLessons = []kb.NewLesson{
	{ID: "nil-map", Content: "Initialise a Go map with make before writing to it; writing to a nil map panics.", Trigger: "writing to a map in Go, assignment to entry in nil map panic"},
	{ID: "sql-tx", Content: "Keep SQLite write transactions short and use BEGIN IMMEDIATE so writers do not deadlock.", Trigger: "sqlite database locked busy errors with concurrent writers"},
	{ID: "react-keys", Content: "Give every React list item a stable key prop; never use the array index as key when items reorder.", Trigger: "rendering lists in React components"},
}

func TestRecall_findsRelevantAndStaysHonest(t *testing.T) {
	e := newEnv(t)
	e.add(t, baseLessons...)

	res := e.recall(t, kb.RecallRequest{Query: "panic: assignment to entry in nil map when writing to a map"})
	if res.Empty || len(res.Lessons) == 0 || res.Lessons[0].ID != "nil-map" {
		t.Fatalf("recall nil map = %v (empty %v), want nil-map first", ids(res), res.Empty)
	}
	if res.TraceID == "" || res.Lessons[0].Why == "" || res.Lessons[0].Breakdown.Resonance <= 0 {
		t.Fatalf("missing trace id, why or breakdown: %+v", res)
	}

	res = e.recall(t, kb.RecallRequest{Query: "bake a chocolate cake with vanilla frosting"})
	if !res.Empty || len(res.Lessons) != 0 {
		t.Fatalf("unrelated query returned %v, want empty", ids(res))
	}
	if res.Note == "" {
		t.Fatal("empty recall has no note")
	}
}

func TestRecall_inputErrors(t *testing.T) {
	e := newEnv(t)
	tests := []kb.RecallRequest{
		{Query: ""},
		{Query: "   "},
		{Query: strings.Repeat("x", kb.MaxQueryBytes+1)},
		{Query: "ok", Top: -1},
		{Query: "ok", Top: kb.MaxTop + 1},
		{Query: "ok", BudgetTokens: -5},
		{Query: "bad \xff utf8"},
	}
	for _, req := range tests {
		_, err := e.kb.Recall(context.Background(), req)
		if !errors.Is(err, kb.ErrInput) {
			t.Errorf("Recall(%.40q top=%d) err = %v, want ErrInput", req.Query, req.Top, err)
		}
	}
}

// httpRules is a rule file imported as one lesson: a document, much longer
// than a lesson recall returns whole.
const httpRules = `# HTTP client rules

These rules apply to every service that calls another over HTTP.

## Timeouts
- Give every http.Client a Timeout; the zero value waits forever.
- Pass a context with a deadline to every outbound request.
- Do not share one client between services with different deadlines.

## Retries
- Retry failed HTTP requests with exponential backoff and jitter.
- Retry only idempotent requests: GET, PUT, DELETE, never a bare POST.
- Cap retries at five attempts and log the last error.

## Bodies
- Always close the response body, even when you do not read it.
- Drain the body before closing it so the connection is reused.
- Limit how much of a body you read with io.LimitReader.

## Testing
- Use httptest.Server for clients, never the real network.
- Assert on the request the server saw, not only on the response.
`

func TestRecall_longLessonComesBackAsExcerpt(t *testing.T) {
	e := newEnv(t)
	short := "When retrying HTTP requests use exponential backoff with jitter so clients do not retry in lockstep."
	e.add(t, kb.NewLesson{ID: "doc", Content: httpRules, Trigger: "calling services over HTTP"},
		kb.NewLesson{ID: "short", Content: short, Trigger: "retrying failed HTTP requests"})
	if len(httpRules) <= kb.LessonBudgetBytes || len(short) > kb.LessonBudgetBytes {
		t.Fatalf("fixture sizes %d and %d do not straddle the budget %d", len(httpRules), len(short), kb.LessonBudgetBytes)
	}
	res := e.recall(t, kb.RecallRequest{Query: "retrying failed HTTP requests with exponential backoff and jitter"})
	got := map[string]kb.RecalledLesson{}
	for _, l := range res.Lessons {
		got[l.ID] = l
	}
	doc, ok := got["doc"]
	if !ok {
		t.Fatalf("recall = %v, want the rule document among the lessons", ids(res))
	}
	if !doc.Truncated || len(doc.Content) > kb.LessonBudgetBytes {
		t.Fatalf("long lesson: truncated %v, %d bytes, want an excerpt of at most %d", doc.Truncated, len(doc.Content), kb.LessonBudgetBytes)
	}
	for _, want := range []string{"# HTTP client rules", "## Retries", "Retry failed HTTP requests with exponential backoff and jitter."} {
		if !strings.Contains(doc.Content, want) {
			t.Errorf("excerpt lacks %q:\n%s", want, doc.Content)
		}
	}
	if strings.Contains(doc.Content, "httptest.Server") {
		t.Errorf("excerpt holds the unrelated Testing section:\n%s", doc.Content)
	}
	if !strings.Contains(doc.Why, kb.LessonURI("doc")) {
		t.Errorf("why = %q, want it to say where the whole lesson is (%s)", doc.Why, kb.LessonURI("doc"))
	}
	if s, ok := got["short"]; !ok || s.Truncated || s.Content != short || strings.Contains(s.Why, "innate://") {
		t.Fatalf("short lesson = %+v (returned %v), want it whole", s, ok)
	}
}

func TestRecall_budgetTokens(t *testing.T) {
	e := newEnv(t)
	long := strings.Repeat("Always check the error returned by os.Open before using the file. ", 40)
	e.add(t, kb.NewLesson{ID: "long", Content: long, Trigger: "opening files in Go os.Open error"},
		kb.NewLesson{ID: "short", Content: "Check os.Open errors.", Trigger: "os.Open error handling"},
		kb.NewLesson{ID: "doc", Content: httpRules, Trigger: "calling services over HTTP"})
	const files, retries = "os.Open error handling when opening files", "retrying failed HTTP requests with exponential backoff and jitter"
	for _, tc := range []struct {
		query     string
		budget    int
		wantFirst string
		wantIn    string // what the first lesson's content holds
		truncated bool
	}{
		{files, 40, "long", "os.Open", true},
		{files, 400, "long", "Always check the error returned by os.Open before using the file.", true},
		// The first lesson is cut to the budget: still the passage that matches.
		{retries, 40, "doc", "backoff", true},
		{retries, 60, "doc", "Retry failed HTTP requests with exponential backoff and jitter.", true},
		{retries, 1000, "doc", "Retry failed HTTP requests with exponential backoff and jitter.", true},
	} {
		t.Run(fmt.Sprintf("%.20s/%d", tc.query, tc.budget), func(t *testing.T) {
			res := e.recall(t, kb.RecallRequest{Query: tc.query, BudgetTokens: tc.budget})
			if len(res.Lessons) == 0 {
				t.Fatal("nothing recalled")
			}
			total := 0
			for _, l := range res.Lessons {
				total += (len(l.Content)+3)/4 + (len(l.Trigger)+3)/4
				if len(l.Content) > kb.LessonBudgetBytes {
					t.Errorf("lesson %s: %d bytes, over the per-lesson budget", l.ID, len(l.Content))
				}
			}
			if total > tc.budget {
				t.Fatalf("%d lessons, ~%d tokens: over the budget %d", len(res.Lessons), total, tc.budget)
			}
			first := res.Lessons[0]
			if first.ID != tc.wantFirst || first.Truncated != tc.truncated || !strings.Contains(first.Content, tc.wantIn) {
				t.Fatalf("first lesson %s (truncated %v):\n%s\nwant %s (truncated %v) holding %q",
					first.ID, first.Truncated, first.Content, tc.wantFirst, tc.truncated, tc.wantIn)
			}
		})
	}
}

func TestRecall_atMostOnePending(t *testing.T) {
	e := newEnv(t)
	var nls []kb.NewLesson
	for i, c := range []string{"first", "second", "third"} {
		nls = append(nls, kb.NewLesson{ID: "p" + string(rune('0'+i)), Origin: kb.OriginAgentInferred,
			Content: "When retrying HTTP requests use exponential backoff with jitter, " + c + " variant.",
			Trigger: "retrying failed HTTP requests"})
	}
	e.add(t, nls...)
	res := e.recall(t, kb.RecallRequest{Query: "retrying failed HTTP requests with backoff"})
	pending := 0
	for _, l := range res.Lessons {
		if l.State == kb.StatePending {
			pending++
		}
	}
	if pending != 1 {
		t.Fatalf("pending lessons returned = %d (%v), want exactly 1", pending, ids(res))
	}
}

func TestRecall_projectScope(t *testing.T) {
	e := newEnv(t)
	content := "Run go generate before building the protobuf stubs."
	e.add(t,
		kb.NewLesson{ID: "mine", Project: "/src/a", Content: content + " (project a)", Trigger: "building protobuf stubs"},
		kb.NewLesson{ID: "theirs", Project: "/src/b", Content: content + " (project b)", Trigger: "building protobuf stubs"},
	)
	res := e.recall(t, kb.RecallRequest{Query: "building protobuf stubs go generate", Project: "/src/a"})
	got := ids(res)
	if len(got) == 0 || got[0] != "mine" {
		t.Fatalf("project a recall = %v, want its own lesson first", got)
	}
	// A weak match from another project does not appear.
	res = e.recall(t, kb.RecallRequest{Query: "stubs", Project: "/src/c"})
	for _, l := range res.Lessons {
		if l.Breakdown.Resonance < kb.DefaultWeights().StrongMatch {
			t.Fatalf("weak other-project lesson %s returned (resonance %.2f)", l.ID, l.Breakdown.Resonance)
		}
	}
}

func TestRecall_antiTriggerPenalty(t *testing.T) {
	e := newEnv(t)
	e.add(t, kb.NewLesson{ID: "fmt", Content: "Use fmt.Errorf with %w to wrap errors.",
		Trigger: "wrapping errors in Go", AntiTrigger: "Go versions before 1.13"})
	plain := e.recall(t, kb.RecallRequest{Query: "wrapping errors in Go with fmt.Errorf"})
	anti := e.recall(t, kb.RecallRequest{Query: "wrapping errors in Go with fmt.Errorf on Go versions before 1.13"})
	if len(plain.Lessons) == 0 {
		t.Fatal("plain query found nothing")
	}
	if len(anti.Lessons) > 0 && (!anti.Lessons[0].Breakdown.AntiTrigger || anti.Lessons[0].Score >= plain.Lessons[0].Score) {
		t.Fatalf("anti-trigger did not lower the score: plain %.3f, anti %+v", plain.Lessons[0].Score, anti.Lessons[0])
	}
}

func TestKB_embedderMismatch(t *testing.T) {
	e := newEnv(t)
	e.add(t, baseLessons[0])
	other, err := kb.New(kb.Config{Store: e.db, Embedder: fakeembed.New(256).Named("other-model")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = other.Recall(context.Background(), kb.RecallRequest{Query: "nil map"})
	if !errors.Is(err, kb.ErrEmbedderMismatch) || !strings.Contains(err.Error(), "innate-mcp reembed") {
		t.Fatalf("err = %v, want ErrEmbedderMismatch naming innate-mcp reembed", err)
	}
}

func TestKB_twoProcessesSeeEachOther(t *testing.T) {
	a := newEnv(t)
	b := openEnv(t, a.path)
	// B builds its index first, then A writes: B must see it on its next call.
	if res := b.recall(t, kb.RecallRequest{Query: "goroutine leak in worker pool"}); !res.Empty {
		t.Fatalf("fresh KB not empty: %v", ids(res))
	}
	_, err := a.kb.Record(context.Background(), kb.RecordRequest{Lesson: &kb.LessonInput{
		Content: "Always stop worker goroutines through context cancellation to avoid goroutine leaks.",
		Trigger: "goroutine leak in worker pool", Origin: kb.OriginUserStated}})
	if err != nil {
		t.Fatal(err)
	}
	res := b.recall(t, kb.RecallRequest{Query: "goroutine leak in worker pool"})
	if res.Empty {
		t.Fatal("B did not see the lesson A recorded")
	}
}

func TestKB_nowIsUsed(t *testing.T) {
	fixed := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, func(c *kb.Config) { c.Now = func() time.Time { return fixed } })
	id := e.add(t, baseLessons[0])[0]
	l, err := e.db.Lesson(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if !l.CreatedAt.Equal(fixed) {
		t.Fatalf("created_at = %v, want %v", l.CreatedAt, fixed)
	}
}

func TestKB_reembedFixesMismatch(t *testing.T) {
	a := newEnv(t)
	a.add(t, baseLessons...)
	a.recall(t, kb.RecallRequest{Query: "nil map panic"}) // a's index is built at dim 256
	b := openEnv(t, a.path, func(c *kb.Config) { c.Embedder = fakeembed.New(128).Named("other-model") })
	if _, err := b.kb.Recall(context.Background(), kb.RecallRequest{Query: "nil map"}); !errors.Is(err, kb.ErrEmbedderMismatch) {
		t.Fatalf("before reembed: %v", err)
	}
	n, err := b.kb.Reembed(context.Background(), nil)
	if err != nil || n != len(baseLessons) {
		t.Fatalf("reembed: %d, %v", n, err)
	}
	res := b.recall(t, kb.RecallRequest{Query: "panic: assignment to entry in nil map"})
	if res.Empty || res.Lessons[0].ID != "nil-map" {
		t.Fatalf("after reembed: %v", ids(res))
	}
	// The first process now refuses (its embedder is no longer the
	// database's) instead of mixing dimensions.
	other, _ := kb.New(kb.Config{Store: a.db, Embedder: fakeembed.New(256)})
	if _, err := other.Recall(context.Background(), kb.RecallRequest{Query: "nil map"}); !errors.Is(err, kb.ErrEmbedderMismatch) {
		t.Fatalf("old embedder after reembed: %v", err)
	}
}

// TestRecall_readsTyposAgainstTheVocabulary: a query whose only
// distinctive word is misspelt, or two words run together, still finds the
// lesson that holds them, and the result says how the query was read.
func TestRecall_readsTyposAgainstTheVocabulary(t *testing.T) {
	e := newEnv(t)
	e.add(t, baseLessons...)
	for _, tc := range []struct{ query, want, term string }{
		{"transactoins", "sql-tx", "transactoin"},
		{"reactlist", "react-keys", "reactlist"},
	} {
		res := e.recall(t, kb.RecallRequest{Query: tc.query})
		if res.Empty || res.Lessons[0].ID != tc.want {
			t.Errorf("recall %q = %v (empty %v), want %s first", tc.query, ids(res), res.Empty, tc.want)
		}
		if len(res.ReadAs) != 1 || res.ReadAs[0].Term != tc.term || len(res.ReadAs[0].As) == 0 {
			t.Errorf("recall %q read as %+v, want one repair of %q", tc.query, res.ReadAs, tc.term)
		}
	}
	// Known words are never rewritten.
	if res := e.recall(t, kb.RecallRequest{Query: "sqlite transactions"}); len(res.ReadAs) != 0 {
		t.Errorf("known words read as %+v", res.ReadAs)
	}
}

// TestRecall_goingIsNotGo: "going to" shares no term with a lesson about the
// Go language (package terms never stems a word into a two-letter name).
func TestRecall_goingIsNotGo(t *testing.T) {
	e := newEnv(t)
	e.add(t, kb.NewLesson{ID: "go-errors", Content: "In Go, wrap errors with fmt.Errorf and %w.", Trigger: "writing Go code"},
		kb.NewLesson{ID: "go-vet", Content: "Run go vet before committing Go changes.", Trigger: "Go"})
	res := e.recall(t, kb.RecallRequest{Query: "I'm going to refactor the parser"})
	if !res.Empty || len(res.Lessons) != 0 {
		t.Fatalf("recall of \"going to\" = %v (%+v), want nothing: the lessons are about the Go language", ids(res), res.Lessons)
	}
	res = e.recall(t, kb.RecallRequest{Query: "writing Go code"})
	if len(res.Lessons) == 0 || res.Lessons[0].ID != "go-errors" {
		t.Fatalf("recall of \"writing Go code\" = %v, want go-errors first", ids(res))
	}
}
