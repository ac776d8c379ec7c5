package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/pgtest"
)

// rawMCP speaks MCP's Streamable HTTP with one token, keeping the HTTP
// status of every answer.
type rawMCP struct {
	t       testing.TB
	url     string
	token   string
	session string
	id      int
}

func (c *rawMCP) post(method string, params any) (int, string) {
	c.t.Helper()
	c.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, c.url+"/mcp", strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+c.token)
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		c.session = s
	}
	return resp.StatusCode, string(body)
}

func (c *rawMCP) initialize() {
	c.t.Helper()
	if code, body := c.post("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "isolation", "version": "1"}}); code != http.StatusOK {
		c.t.Fatalf("initialize: %d %s", code, body)
	}
}

// tool calls a tool; ok is a 200 answer that is not an isError result.
func (c *rawMCP) tool(name string, args map[string]any) (ok bool, body string) {
	code, body := c.post("tools/call", map[string]any{"name": name, "arguments": args})
	return code == http.StatusOK && !strings.Contains(body, `"isError":true`), body
}

// isolation checks every tool and resource against every token scope and
// project limit on a server of the database db: what each may call, and
// that a project-limited token never receives another project's lesson.
func isolation(t *testing.T, db string) {
	env := append(os.Environ(), "INNATE_DB="+db, "INNATE_LOG_LEVEL=warn")
	newToken := func(args ...string) string {
		cmd := exec.Command(buildBinary(t), append([]string{"token", "create"}, args...)...)
		cmd.Env = env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("token create %v: %v", args, err)
		}
		return strings.TrimSpace(string(out))
	}
	tm := &team{tb: t, dsn: db}
	secrets := map[string]string{
		"read": newToken("--name", "read", "--scope", "read"), "write": newToken("--name", "write", "--scope", "write"),
		"admin":      newToken("--name", "admin", "--scope", "admin"),
		"shop-read":  newToken("--name", "shop-read", "--scope", "read", "--project", "/srv/shop"),
		"shop-write": newToken("--name", "shop-write", "--scope", "write", "--project", "/srv/shop"),
	}
	in := tm.start()
	clients := map[string]*rawMCP{}
	for name, secret := range secrets {
		clients[name] = &rawMCP{t: t, url: in.url, token: secret}
		clients[name].initialize()
	}
	// One lesson in each project and one global, all on ledgers, so that
	// any of them would answer a question about ledgers.
	seed := func(content, project string) string {
		args := map[string]any{"lesson": map[string]any{"content": content, "origin": "user_stated"}}
		if project == "" {
			args["lesson"].(map[string]any)["global"] = true
		} else {
			args["project"] = project
		}
		ok, body := clients["admin"].tool("record", args)
		var resp struct {
			Result struct {
				Structured struct {
					LessonID string `json:"lesson_id"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if !ok || json.Unmarshal([]byte(body), &resp) != nil || resp.Result.Structured.LessonID == "" {
			t.Fatalf("seed %q: %s", content, body)
		}
		return resp.Result.Structured.LessonID
	}
	bank := seed("Ledger reconciliation in the bank service must use decimal arithmetic, never floats.", "/srv/bank")
	shop := seed("Ledger exports in the shop service are written as CSV with a header row.", "/srv/shop")
	global := seed("Ledger files are never edited by hand; regenerate them.", "")

	question := "how do I reconcile the ledger with decimal arithmetic"
	type op struct {
		name string
		call func(c *rawMCP) (bool, string)
	}
	toolOp := func(name, tool string, args map[string]any) op {
		return op{name, func(c *rawMCP) (bool, string) { return c.tool(tool, args) }}
	}
	resOp := func(name, uri string) op {
		return op{name, func(c *rawMCP) (bool, string) {
			code, body := c.post("resources/read", map[string]any{"uri": uri})
			return code == http.StatusOK && !strings.Contains(body, `"error"`), body
		}}
	}
	ops := []op{
		toolOp("recall shop", "recall", map[string]any{"query": question, "project": "/srv/shop", "top": 10}),
		toolOp("recall bank", "recall", map[string]any{"query": question, "project": "/srv/bank", "top": 10}),
		toolOp("recall no project", "recall", map[string]any{"query": question, "top": 10}),
		toolOp("appraise shop", "appraise", map[string]any{"query": question, "candidate": "Use floats for the ledger totals.", "project": "/srv/shop"}),
		toolOp("appraise bank", "appraise", map[string]any{"query": question, "candidate": "Use floats.", "project": "/srv/bank"}),
		// hesitate reads no lesson (the draft and the error patterns
		// learned from outcomes, which belong to no project): it takes no
		// project, and every token may call it.
		toolOp("hesitate", "hesitate", map[string]any{"draft": "The ledger is reconciled and verified.", "actions": []string{"deploy"}}),
		toolOp("record shop", "record", map[string]any{"lesson": map[string]any{"content": "Shop ledgers rotate monthly, said %s."}, "project": "/srv/shop"}),
		toolOp("record bank", "record", map[string]any{"lesson": map[string]any{"content": "Bank ledgers rotate daily, said %s."}, "project": "/srv/bank"}),
		toolOp("record global", "record", map[string]any{"lesson": map[string]any{"content": "Ledgers are UTF-8, said %s.", "global": true}}),
		resOp("stats", "innate://stats"),
		resOp("lesson bank", "innate://lesson/"+bank),
		resOp("lesson shop", "innate://lesson/"+shop),
		resOp("lesson global", "innate://lesson/"+global),
	}
	// want: the operations each token may do (the others answer 403 or an
	// error); every token not limited to projects may do what its scope
	// allows.
	reads := []string{"recall shop", "recall bank", "recall no project", "appraise shop", "appraise bank", "hesitate", "stats", "lesson bank", "lesson shop", "lesson global"}
	want := map[string][]string{
		"read":       reads,
		"write":      append(reads, "record shop", "record bank", "record global"),
		"admin":      append(reads, "record shop", "record bank", "record global"),
		"shop-read":  {"recall shop", "appraise shop", "hesitate", "lesson shop", "lesson global"},
		"shop-write": {"recall shop", "appraise shop", "hesitate", "lesson shop", "lesson global", "record shop"},
	}
	for _, name := range []string{"read", "write", "admin", "shop-read", "shop-write"} {
		for _, o := range ops {
			t.Run(name+"/"+o.name, func(t *testing.T) {
				c := clients[name]
				c.t = t
				ok, body := o.call(c)
				allowed := false
				for _, w := range want[name] {
					allowed = allowed || w == o.name
				}
				if ok != allowed {
					t.Errorf("token %s %s: allowed %v, want %v: %.300s", name, o.name, ok, allowed, body)
				}
				if strings.HasPrefix(name, "shop") && strings.Contains(body, bank) {
					t.Errorf("token %s %s: the answer carries the bank project's lesson %s: %.400s", name, o.name, bank, body)
				}
			})
		}
	}
	// The unlimited tokens do see the bank lesson: the question reaches it.
	if _, body := clients["read"].tool("recall", map[string]any{"query": question, "project": "/srv/bank", "top": 10}); !strings.Contains(body, bank) {
		t.Errorf("recall in the bank project does not return its lesson: the isolation checks above prove nothing: %.400s", body)
	}
	if _, body := clients["read"].tool("recall", map[string]any{"query": question, "project": "/srv/shop", "top": 10}); !strings.Contains(body, bank) {
		t.Errorf("an unlimited recall in the shop project does not reach the bank lesson, so the limited tokens' checks prove nothing: %.400s", body)
	}
}

// TestHTTP_isolation: every tool and resource × token scope × project on
// the SQLite store.
func TestHTTP_isolation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server")
	}
	isolation(t, filepath.Join(t.TempDir(), "kb.db"))
}

// TestTeam_isolation: the same on the PostgreSQL store.
func TestTeam_isolation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts PostgreSQL and a server")
	}
	c := pgtest.Start(t)
	isolation(t, c.NewDatabase(t, fmt.Sprintf("iso_%d", teamDBs.Add(1))))
}
