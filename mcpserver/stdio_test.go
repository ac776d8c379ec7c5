package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/internal/mcptest"
	"github.com/innate-mcp/innate-mcp/kb"
)

// fakeKB is a Service that counts records; record waits for delay, or
// for its context when block is set.
type fakeKB struct {
	records atomic.Int64
	started atomic.Int64
	delay   time.Duration
	block   bool
}

func (f *fakeKB) Recall(ctx context.Context, req kb.RecallRequest) (kb.RecallResult, error) {
	return kb.RecallResult{TraceID: "t_fake", Empty: true}, nil
}

func (f *fakeKB) Record(ctx context.Context, req kb.RecordRequest) (kb.RecordResult, error) {
	f.started.Add(1)
	if f.block {
		<-ctx.Done()
		return kb.RecordResult{}, fmt.Errorf("record: %w", ctx.Err())
	}
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		return kb.RecordResult{}, fmt.Errorf("record: %w", ctx.Err())
	}
	f.records.Add(1)
	return kb.RecordResult{TraceID: "t_fake", LessonID: "Lfake"}, nil
}

func (f *fakeKB) Hesitate(ctx context.Context, req kb.HesitateRequest) (kb.HesitateResult, error) {
	return kb.HesitateResult{}, nil
}

func (f *fakeKB) Appraise(ctx context.Context, req kb.AppraiseRequest) (kb.AppraiseResult, error) {
	return kb.AppraiseResult{}, nil
}

func (f *fakeKB) Lesson(ctx context.Context, id string) (kb.Lesson, error) {
	return kb.Lesson{}, kb.ErrNotFound
}

func (f *fakeKB) RulesToCompile(ctx context.Context, project string, all bool) ([]kb.RuleFile, error) {
	return nil, nil
}

func (f *fakeKB) ApplyCompile(ctx context.Context, project string, a consult.Answer, o kb.ApplyOptions) (kb.ApplyReport, error) {
	return kb.ApplyReport{}, nil
}

// Protocol lines used by the tests.
const (
	lineInit        = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`
	lineInitialized = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// recordLine is a tools/call of record with a lesson, under id.
func recordLine(id string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"record","arguments":{"lesson":{"content":"Run go vet before committing."}}}}`
}

// newTestTransport returns a transport over a server backed by svc.
func newTestTransport(svc Service) *stdioTransport {
	log := slog.New(slog.DiscardHandler)
	s := New("test", svc, nil, NewProjectResolver(""), log, func() {})
	return &stdioTransport{srv: s, log: log}
}

// rpcLine is one message the transport wrote, its fields kept as raw JSON.
type rpcLine map[string]json.RawMessage

// String prints the message as JSON.
func (l rpcLine) String() string {
	if l == nil {
		return "<none>"
	}
	b, _ := json.Marshal(map[string]json.RawMessage(l))
	return string(b)
}

// errorCode returns the code of an error response, or 0.
func (l rpcLine) errorCode() int {
	var e struct {
		Code int `json:"code"`
	}
	if l["error"] == nil || json.Unmarshal(l["error"], &e) != nil {
		return 0
	}
	return e.Code
}

// toolError reports whether a tools/call result is an isError result.
func (l rpcLine) toolError() bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	return l["result"] != nil && json.Unmarshal(l["result"], &r) == nil && r.IsError
}

