package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
)

func post(path string, form url.Values) *http.Request {
	r := httptest.NewRequest("POST", path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

func TestSession_tokenOnceCookieCSRFAndHost(t *testing.T) {
	e := newTestEnv(t, 0)
	ctx := context.Background()
	if rec := e.do(httptest.NewRequest("GET", "/", nil), nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("no session: %d, want 401", rec.Code)
	}
	login, _ := url.Parse(e.srv.LoginURL())
	rec := e.do(httptest.NewRequest("GET", login.RequestURI(), nil), nil)
	if rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
		t.Fatalf("login: %d to %q, want 303 to /", rec.Code, rec.Header().Get("Location"))
	}
	c := rec.Result().Cookies()[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Name != cookieName {
		t.Errorf("cookie %+v, want HttpOnly SameSite=Strict", c)
	}
	if rec := e.do(httptest.NewRequest("GET", login.RequestURI(), nil), nil); rec.Code != http.StatusForbidden {
		t.Errorf("token reused: %d, want 403", rec.Code)
	}
	// The printed link opened again in the browser that holds the session:
	// the page, not a refusal.
	if rec := e.do(httptest.NewRequest("GET", login.RequestURI(), nil), c); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/" {
		t.Errorf("token reused with a valid session: %d to %q, want 303 to /", rec.Code, rec.Header().Get("Location"))
	}
	if rec := e.do(httptest.NewRequest("GET", "/", nil), c); rec.Code != http.StatusOK {
		t.Errorf("with the session: %d", rec.Code)
	}
	if rec := e.do(httptest.NewRequest("GET", "/", nil), &http.Cookie{Name: cookieName, Value: "forged"}); rec.Code != http.StatusUnauthorized {
		t.Errorf("forged cookie: %d, want 401", rec.Code)
	}
	r := httptest.NewRequest("GET", "/", nil)
	r.Host = "attacker.example:8999"
	if rec := e.do(r, c); rec.Code != http.StatusForbidden {
		t.Errorf("foreign Host (DNS rebinding): %d, want 403", rec.Code)
	}
	r = httptest.NewRequest("GET", "/lessons", nil)
	r.Host = "localhost:8999"
	if rec := e.do(r, c); rec.Code != http.StatusOK {
		t.Errorf("localhost with the port: %d, want 200", rec.Code)
	}

	csrf, _ := e.srv.sessions.csrfOf(withCookie(c))
	// A token one character off: a fixed first character would be the
	// right token whenever the real one starts with it.
	wrong := "0" + csrf[1:]
	if csrf[0] == '0' {
		wrong = "1" + csrf[1:]
	}
	approve := url.Values{"action": {"approve"}}
	for name, req := range map[string]*http.Request{
		"no CSRF token":    post("/lessons/"+e.pending+"/action", approve),
		"wrong CSRF token": post("/lessons/"+e.pending+"/action", url.Values{"action": {"approve"}, "csrf": {wrong}}),
		"foreign Origin": func() *http.Request {
			r := post("/lessons/"+e.pending+"/action", url.Values{"action": {"approve"}, "csrf": {csrf}})
			r.Header.Set("Origin", "http://attacker.example")
			return r
		}(),
	} {
		if rec := e.do(req, c); rec.Code != http.StatusForbidden {
			t.Errorf("%s: %d, want 403", name, rec.Code)
		}
	}
	if rec := e.do(post("/lessons/"+e.pending+"/action", url.Values{"action": {"approve"}, "csrf": {csrf}}), nil); rec.Code != http.StatusUnauthorized {
		t.Errorf("CSRF token without the session: %d, want 401", rec.Code)
	}
	if l, _ := e.kb.Lesson(ctx, e.pending); l.State != kb.StatePending {
		t.Fatalf("a refused request changed the lesson: %s", l.State)
	}
	before, _ := e.db.History(ctx, e.pending)
	r = post("/lessons/"+e.pending+"/action", url.Values{"action": {"approve"}, "csrf": {csrf}, "reason": {"checked it"}})
	r.Header.Set("Origin", "http://127.0.0.1:8999")
	if rec := e.do(r, c); rec.Code != http.StatusSeeOther {
		t.Fatalf("approve: %d %s", rec.Code, rec.Body)
	}
	if l, _ := e.kb.Lesson(ctx, e.pending); l.State != kb.StateActive {
		t.Errorf("after approve the lesson is %s", l.State)
	}
	if after, _ := e.db.History(ctx, e.pending); len(after) != len(before)+1 || after[len(after)-1].Reason != "checked it" && !strings.Contains(after[len(after)-1].Reason, "approv") {
		t.Errorf("approve added %d events, want 1: %+v", len(after)-len(before), after[len(after)-1])
	}
}

func withCookie(c *http.Cookie) *http.Request {
	r := httptest.NewRequest("GET", "/", nil)
	r.AddCookie(c)
	return r
}

func TestPages_renderWithTheirData(t *testing.T) {
	e := newTestEnv(t, 0)
	c, _ := e.session(t)
	held, err := e.db.HeldDrafts(context.Background(), true, 100)
	if err != nil || len(held) == 0 {
		t.Fatalf("the seeded hesitations held no draft (%v): the review checks below would prove nothing", err)
	}
	awaiting := fmt.Sprint(len(held))
	for path, want := range map[string][]string{
		"/":                      {"Health", "recall.empty_rate", "Pending lessons: 1", "Unresolved contradictions", "Held drafts awaiting review: " + awaiting},
		"/lessons":               {"Lessons 1–", e.pending, `aria-sort="descending"`},
		"/lessons?state=pending": {e.pending, "Lessons 1–1 of 1"},
		"/lessons/" + e.pending:  {"Retry flaky network calls", "Approve", "Confidence events", "Save as a new lesson"},
		"/calibration":           {"Reliability bins", "ECE"},
		"/review":                {"Awaiting review: " + awaiting, "Confirm: holding was right", held[0].TraceID},
		"/routing":               {"Revert", regulate.ParamHesitationHedge, "hesitation.confirm_ratio = 0.310"},
		"/lessons?q=" + url.QueryEscape(searchQuery): {"Search: “" + searchQuery},
	} {
		rec := e.do(httptest.NewRequest("GET", path, nil), c)
		if rec.Code != http.StatusOK {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
			continue
		}
		for _, w := range want {
			if !strings.Contains(rec.Body.String(), w) {
				t.Errorf("%s lacks %q", path, w)
			}
		}
	}
	// The search ranks the lesson recall ranks first, first.
	body := e.do(httptest.NewRequest("GET", "/lessons?q="+url.QueryEscape(searchQuery), nil), c).Body.String()
	first := strings.Index(body, `<a href="/lessons/`)
	if first < 0 || !strings.HasPrefix(body[first:], `<a href="/lessons/`+e.ruleID+`"`) {
		t.Errorf("the search's first row is not %s", e.ruleID)
	}
	for path, code := range map[string]int{"/lessons?tier=gold": 400, "/lessons/L-none": 404, "/nowhere": 404} {
		if rec := e.do(httptest.NewRequest("GET", path, nil), c); rec.Code != code {
			t.Errorf("%s: %d, want %d", path, rec.Code, code)
		}
	}
}

func TestActions_editReviewRevert(t *testing.T) {
	e := newTestEnv(t, 0)
	ctx := context.Background()
	c, csrf := e.session(t)
	// Edit: a new lesson supersedes the old one.
	rec := e.do(post("/lessons/"+e.pending+"/edit", url.Values{"csrf": {csrf}, "content": {"Retry flaky network calls in the sync worker with exponential backoff and jitter."},
		"trigger": {"sync worker network errors"}, "reason": {"clearer"}}), c)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("edit: %d %s", rec.Code, rec.Body)
	}
	loc := rec.Header().Get("Location")
	newID := strings.TrimPrefix(loc[:strings.Index(loc, "?")], "/lessons/")
	if old, _ := e.kb.Lesson(ctx, e.pending); old.State != kb.StateArchived || newID == e.pending {
		t.Errorf("after the edit the old lesson is %s and the new one %s", old.State, newID)
	}
	// Review: confirmed, as record with review does.
	trace := e.held[0]
	if rec := e.do(post("/review/"+trace, url.Values{"csrf": {csrf}, "review": {"confirmed"}}), c); rec.Code != http.StatusSeeOther {
		t.Fatalf("review: %d %s", rec.Code, rec.Body)
	}
	st, err := e.db.HesitationStats(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Confirmed != 1 {
		t.Errorf("after a confirm the stats count %d confirmed reviews", st.Confirmed)
	}
	if rec := e.do(post("/review/"+trace, url.Values{"csrf": {csrf}, "review": {"maybe"}}), c); rec.Code != http.StatusBadRequest {
		t.Errorf("a review of maybe: %d, want 400", rec.Code)
	}
	// Revert: the regulator's change is put back.
	hist, _ := e.db.RegulatorHistory(ctx)
	ch := hist[0]
	form := url.Values{"csrf": {csrf}, "param": {ch.Param}, "at": {ch.At.UTC().Format("2006-01-02T15:04:05.999999999Z07:00")}}
	if rec := e.do(post("/routing/revert", form), c); rec.Code != http.StatusSeeOther {
		t.Fatalf("revert: %d %s", rec.Code, rec.Body)
	}
	if got := e.kb.HesitationConfig().HedgeThreshold; float64(got) != ch.Before {
		t.Errorf("after the revert the hedge threshold is %d, want %v", got, ch.Before)
	}
	if rec := e.do(post("/routing/revert", form), c); rec.Code != http.StatusBadRequest {
		t.Errorf("a second revert: %d, want 400", rec.Code)
	}
	if body := e.do(httptest.NewRequest("GET", "/routing", nil), c).Body.String(); strings.Contains(body, ">Revert</button>") {
		t.Errorf("the routing page still offers a revert")
	}
}
