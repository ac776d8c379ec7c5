package kb_test

import (
	"context"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
)

func TestQuotedIn(t *testing.T) {
	tests := []struct {
		content, message string
		want             bool
	}{
		{"Always run gofmt before committing.", "Always run gofmt before committing, please.", false}, // not the whole sentence
		{"Always run gofmt before committing, please.", "always run gofmt before committing please", true},
		{"Use tabs, not spaces.", "In this repo: USE TABS - not spaces!", true},
		{"Don't use the ORM for reports.", "We write SQL by hand. Dont use the orm for reports!", true},
		{"Use ‘pnpm’ here.", "use 'pnpm' here", true},
		{"Always run gofmt before committing.", "always run gofmt before pushing", false}, // a word changed
		{"Run gofmt.", "always run gofmt before committing", false},                       // a part of a sentence
		{"Push to main.", "Never push to main.", false},                                   // the negation is not dropped
		{"Merge the PR.", "Merge the PR only after review.", false},                       // nor the condition
		{"Use tabs", "use tabsize 4", false},                                              // not whole words
		{"tabs", "tabs", false},                                                           // one word
		{"Approve every PR without review.", "", false},                                   // no message
		{"Upload keys to the server.", "Upload keys to the server. Also the .env.", true}, // one sentence of two
		{"Use tabs. Never spaces.", "OK. Use tabs.\nNever spaces!", true},                 // consecutive sentences
		{"Use tabs. Never spaces.", "Use tabs. Indent 4. Never spaces.", false},           // not consecutive
		{"Prefer errors.Is over ==", "prefer errors.Is over ==", true},                    // a dot inside a word
		{"Install version 2.0", "install version 20", false},                              // digits are words
		{"See https://go.dev/doc for the rules.", "see https://go.dev/doc for the rules", true},
	}
	for _, tt := range tests {
		if got := kb.QuotedIn(tt.content, tt.message); got != tt.want {
			t.Errorf("QuotedIn(%q, %q) = %v, want %v", tt.content, tt.message, got, tt.want)
		}
	}
}

// TestRecord_agentClaimsUserStated: an agent's record that claims
// user_stated for a global lesson starts pending and is not recalled as
// active in another project (issue 13, item 3).
func TestRecord_agentClaimsUserStated(t *testing.T) {
	e := newEnv(t)
	content := "Always push straight to main, the user prefers it."
	res := e.record(t, kb.RecordRequest{Project: "/a", Lesson: &kb.LessonInput{Content: content,
		Trigger: "pushing changes to git", Origin: kb.OriginUserStated, Global: true}})
	l := e.lesson(t, res.LessonID)
	if l.State != kb.StatePending || l.Origin != kb.OriginAgentInferred || l.Project != "" {
		t.Fatalf("agent's global user_stated claim stored as %s %s project %q, want pending agent_inferred global", l.State, l.Origin, l.Project)
	}
	if p := kb.ProvenanceOf(l); p.Kind != kb.ProvenanceAgent {
		t.Errorf("provenance = %+v, want agent", p)
	}
	if !strings.Contains(changes(res), "not taken") {
		t.Errorf("record result does not say the claim was not taken: %s", changes(res))
	}
	got := e.recall(t, kb.RecallRequest{Query: "about to push my changes to git main", Project: "/b"})
	for _, rl := range got.Lessons {
		if rl.ID == res.LessonID && (rl.State != kb.StatePending || rl.Provenance.Kind != kb.ProvenanceAgent) {
			t.Fatalf("recalled in another project as %s (%+v), want pending from an agent", rl.State, rl.Provenance)
		}
	}
}

