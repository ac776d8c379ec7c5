package dashboard

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath finds a Chromium or Chrome to drive. Without one the test
// is skipped, unless INNATE_REQUIRE_CHROMIUM is set (.ci/run sets it when
// it installed chromium): then it fails.
func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("INNATE_REQUIRE_CHROMIUM") != "" {
		t.Fatal("no chromium on PATH, and INNATE_REQUIRE_CHROMIUM is set: install chromium (Debian: apt-get install chromium)")
	}
	t.Skip("no chromium on PATH (Debian: apt-get install chromium)")
	return ""
}

// problems collects what must not happen on a page: console errors,
// uncaught exceptions, browser log errors (CSP violations), failed
// requests and error responses.
type problems struct {
	mu   sync.Mutex
	list []string
}

func (p *problems) listen(ev any) {
	var s string
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError {
			s = "console error"
			for _, a := range ev.Args {
				s += " " + string(a.Value) + a.Description
			}
		}
	case *runtime.EventExceptionThrown:
		s = "exception: " + ev.ExceptionDetails.Text
	case *log.EventEntryAdded:
		if ev.Entry.Level == log.EntryLevelError {
			s = "browser log error: " + ev.Entry.Text + " " + ev.Entry.URL
		}
	case *network.EventLoadingFailed:
		if !ev.Canceled {
			s = "failed request: " + ev.ErrorText
		}
	case *network.EventResponseReceived:
		if ev.Response.Status >= 400 {
			s = fmt.Sprintf("HTTP %d for %s", ev.Response.Status, ev.Response.URL)
		}
	}
	if s != "" {
		p.mu.Lock()
		p.list = append(p.list, s)
		p.mu.Unlock()
	}
}

// take returns the problems so far and forgets them.
func (p *problems) take() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := p.list
	p.list = nil
	return l
}

// TestBrowser drives the dashboard in headless Chromium: every page loads
// with no console error and no failed request (and is written to
// docs/screenshots/), a search returns the expected lesson, approve
// changes the state and adds an event, and a request without the session
// or the CSRF token is refused.
func TestBrowser(t *testing.T) {
	path := chromiumPath(t)
	e := newTestEnv(t, 0)
	var lc net.ListenConfig
	ln, err := lc.Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Store: e.db, KB: e.kb, Addr: ln.Addr().String(), Where: "a knowledge base seeded from astral-sh/ruff's AGENTS.md"})
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	var p problems
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(path), chromedp.WindowSize(1280, 900)}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox
	}
	ctx, cancel := chromedp.NewContext(context.Background(), chromedp.WithAllocatorOptions(opts...), chromedp.WithListener(p.listen))
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	run := func(what string, steps ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := chromedp.Do(tctx, steps...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(sel))
		if err != nil {
			t.Fatalf("text of %s: %v", sel, err)
		}
		return strings.TrimSpace(s)
	}
	shots := filepath.Join("..", "docs", "screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	shoot := func(name string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name+".png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	clean := func(page string) {
		t.Helper()
		if l := p.take(); len(l) > 0 {
			t.Errorf("%s: %s", page, strings.Join(l, "; "))
		}
	}

	// The printed URL logs in and lands on the overview without the token.
	run("login", chromedp.Navigate(srv.LoginURL()), chromedp.WaitVisible("main h1"))
	if loc, _ := chromedp.Run(ctx, chromedp.Location()); loc != base+"/" {
		t.Errorf("after login the browser is at %s, want %s/", loc, base)
	}
	shoot("overview")
	clean("overview")
	for _, pg := range []struct{ name, path string }{
		{"lessons", "/lessons"}, {"lesson", "/lessons/" + e.ruleID}, {"calibration", "/calibration"},
		{"review", "/review"}, {"routing", "/routing"},
	} {
		run(pg.name, chromedp.Navigate(base+pg.path), chromedp.WaitVisible("main h1"))
		shoot(pg.name)
		clean(pg.name)
	}

	// A search typed into the box returns the expected lesson first.
	run("search", chromedp.Navigate(base+"/lessons"), chromedp.WaitVisible("#q"),
		chromedp.SendKeys("#q", searchQuery), chromedp.Submit("#q"), chromedp.WaitVisible("table.lessons tbody tr"))
	if got := text("table.lessons tbody tr:first-child td:nth-child(2) a"); got != e.ruleID {
		t.Errorf("the search's first lesson is %q, want %s", got, e.ruleID)
	}
	clean("search")

	// The lessons page at 420 px wide.
	run("narrow", chromedp.EmulateViewport(420, 900), chromedp.Navigate(base+"/lessons"), chromedp.WaitVisible("main h1"))
	if w, err := chromedp.Run(ctx, chromedp.Evaluate[int](`Math.max(document.documentElement.scrollWidth, ...[...document.querySelectorAll("main, main *")].map(e => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible" ? e.scrollWidth : 0), Math.ceil(document.querySelector("table.lessons").getBoundingClientRect().right))`)); err != nil || w > 420 {
		t.Errorf("the lessons page at 420 px is %d px wide (%v): it scrolls sideways", w, err)
	}
	shoot("lessons-narrow")
	clean("lessons-narrow")
	run("wide", chromedp.EmulateViewport(1280, 900))

	// Approve: the state changes and the history gains an event.
	rows := func() int {
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("#history tbody tr").length`))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	run("pending lesson", chromedp.Navigate(base+"/lessons/"+e.pending), chromedp.WaitVisible("#approve"))
	if s := text("#state"); s != "pending" {
		t.Fatalf("the lesson is %q before approval", s)
	}
	before := rows()
	run("approve", chromedp.Click("#approve"), chromedp.WaitVisible(".note"))
	if s := text("#state"); s != "active" {
		t.Errorf("after approve the lesson is %q, want active", s)
	}
	if after := rows(); after != before+1 {
		t.Errorf("approve took the history from %d to %d events, want one more", before, after)
	}
	clean("approve")

	// Requests without the CSRF token, or without the session, are refused.
	post := func(creds string) int {
		js := `fetch("/lessons/` + e.ruleID + `/action", {method: "POST", credentials: "` + creds + `",
			headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: "action=archive"}).then(r => r.status)`
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := post("same-origin"); n != http.StatusForbidden {
		t.Errorf("POST without the CSRF token: %d, want 403", n)
	}
	if n := post("omit"); n != http.StatusUnauthorized {
		t.Errorf("POST without the session: %d, want 401", n)
	}
	p.take() // those refusals were the point
	// The printed link opened again in this browser, which holds the
	// session: the page, not a refusal (a browser without the session is
	// refused: TestSession_tokenOnceCookieCSRFAndHost).
	run("token reused", chromedp.Navigate(srv.LoginURL()), chromedp.WaitVisible("main h1"))
	if h := text("main h1"); h != "Overview" {
		t.Errorf("reopening the printed link shows %q, want the overview", h)
	}
	if l, _ := e.kb.Lesson(context.Background(), e.ruleID); l.State != "active" {
		t.Errorf("a refused POST changed the lesson: %s", l.State)
	}
}
