package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/mcptest"
	"github.com/innate-mcp/innate-mcp/internal/pgtest"
)

// TestUI_servesTheDashboardOnLoopback: `innate-mcp ui` prints a URL on
// 127.0.0.1 whose token logs in once, serves the pages, and stops on
// cancellation.
func TestUI_servesTheDashboardOnLoopback(t *testing.T) {
	uiServes(t, testEnv(t))
}

// TestUI_onPostgres: the dashboard of a PostgreSQL team store.
func TestUI_onPostgres(t *testing.T) {
	c := pgtest.Start(t)
	env := testEnv(t)
	env["INNATE_DB"] = c.NewDatabase(t, "ui")
	uiServes(t, env)
}

// uiServes runs `innate-mcp ui` on env's store and checks its login URL,
// its overview with the lesson recorded, and that the token works once.
func uiServes(t *testing.T, env map[string]string) {
	if _, err := run(t, env, "", "record", "--lesson", "Run go vet before every commit.", "--origin", "user_stated"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &Main{Getenv: func(k string) string { return env[k] }, Getwd: func() (string, error) { return t.TempDir(), nil }}
	var out, errb mcptest.SyncBuffer
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, []string{"ui"}, strings.NewReader(""), &out, &errb) }()
	var url string
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		for _, f := range strings.Fields(out.String()) {
			if strings.HasPrefix(f, "http://") {
				url = f
			}
		}
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || !strings.Contains(url, "token=") {
		t.Fatalf("printed %q (stderr %q), want a loopback URL with a token", out.String(), errb.String())
	}
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "Health") || !strings.Contains(string(body), "Lessons: 1") || strings.Contains(resp.Request.URL.RawQuery, "token") {
		t.Errorf("GET the printed URL: %d at %s", resp.StatusCode, resp.Request.URL)
	}
	resp, err = http.Get(url) // a fresh client: the token is spent
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("the token used twice: %d, want 403", resp.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("ui after cancellation: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("ui did not stop")
	}
}

func TestUI_warnsOnANonLoopbackAddress(t *testing.T) {
	for host, want := range map[string]bool{"127.0.0.1": true, "::1": true, "localhost": true, "0.0.0.0": false, "192.168.1.4": false} {
		if isLoopback(host) != want {
			t.Errorf("isLoopback(%q) = %v", host, !want)
		}
	}
}