// parseOutput splits the transport's output into messages.
func parseOutput(t *testing.T, out string) []rpcLine {
	t.Helper()
	var msgs []rpcLine
	for _, s := range strings.Split(strings.TrimSpace(out), "\n") {
		if s == "" {
			continue
		}
		var m rpcLine
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatalf("output line is not a JSON object: %q", s)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

// serveInput serves input (then EOF) and returns what was written.
func serveInput(t *testing.T, tr *stdioTransport, input string) []rpcLine {
	t.Helper()
	var out bytes.Buffer
	if err := tr.serve(context.Background(), strings.NewReader(input), &out); err != nil {
		t.Fatalf("serve: %v", err)
	}
	return parseOutput(t, out.String())
}

// byID finds the response whose id is exactly the given JSON text.
func byID(msgs []rpcLine, id string) rpcLine {
	for _, m := range msgs {
		if string(m["id"]) == id && m["method"] == nil {
			return m
		}
	}
	return nil
}

// TestStdioTransport_protocolEdges: each message gets the answer JSON-RPC
// 2.0 and MCP call for, where mcp-go's own transport did not.
func TestStdioTransport_protocolEdges(t *testing.T) {
	tests := []struct {
		name     string
		lines    []string
		id       string // the response to check, by its id as JSON text
		wantCode int    // 0: a result
		records  int64  // records the knowledge base should see
	}{
		{name: "null id is an invalid request answered with a null id",
			lines: []string{lineInit, lineInitialized, `{"jsonrpc":"2.0","id":null,"method":"ping"}`},
			id:    "null", wantCode: -32600},
		{name: "null id on tools/call writes nothing",
			lines: []string{lineInit, lineInitialized, recordLine("null")},
			id:    "null", wantCode: -32600},
		{name: "integer id above 2^53 comes back exactly",
			lines: []string{lineInit, lineInitialized, `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`},
			id:    "9007199254740993"},
		{name: "large negative id comes back exactly",
			lines: []string{lineInit, lineInitialized, `{"jsonrpc":"2.0","id":-123456789012345678901,"method":"ping"}`},
			id:    "-123456789012345678901"},
		{name: "big id on an error response comes back exactly",
			lines: []string{lineInit, lineInitialized, `{"jsonrpc":"2.0","id":18446744073709551615,"method":"no/such"}`},
			id:    "18446744073709551615", wantCode: -32601},
		{name: "big id on a tool call comes back exactly",
			lines: []string{lineInit, lineInitialized, recordLine("12345678901234567890")},
			id:    "12345678901234567890", records: 1},
		{name: "string id comes back exactly",
			lines: []string{lineInit, lineInitialized, `{"jsonrpc":"2.0","id":"a\u00e9b","method":"ping"}`},
			id:    `"a\u00e9b"`},
		{name: "batch is an invalid request",
			lines: []string{lineInit, lineInitialized, `[{"jsonrpc":"2.0","id":7,"method":"ping"}]`},
			id:    "null", wantCode: -32600},
		{name: "batch of tool calls runs none",
			lines: []string{lineInit, lineInitialized, "[" + recordLine("7") + "," + recordLine("8") + "]"},
			id:    "null", wantCode: -32600},
		{name: "empty batch is an invalid request",
			lines: []string{`[]`},
			id:    "null", wantCode: -32600},
		{name: "tools/call before initialize is refused and writes nothing",
			lines: []string{recordLine("5"), lineInit, lineInitialized},
			id:    "5", wantCode: -32600},
		{name: "tools/list before initialize is refused",
			lines: []string{`{"jsonrpc":"2.0","id":5,"method":"tools/list"}`},
			id:    "5", wantCode: -32600},
		{name: "ping before initialize is answered",
			lines: []string{`{"jsonrpc":"2.0","id":5,"method":"ping"}`},
			id:    "5"},
		{name: "tools/call pipelined right after initialize runs",
			lines: []string{lineInit, recordLine("5")},
			id:    "5", records: 1},
		{name: "malformed JSON is a parse error",
			lines: []string{`{"jsonrpc":"2.0","id":5,"method":`},
			id:    "null", wantCode: -32700},
		{name: "a number is not a message",
			lines: []string{`42`},
			id:    "null", wantCode: -32600},
		{name: "boolean id is an invalid request",
			lines: []string{lineInit, `{"jsonrpc":"2.0","id":true,"method":"ping"}`},
			id:    "null", wantCode: -32600},
		{name: "wrong jsonrpc version",
			lines: []string{lineInit, `{"jsonrpc":"1.0","id":5,"method":"ping"}`},
			id:    "5", wantCode: -32600},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc := &fakeKB{}
			msgs := serveInput(t, newTestTransport(svc), strings.Join(tt.lines, "\n")+"\n")
			got := byID(msgs, tt.id)
			if got == nil {
				t.Fatalf("no response with id %s; output: %v", tt.id, msgs)
			}
			if code := got.errorCode(); code != tt.wantCode {
				t.Errorf("error code = %d, want %d (response %v)", code, tt.wantCode, got)
			}
			if tt.wantCode == 0 && (got["result"] == nil || got.toolError()) {
				t.Errorf("response %v, want a successful result", got)
			}
			if n := svc.records.Load(); n != tt.records {
				t.Errorf("records = %d, want %d", n, tt.records)
			}
			for _, m := range msgs {
				if string(m["jsonrpc"]) != `"2.0"` {
					t.Errorf("message without jsonrpc 2.0: %v", m)
				}
			}
		})
	}
}

// TestStdioTransport_notificationsAndResponsesGetNoAnswer: JSON-RPC never
// answers a notification or a response, even a malformed one.
func TestStdioTransport_notificationsAndResponsesGetNoAnswer(t *testing.T) {
	msgs := serveInput(t, newTestTransport(&fakeKB{}), strings.Join([]string{
		lineInit, lineInitialized,
		`{"jsonrpc":"2.0","method":"notifications/no-such"}`,
		`{"jsonrpc":"2.0","id":77,"result":{}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`,
	}, "\n"))
	if len(msgs) != 1 || string(msgs[0]["id"]) != "1" {
		t.Fatalf("output = %v, want only the initialize response", msgs)
	}
}

// TestStdioTransport_eofFinishesCallsAlreadyRead: input that ends right
// after a burst of calls still gets every call run and answered.
func TestStdioTransport_eofFinishesCallsAlreadyRead(t *testing.T) {
	svc := &fakeKB{delay: 50 * time.Millisecond}
	const n = 20
	lines := []string{lineInit, lineInitialized}
	for i := range n {
		lines = append(lines, recordLine(fmt.Sprint(100+i)))
	}
	msgs := serveInput(t, newTestTransport(svc), strings.Join(lines, "\n")+"\n")
	for i := range n {
		m := byID(msgs, fmt.Sprint(100+i))
		if m == nil || m.errorCode() != 0 || m.toolError() {
			t.Errorf("call %d: response %v, want a successful result", 100+i, m)
		}
	}
	if got := svc.records.Load(); got != n {
		t.Fatalf("records = %d, want %d", got, n)
	}
}

