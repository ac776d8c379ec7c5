package dashboard

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
)

// TestChecks_showAddAndSet: a rule's page shows its checks in words; a
// person adds a check (which then replaces the reader's for that rule),
// disables one, and a bad check is refused with what to fix, nothing
// written.
func TestChecks_showAddAndSet(t *testing.T) {
	e := newTestEnv(t, 0)
	ctx := context.Background()
	c, csrf := e.session(t)
	var pnpm kb.Lesson
	e.kb.Lessons(ctx, kb.LessonFilter{Project: "shop"}, func(l kb.Lesson) error {
		if strings.HasPrefix(l.Content, "Use pnpm") {
			pnpm = l
		}
		return nil
	})
	if pnpm.ID == "" {
		t.Fatal("no pnpm rule")
	}
	page := func() string {
		rec := e.do(httptest.NewRequest("GET", "/lessons/"+pnpm.ID, nil), c)
		if rec.Code != http.StatusOK {
			t.Fatalf("lesson page: %d", rec.Code)
		}
		return rec.Body.String()
	}
	if body := page(); !strings.Contains(body, "forbids running <code>npm") && !strings.Contains(body, "forbids running `npm") {
		t.Fatalf("the page does not show the reader's check:\n%s", body[strings.Index(body, "h-checks"):][:600])
	}
	rec := e.do(post("/lessons/"+pnpm.ID+"/checks", url.Values{"csrf": {csrf}, "what": {"forbid-command"}, "target": {"npm install"}, "instead": {"pnpm add"}}), c)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	cs, _ := e.kb.Checks(ctx, kb.CheckFilter{Lesson: pnpm.ID})
	var person string
	for _, x := range cs {
		if x.Check.From.By == "person" {
			person = x.ID
		}
	}
	if person == "" || len(kb.Enforced(cs)) != 1 {
		t.Fatalf("after add: %+v", cs)
	}
	if !strings.Contains(page(), "forbids running `npm install` (use pnpm add instead)") {
		t.Error("the page does not show the person's check")
	}
	rec = e.do(post("/lessons/"+pnpm.ID+"/checks/"+person, url.Values{"csrf": {csrf}, "state": {"disable"}}), c)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("disable: %d %s", rec.Code, rec.Body)
	}
	if x, _ := e.kb.Checks(ctx, kb.CheckFilter{Lesson: pnpm.ID}); x[len(x)-1].State != kb.CheckDisabled {
		t.Errorf("not disabled: %+v", x)
	}
	n := len(cs)
	rec = e.do(post("/lessons/"+pnpm.ID+"/checks", url.Values{"csrf": {csrf}, "what": {"forbid-command"}, "target": {"npm 'unclosed"}}), c)
	if rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "one simple command") {
		t.Errorf("bad command: %d %s", rec.Code, rec.Body)
	}
	if x, _ := e.kb.Checks(ctx, kb.CheckFilter{Lesson: pnpm.ID}); len(x) != n {
		t.Errorf("a refused check was written: %d checks, want %d", len(x), n)
	}
}
