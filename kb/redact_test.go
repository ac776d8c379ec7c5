package kb_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
)

const (
	fakeGitHub   = "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"
	fakePassword = "Tr0ub4dorX3qLm"
)

// recordingEmbedder keeps every text it embeds.
type recordingEmbedder struct {
	*fakeembed.Embedder
	mu    sync.Mutex
	texts []string
}

func (r *recordingEmbedder) Embed(ctx context.Context, text string) ([]float32, error) {
	r.mu.Lock()
	r.texts = append(r.texts, text)
	r.mu.Unlock()
	return r.Embedder.Embed(ctx, text)
}

func (r *recordingEmbedder) EmbedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	r.mu.Lock()
	r.texts = append(r.texts, texts...)
	r.mu.Unlock()
	return r.Embedder.EmbedBatch(ctx, texts)
}

// TestKB_embedderNeverSeesASecret: whatever calls the KB's embedder, the
// text reaches it redacted.
func TestKB_embedderNeverSeesASecret(t *testing.T) {
	rec := &recordingEmbedder{Embedder: fakeembed.New(64)}
	e := newEnv(t, func(c *kb.Config) { c.Embedder = rec })
	ctx := context.Background()
	secret := "the token is " + fakeGitHub
	if _, err := e.kb.Embedder().Embed(ctx, secret); err != nil {
		t.Fatal(err)
	}
	if _, err := e.kb.Embedder().EmbedBatch(ctx, []string{"ok", secret}); err != nil {
		t.Fatal(err)
	}
	e.record(t, kb.RecordRequest{Lesson: &kb.LessonInput{Content: "Never paste " + secret, Trigger: "sharing " + secret, Origin: kb.OriginUserStated}})
	e.recall(t, kb.RecallRequest{Query: "paste " + secret, Error: secret, Files: []string{fakeGitHub + ".txt"}})
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.texts) < 5 {
		t.Fatalf("embedded %d texts, want at least 5", len(rec.texts))
	}
	for _, text := range rec.texts {
		if strings.Contains(text, fakeGitHub) {
			t.Errorf("the embedder received %q", text)
		}
	}
}

// TestHesitate_checksTheDraftRedacted: signals quote no secret, even one
// that only its name marks as such, and spans still point into the draft as
// given.
func TestHesitate_checksTheDraftRedacted(t *testing.T) {
	e := newEnv(t)
	draft := "Logged in with " + fakeGitHub + " and password=" + fakePassword + ", it definitely works."
	res := e.hesitate(t, kb.HesitateRequest{Draft: draft, Actions: []string{"push"}})
	var claim *hesitation.Signal
	for i, s := range res.Signals {
		if strings.Contains(s.Detail, fakeGitHub) || strings.Contains(s.Detail, fakePassword) {
			t.Errorf("signal %s quotes a secret: %s", s.Type, s.Detail)
		}
		if s.Type == hesitation.SignalAbsoluteClaim {
			claim = &res.Signals[i]
		}
	}
	if claim == nil {
		t.Fatalf("no absolute claim among %+v", res.Signals)
	}
	if got := draft[claim.Span.Start:claim.Span.End]; got != "definitely" {
		t.Errorf("absolute claim span covers %q of the draft, want %q", got, "definitely")
	}
}

// TestRecord_correctionKeywordsAreRedacted: keywords become an error
// pattern's lower-cased keywords, which no later redaction could recognise.
func TestRecord_correctionKeywordsAreRedacted(t *testing.T) {
	e := newEnv(t)
	res := e.record(t, kb.RecordRequest{Correction: &kb.CorrectionInput{Text: "Wrong: you printed the deploy credentials.",
		Keywords: []string{"credentials", "AKIAQ7ZL3RK9TXW2MB5N"}}})
	if res.PatternID == "" || res.Redacted != 1 {
		t.Fatalf("record: %+v, want a pattern and one redaction", res)
	}
	ps, err := e.db.ErrorPatterns(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		for _, kw := range p.Keywords {
			if strings.Contains(strings.ToLower(kw), "akiaq7zl3rk9") {
				t.Errorf("pattern %s keeps keyword %q", p.ID, kw)
			}
		}
	}
}

// TestLesson_refusesNULBytes: a NUL byte in a lesson's text is refused
// with an input error naming the field, by record and by import, and
// nothing is stored.
func TestLesson_refusesNULBytes(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for _, in := range []kb.LessonInput{
		{Content: "Run gofmt\x00 before committing."},
		{Content: "Run gofmt before committing.", Trigger: "committing\x00 Go"},
		{Content: "Run gofmt before committing.", AntiTrigger: "\x00"},
		{Content: "Run gofmt before committing.", Tags: []string{"go\x00"}},
	} {
		_, err := e.kb.Record(ctx, kb.RecordRequest{Lesson: &in})
		var ie *kb.InputError
		if !errors.As(err, &ie) || !strings.Contains(ie.Error(), "NUL") || !strings.HasPrefix(ie.Field, "lesson.") {
			t.Errorf("record %+v: err = %v, want an input error about the NUL byte naming the field", in, err)
		}
	}
	rep, err := e.kb.Add(ctx, []kb.NewLesson{{Content: "Prefer table tests.\x00"}, {Content: "Prefer table tests."}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rejected != 1 || rep.Added != 1 || rep.Items[0].Status != kb.AddRejected || !strings.Contains(rep.Items[0].Reason, "NUL") {
		t.Errorf("import: %+v, want the lesson with a NUL byte rejected and the other added", rep)
	}
	err = e.db.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
		if strings.ContainsRune(l.Content+l.Trigger+l.AntiTrigger+strings.Join(l.Tags, ""), 0) {
			t.Errorf("lesson %s stored with a NUL byte: %q", l.ID, l.Content)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
