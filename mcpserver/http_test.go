package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/auth"
	"github.com/innate-mcp/innate-mcp/kb"
)

// tokens is a TokenStore over a map of secrets.
type tokens map[string]kb.Token

func (ts tokens) TokenByHash(_ context.Context, hash string) (kb.Token, error) {
	for secret, t := range ts {
		if auth.Hash(secret) == hash {
			return t, nil
		}
	}
	return kb.Token{}, kb.ErrNotFound
}

// httpClient speaks MCP's Streamable HTTP to a test server with a token.
type httpClient struct {
	t       *testing.T
	url     string
	token   string
	session string
}

func (c *httpClient) post(body string, header ...string) (*http.Response, string) {
	c.t.Helper()
	req, err := http.NewRequest(http.MethodPost, c.url+"/mcp", strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.session = id
	}
	return resp, string(b)
}

func (c *httpClient) initialize() {
	c.t.Helper()
	if resp, body := c.post(lineInit); resp.StatusCode != http.StatusOK {
		c.t.Fatalf("initialize: %d %s", resp.StatusCode, body)
	}
	c.post(lineInitialized)
}

func (c *httpClient) call(tool string, args map[string]any) (int, string) {
	c.t.Helper()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": map[string]any{"name": tool, "arguments": args}})
	resp, body := c.post(string(b))
	return resp.StatusCode, body
}

func TestHTTP_tokensScopesProjectsAndLimits(t *testing.T) {
	readSecret, _ := auth.NewToken()
	writeSecret, _ := auth.NewToken()
	shopSecret, _ := auth.NewToken()
	revokedSecret, _ := auth.NewToken()
	revokedAt := time.Now()
	ts := tokens{
		readSecret:    {ID: "tk_r", Name: "reader", Scope: "read"},
		writeSecret:   {ID: "tk_w", Name: "writer", Scope: "write"},
		shopSecret:    {ID: "tk_s", Name: "shop", Scope: "write", Projects: []string{"/srv/shop"}},
		revokedSecret: {ID: "tk_x", Name: "old", Scope: "admin", RevokedAt: &revokedAt},
	}
	svc := &fakeKB{}
	s := New("test", svc, nil, NewProjectResolver(""), slog.New(slog.DiscardHandler), func() {})
	srv := httptest.NewServer(NewHTTPHandler(s, HTTPOptions{Tokens: ts, Lessons: svc, AllowOrigins: []string{"https://team.example"},
		MaxBodyBytes: 64 << 10, Rate: 1, Burst: 30, Version: "test"}))
	defer srv.Close()

	// /healthz needs no token.
	resp, err := http.Get(srv.URL + "/healthz")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("healthz: %v %v", resp, err)
	}
	resp.Body.Close()

	// No token, an unknown one, a revoked one: 401.
	for _, tok := range []string{"", "inn_" + strings.Repeat("0", 64), revokedSecret, "not-a-token"} {
		c := &httpClient{t: t, url: srv.URL, token: tok}
		if resp, body := c.post(lineInit); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("token %.12q: %d %s", tok, resp.StatusCode, body)
		}
	}

	// A read token recalls and may not record.
	reader := &httpClient{t: t, url: srv.URL, token: readSecret}
	reader.initialize()
	if code, body := reader.call("recall", map[string]any{"query": "how to test"}); code != http.StatusOK || !strings.Contains(body, "t_fake") {
		t.Errorf("read token recall: %d %s", code, body)
	}
	if code, body := reader.call("record", map[string]any{"lesson": map[string]any{"content": "x"}}); code != http.StatusForbidden || !strings.Contains(body, "scope") {
		t.Errorf("read token record: %d %s", code, body)
	}
	if svc.records.Load() != 0 {
		t.Error("a forbidden record reached the knowledge base")
	}

	// A write token records.
	writer := &httpClient{t: t, url: srv.URL, token: writeSecret}
	writer.initialize()
	if code, body := writer.call("record", map[string]any{"lesson": map[string]any{"content": "Use pnpm."}}); code != http.StatusOK || !strings.Contains(body, "Lfake") {
		t.Errorf("write token record: %d %s", code, body)
	}

	// A project-limited token: its project only, never global writes,
	// never the stats of every project.
	shop := &httpClient{t: t, url: srv.URL, token: shopSecret}
	shop.initialize()
	for _, c := range []struct {
		tool string
		args map[string]any
		ok   bool
	}{
		{"recall", map[string]any{"query": "q", "project": "/srv/shop"}, true},
		{"recall", map[string]any{"query": "q", "project": "/srv/bank"}, false},
		{"recall", map[string]any{"query": "q"}, false},
		{"record", map[string]any{"lesson": map[string]any{"content": "x"}, "project": "/srv/shop"}, true},
		{"record", map[string]any{"lesson": map[string]any{"content": "x", "global": true}, "project": "/srv/shop"}, false},
	} {
		code, body := shop.call(c.tool, c.args)
		if (code == http.StatusOK) != c.ok {
			t.Errorf("shop token %s %v: %d %s", c.tool, c.args, code, body)
		}
	}
	if resp, body := shop.post(`{"jsonrpc":"2.0","id":9,"method":"resources/read","params":{"uri":"innate://stats"}}`); resp.StatusCode != http.StatusForbidden {
		t.Errorf("shop token reads stats: %d %s", resp.StatusCode, body)
	}

	// A browser origin not allowed: 403; an allowed one passes.
	if resp, _ := writer.post(lineInit, "Origin", "https://evil.example"); resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign origin: %d", resp.StatusCode)
	}
	if resp, _ := writer.post(lineInit, "Origin", "https://team.example"); resp.StatusCode != http.StatusOK {
		t.Errorf("allowed origin: %d", resp.StatusCode)
	}

	// A body over the limit: 413.
	if resp, _ := writer.post(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 70<<10) + `"}}`); resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("large body: %d", resp.StatusCode)
	}

	// The rate limit: the burst, then 429.
	limited := 0
	for range 40 {
		if code, _ := reader.call("recall", map[string]any{"query": "q"}); code == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited == 0 {
		t.Error("40 calls at once against a burst of 30 were never limited")
	}
}