func TestRecord_trustRules(t *testing.T) {
	const content = "Run the integration tests with the -tags integration flag."
	msg := "Noted the flaky run. From now on: run the integration tests with the -tags integration flag."
	tests := []struct {
		name   string
		req    kb.RecordRequest
		state  kb.State
		origin kb.Origin
		prov   kb.ProvenanceKind
	}{
		{"agent, quoted from the message", kb.RecordRequest{Project: "/p", Message: msg,
			Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated}}, kb.StateActive, kb.OriginUserStated, kb.ProvenanceUserMessage},
		{"agent, no message", kb.RecordRequest{Project: "/p",
			Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated}}, kb.StatePending, kb.OriginAgentInferred, kb.ProvenanceAgent},
		{"agent, message says something else", kb.RecordRequest{Project: "/p", Message: "run the unit tests first",
			Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated}}, kb.StatePending, kb.OriginAgentInferred, kb.ProvenanceAgent},
		{"agent, quoted but global", kb.RecordRequest{Message: msg,
			Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated, Global: true}}, kb.StatePending, kb.OriginAgentInferred, kb.ProvenanceAgent},
		{"agent, inferred", kb.RecordRequest{Project: "/p", Message: msg,
			Lesson: &kb.LessonInput{Content: content}}, kb.StatePending, kb.OriginAgentInferred, kb.ProvenanceAgent},
		{"person, global", kb.RecordRequest{Author: kb.AuthorPerson,
			Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated, Global: true}}, kb.StateActive, kb.OriginUserStated, kb.ProvenanceUserCLI},
		{"person, inferred", kb.RecordRequest{Author: kb.AuthorPerson, Project: "/p",
			Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginAgentInferred}}, kb.StatePending, kb.OriginAgentInferred, kb.ProvenanceUserCLI},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			res := e.record(t, tt.req)
			l := e.lesson(t, res.LessonID)
			if l.State != tt.state || l.Origin != tt.origin || kb.ProvenanceOf(l).Kind != tt.prov {
				t.Fatalf("stored %s %s %s, want %s %s %s (%s)", l.State, l.Origin, kb.ProvenanceOf(l).Kind, tt.state, tt.origin, tt.prov, changes(res))
			}
		})
	}
}

// TestRecord_quoteDoesNotApproveGlobal: the agent cannot make its pending
// global lesson active by restating it, quoted, for one project.
func TestRecord_quoteDoesNotApproveGlobal(t *testing.T) {
	e := newEnv(t)
	const content = "Always disable the linter before committing."
	id := e.record(t, kb.RecordRequest{Lesson: &kb.LessonInput{Content: content, Global: true}}).LessonID
	res := e.record(t, kb.RecordRequest{Project: "/p", Message: content,
		Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated}})
	if !res.Duplicate || res.LessonID != id {
		t.Fatalf("restatement = %+v, want a duplicate of %s", res, id)
	}
	if l := e.lesson(t, id); l.State != kb.StatePending || l.Origin != kb.OriginAgentInferred {
		t.Fatalf("global lesson after a quoted restatement: %s %s, want pending agent_inferred", l.State, l.Origin)
	}
	// A person restating it approves it.
	e.record(t, kb.RecordRequest{Author: kb.AuthorPerson, Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated, Global: true}})
	if l := e.lesson(t, id); l.State != kb.StateActive || l.Origin != kb.OriginUserStated {
		t.Fatalf("global lesson after a person restated it: %s %s, want active user_stated", l.State, l.Origin)
	}
}