// TestStdioTransport_signalFinishesCallsInFlight: when the serve context
// ends (SIGTERM), calls already read still run to completion.
func TestStdioTransport_signalFinishesCallsInFlight(t *testing.T) {
	svc := &fakeKB{delay: 200 * time.Millisecond}
	tr := newTestTransport(svc)
	pr, pw := io.Pipe()
	defer pw.Close()
	var out mcptest.SyncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- tr.serve(ctx, pr, &out) }()
	const n = 12 // more than the default concurrency: some wait for a slot
	lines := []string{lineInit, lineInitialized}
	for i := range n {
		lines = append(lines, recordLine(fmt.Sprint(100+i)))
	}
	// The ping is read after every call; once it is answered, all of them
	// have been read, and some are still running or waiting for a slot.
	lines = append(lines, `{"jsonrpc":"2.0","id":999,"method":"ping"}`)
	if _, err := io.WriteString(pw, strings.Join(lines, "\n")+"\n"); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(out.String(), `"id":999`) {
		time.Sleep(time.Millisecond)
	}
	if svc.records.Load() == n {
		t.Fatal("every call finished before the signal: the test proves nothing")
	}
	cancel() // stdin stays open, as when a signal arrives
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not return after the signal")
	}
	msgs := parseOutput(t, out.String())
	for i := range n {
		m := byID(msgs, fmt.Sprint(100+i))
		if m == nil || m.errorCode() != 0 || m.toolError() {
			t.Errorf("call %d: response %v, want a successful result", 100+i, m)
		}
	}
	if got := svc.records.Load(); got != n {
		t.Fatalf("records = %d, want %d", got, n)
	}
}

// TestStdioTransport_drainIsBounded: a call that does not finish within the
// drain period is cancelled and answered, and one still queued is answered
// without being run.
func TestStdioTransport_drainIsBounded(t *testing.T) {
	svc := &fakeKB{block: true}
	tr := newTestTransport(svc)
	tr.drain, tr.abandon, tr.concurrency = 100*time.Millisecond, time.Second, 1
	start := time.Now()
	msgs := serveInput(t, tr, strings.Join([]string{lineInit, lineInitialized, recordLine("10"), recordLine("11")}, "\n")+"\n")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("serve took %v with a 100ms drain", d)
	}
	ran, queued := byID(msgs, "10"), byID(msgs, "11")
	if ran == nil || queued == nil {
		t.Fatalf("output %v, want a response to both calls", msgs)
	}
	if started := svc.started.Load(); started != 1 {
		t.Fatalf("%d calls started, want 1", started)
	}
	// Either call may have taken the one slot.
	if ran.errorCode() != 0 {
		ran, queued = queued, ran
	}
	if !ran.toolError() || !strings.Contains(string(ran["result"]), "context canceled") {
		t.Errorf("running call answered %v, want a cancelled tool error", ran)
	}
	if queued.errorCode() != -32603 || !strings.Contains(string(queued["error"]), "shutting down") {
		t.Errorf("queued call answered %v, want a shutting-down error", queued)
	}
}

// TestStdioTransport_rootsRoundTrip: the server's roots/list request goes
// out on stdout and the client's answer comes back to the tool call.
func TestStdioTransport_rootsRoundTrip(t *testing.T) {
	svc := &recordProject{}
	log := slog.New(slog.DiscardHandler)
	proj := NewProjectResolver("")
	tr := &stdioTransport{srv: New("test", svc, nil, proj, log, func() {}), log: log}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	errc := make(chan error, 1)
	go func() { errc <- tr.serve(context.Background(), inR, outW); outW.Close() }()
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	dec := json.NewDecoder(outR)
	next := func() rpcLine {
		t.Helper()
		var m rpcLine
		if err := dec.Decode(&m); err != nil {
			t.Fatalf("read output: %v", err)
		}
		return m
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{}},"clientInfo":{"name":"test","version":"1"}}}`)
	next()
	send(lineInitialized)
	send(recordLine("2"))
	req := next()
	if string(req["method"]) != `"roots/list"` {
		t.Fatalf("want a roots/list request, got %v", req)
	}
	send(`{"jsonrpc":"2.0","id":` + string(req["id"]) + `,"result":{"roots":[{"uri":"file:///work/project","name":"p"}]}}`)
	if resp := next(); string(resp["id"]) != "2" || resp.toolError() {
		t.Fatalf("record answered %v", resp)
	}
	inW.Close()
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if svc.project != "/work/project" {
		t.Fatalf("project = %q, want the client's root", svc.project)
	}
}

// recordProject is a Service that keeps the project of the last record.
type recordProject struct {
	fakeKB
	project string
}

func (r *recordProject) Record(ctx context.Context, req kb.RecordRequest) (kb.RecordResult, error) {
	r.project = req.Project
	return kb.RecordResult{TraceID: "t_fake"}, nil
}