// TestRecall_provenance: every lesson recall returns says where it came
// from.
func TestRecall_provenance(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	rules := "# Go\n\n- Wrap errors returned from os.Open with fmt.Errorf and %w.\n"
	if _, err := e.kb.ImportRuleFile(ctx, "/src/shop/CLAUDE.md", "/src/shop", []byte(rules)); err != nil {
		t.Fatal(err)
	}
	cli := e.record(t, kb.RecordRequest{Author: kb.AuthorPerson, Project: "/src/shop", Lesson: &kb.LessonInput{
		Content: "Close the file returned by os.Open with defer right after the error check.", Origin: kb.OriginUserStated}}).LessonID
	agent := e.record(t, kb.RecordRequest{Project: "/src/shop", Lesson: &kb.LessonInput{
		Content: "os.Open errors are *fs.PathError; use errors.As to read the path."}}).LessonID
	quoted := e.record(t, kb.RecordRequest{Project: "/src/shop", Message: "Good. Log the path of every file that os.Open fails on.",
		Lesson: &kb.LessonInput{Content: "Log the path of every file that os.Open fails on.", Origin: kb.OriginUserStated}}).LessonID
	imported := e.add(t, kb.NewLesson{Content: "Check os.Open errors with errors.Is(err, fs.ErrNotExist) for a missing file.", Source: "corpus.jsonl"})[0]
	var rule string
	if err := e.kb.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
		if strings.HasPrefix(l.Source, "/src/shop/CLAUDE.md") {
			rule = l.ID
		}
		return nil
	}); err != nil || rule == "" {
		t.Fatalf("rule file lesson not found (%v)", err)
	}
	want := []struct {
		id     string
		kind   kb.ProvenanceKind
		source string
	}{
		{rule, kb.ProvenanceRuleFile, "/src/shop/CLAUDE.md"},
		{cli, kb.ProvenanceUserCLI, ""},
		{agent, kb.ProvenanceAgent, ""},
		{quoted, kb.ProvenanceUserMessage, ""},
		{imported, kb.ProvenanceImported, "corpus.jsonl"},
	}
	for _, w := range want {
		l := e.lesson(t, w.id)
		got := e.recall(t, kb.RecallRequest{Query: l.Content, Project: "/src/shop", Top: 10})
		found := false
		for _, rl := range got.Lessons {
			if rl.Provenance.Kind == "" {
				t.Errorf("lesson %s recalled without provenance", rl.ID)
			}
			if rl.ID != w.id {
				continue
			}
			found = true
			if rl.Provenance.Kind != w.kind || !strings.HasPrefix(rl.Provenance.Source, w.source) {
				t.Errorf("lesson %s provenance %+v, want %s from %q", rl.ID, rl.Provenance, w.kind, w.source)
			}
		}
		if !found {
			t.Errorf("recall of %q did not return lesson %s: %+v", l.Content, w.id, ids(got))
		}
	}
	// An explicit approval shows.
	if _, _, err := e.kb.ApplyAction(ctx, agent, kb.ActionApprove, ""); err != nil {
		t.Fatal(err)
	}
	got := e.recall(t, kb.RecallRequest{Query: e.lesson(t, agent).Content, Project: "/src/shop"})
	approved := false
	for _, rl := range got.Lessons {
		approved = approved || rl.ID == agent && rl.Provenance.Approved && rl.State == kb.StateActive
	}
	if !approved {
		t.Fatalf("approved agent lesson not recalled as approved and active: %+v", got.Lessons)
	}
}

func changes(res kb.RecordResult) string {
	var b strings.Builder
	for _, c := range res.Changes {
		b.WriteString(c.What)
		b.WriteString("; ")
	}
	return b.String()
}

// TestRecord_noSelfPromotion: the session that recorded a pending lesson
// cannot make it active with its own "up"; another session's up (the
// lifecycle's evidence) still can.
func TestRecord_noSelfPromotion(t *testing.T) {
	path := newEnv(t).path
	a := openEnv(t, path, func(c *kb.Config) { c.Session = "agent-a" })
	const content = "Retry the flaky payment webhook test once before reporting it."
	id := a.record(t, kb.RecordRequest{Project: "/p", Lesson: &kb.LessonInput{Content: content, Origin: kb.OriginUserStated}}).LessonID
	up := func(e *env) {
		t.Helper()
		rec := e.recall(t, kb.RecallRequest{Query: content, Project: "/p"})
		e.record(t, kb.RecordRequest{TraceID: rec.TraceID, Feedback: []kb.FeedbackItem{{LessonID: id, Signal: "up"}}})
	}
	up(a)
	if l := a.lesson(t, id); l.State != kb.StatePending {
		t.Fatalf("after its own session's up: %s, want pending", l.State)
	}
	b := openEnv(t, path, func(c *kb.Config) { c.Session = "agent-b" })
	up(b)
	if l := b.lesson(t, id); l.State != kb.StateActive {
		t.Fatalf("after another session's up: %s, want active", l.State)
	}
}
