package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// This file replaces mcp-go's stdio transport loop (server.StdioServer.Listen,
// v1.2.1); the MCPServer still handles every message. Listen cancels the
// context of every request still queued or running as soon as stdin reaches
// EOF or its context ends, so the last record of a session whose client
// closed stdin was lost ("read embedder info: ... context canceled"). It also
// answers some messages in ways JSON-RPC 2.0 and MCP do not allow; each is
// handled here and marked "mcp-go:" below.

// Defaults for stdioTransport's zero fields.
const (
	defaultDrain       = 10 * time.Second
	defaultAbandon     = 5 * time.Second
	defaultConcurrency = 8
)

// Messages of the errors the transport answers itself.
const (
	msgNullID         = "invalid request: id must be a string or an integer, not null (MCP forbids null ids)"
	msgBadID          = "invalid request: id must be a string or an integer"
	msgBatch          = "invalid request: batches are not supported (MCP 2025-06-18 removed JSON-RPC batching): send one message per line"
	msgNotObject      = "invalid request: a message must be a JSON object"
	msgBadVersion     = `invalid request: jsonrpc must be "2.0"`
	msgBadMethod      = "invalid request: method must be a string"
	msgNotInitialized = "invalid request: the session is not initialized: send initialize (and notifications/initialized) first"
	msgShuttingDown   = "the server is shutting down: the request was not run"
)

// stdioTransport serves an MCP server over newline-delimited JSON-RPC on a
// reader and a writer (the process's stdin and stdout).
//
// Requests run concurrently, at most concurrency at once, and their
// responses may come back out of order. initialize and notifications are
// handled in the order they arrive, so calls pipelined after initialize see
// an initialized session.
//
// When input ends (EOF) or the context passed to serve ends (SIGTERM,
// SIGINT), the transport stops reading, lets every request it has already
// read run to completion for up to drain, writes their responses, and
// returns nil. Requests still running after drain have their context
// cancelled and get abandon more to answer; requests not yet started are
// answered with an error instead of being run.
//
// One serve call at a time may use an MCPServer: its session is "stdio".
type stdioTransport struct {
	srv *server.MCPServer
	log *slog.Logger

	// drain bounds how long requests already read may run after input
	// ends; zero means defaultDrain.
	drain time.Duration
	// abandon bounds the wait, after drain, for handlers to return once
	// their context is cancelled; zero means defaultAbandon.
	abandon time.Duration
	// concurrency bounds the requests handled at once; zero means
	// defaultConcurrency.
	concurrency int
}

// stdioConn is the state of one serve call: the session, the output and
// the requests in flight.
type stdioConn struct {
	t       *stdioTransport
	session *stdioSession
	reqCtx  context.Context // every request's context; outlives the serve context by drain
	cancel  context.CancelFunc
	sem     chan struct{}
	running sync.WaitGroup // request handlers
	pending atomic.Int64   // requests read and not yet answered

	writeMu sync.Mutex
	out     io.Writer
	closed  bool // no writes after serve returned (an abandoned handler may finish late)
	werr    error
}

// serve reads messages from in and writes responses to out until in ends
// or ctx is done, then drains as described on stdioTransport. It returns
// an error only when the session cannot be registered or input fails with
// something other than EOF; a failing writer is logged.
func (t *stdioTransport) serve(ctx context.Context, in io.Reader, out io.Writer) error {
	sess := newStdioSession()
	c := &stdioConn{t: t, session: sess, out: out, sem: make(chan struct{}, orDefault(t.concurrency, defaultConcurrency))}
	sess.conn = c
	// Requests must survive the end of ctx (a signal): they are cancelled
	// only when the drain period runs out.
	base := t.srv.WithContext(context.WithoutCancel(ctx), sess)
	c.reqCtx, c.cancel = context.WithCancel(base)
	defer c.cancel()
	if err := t.srv.RegisterSession(base, sess); err != nil {
		return fmt.Errorf("register stdio session: %w", err)
	}
	defer t.srv.UnregisterSession(base, sess.SessionID())

	notifyDone := make(chan struct{})
	var notifier sync.WaitGroup
	notifier.Go(func() { c.forwardNotifications(notifyDone) })

	stop := make(chan struct{})
	lines := make(chan readResult)
	// The reader goroutine ends when in does: a Read blocked on a terminal
	// or pipe cannot be interrupted, so after a signal it may outlive serve
	// until the process exits. It never touches the output.
	go readLines(in, lines, stop)

	readErr := c.readLoop(ctx, lines)
	close(stop)
	c.finish()
	close(notifyDone)
	notifier.Wait()

	c.writeMu.Lock()
	c.closed = true
	werr := c.werr
	c.writeMu.Unlock()
	if werr != nil {
		t.log.Warn("write to stdout", "err", werr)
	}
	return readErr
}

// readResult is one line of input, or the error that ended it.
type readResult struct {
	line []byte
	err  error
}

// readLines sends each non-blank line of in to lines, then the error that
// ended the input (io.EOF at the end), until stop is closed.
func readLines(in io.Reader, lines chan<- readResult, stop <-chan struct{}) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			select {
			case lines <- readResult{line: line}:
			case <-stop:
				return
			}
		}
		if err != nil {
			select {
			case lines <- readResult{err: err}:
			case <-stop:
			}
			return
		}
	}
}

// readLoop dispatches input until it ends or ctx is done.
func (c *stdioConn) readLoop(ctx context.Context, lines <-chan readResult) error {
	for {
		select {
		case <-ctx.Done():
			c.t.log.Info("stopping: signal received", "in_flight", c.pending.Load())
			return nil
		case r := <-lines:
			if r.err != nil {
				if errors.Is(r.err, io.EOF) {
					c.t.log.Debug("stopping: stdin closed", "in_flight", c.pending.Load())
					return nil
				}
				return fmt.Errorf("read stdin: %w", r.err)
			}
			if ctx.Err() != nil {
				return nil
			}
			c.dispatch(r.line)
		}
	}
}

// finish waits for the requests in flight, cancelling them after drain and
// giving up on them after abandon more.
func (c *stdioConn) finish() {
	done := make(chan struct{})
	go func() {
		c.running.Wait()
		close(done)
	}()
	drain := time.NewTimer(orDefault(c.t.drain, defaultDrain))
	defer drain.Stop()
	select {
	case <-done:
		return
	case <-drain.C:
	}
	c.t.log.Warn("requests still running at the end of the drain period: cancelling them", "in_flight", c.pending.Load())
	c.cancel()
	abandon := time.NewTimer(orDefault(c.t.abandon, defaultAbandon))
	defer abandon.Stop()
	select {
	case <-done:
	case <-abandon.C:
		c.t.log.Error("requests did not return after cancellation: exiting without their responses", "in_flight", c.pending.Load())
	}
}

// dispatch handles one line of input.
func (c *stdioConn) dispatch(line []byte) {
	m, errResp := parseMessage(line)
	if errResp != nil {
		c.write(errResp)
		return
	}
	switch {
	case m.response:
		c.session.deliver(m)
	case m.id == nil:
		// A notification: handled in order, never answered (JSON-RPC 2.0 §4.1),
		// even when mcp-go returns an error for a malformed one.
		c.handle(m)
	case !c.session.Initialized() && !allowedBeforeInit(m):
		// mcp-go: runs any request, tools/call included, before initialize.
		c.write(rpcError(m.id, mcp.INVALID_REQUEST, msgNotInitialized))
	case m.method == string(mcp.MethodInitialize):
		// In order, so that calls pipelined behind it see the session
		// initialized.
		if resp := c.handle(m); resp != nil {
			c.write(resp)
		}
	default:
		c.pending.Add(1)
		c.running.Go(func() {
			defer c.pending.Add(-1)
			c.serveRequest(m)
		})
	}
}

// serveRequest runs one request once a slot is free and writes its response.
func (c *stdioConn) serveRequest(m *message) {
	select {
	case c.sem <- struct{}{}:
		defer func() { <-c.sem }()
	case <-c.reqCtx.Done():
	}
	if c.reqCtx.Err() != nil {
		c.write(rpcError(m.id, mcp.INTERNAL_ERROR, msgShuttingDown))
		return
	}
	if resp := c.handle(m); resp != nil {
		c.write(resp)
	}
}

// handle passes a message to the MCP server and returns its response with
// the id exactly as the client sent it.
func (c *stdioConn) handle(m *message) (resp mcp.JSONRPCMessage) {
	defer func() {
		if r := recover(); r != nil {
			c.t.log.Error("panic handling a message", "method", m.method, "panic", r)
			resp = nil
			if m.id != nil {
				resp = rpcError(m.id, mcp.INTERNAL_ERROR, fmt.Sprintf("internal error: %v", r))
			}
		}
	}()
	resp = c.t.srv.HandleMessage(withListing(c.reqCtx, m.method), m.raw)
	if m.id == nil || resp == nil {
		return nil
	}
	return withID(resp, m.id)
}

// write sends one message as a line; it is safe for concurrent use. The
// first write error is kept for serve to report; later writes are dropped.
func (c *stdioConn) write(msg any) {
	b, err := json.Marshal(msg)
	if err != nil {
		c.t.log.Error("encode response", "err", err)
		return
	}
	b = append(b, '\n')
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if c.closed || c.werr != nil {
		return
	}
	if _, err := c.out.Write(b); err != nil {
		c.werr = err
	}
}

// forwardNotifications writes the server's notifications until done is
// closed, then writes those already queued.
func (c *stdioConn) forwardNotifications(done <-chan struct{}) {
	for {
		select {
		case n := <-c.session.notifications:
			c.write(n)
		case <-done:
			for {
				select {
				case n := <-c.session.notifications:
					c.write(n)
				default:
					return
				}
			}
		}
	}
}

// message is one parsed JSON-RPC message.
type message struct {
	raw      json.RawMessage
	id       json.RawMessage // exactly as sent; nil for a notification
	method   string
	params   json.RawMessage
	response bool // a response to a request the server sent
	result   json.RawMessage
	rpcErr   json.RawMessage
}

// parseMessage validates one line as a JSON-RPC 2.0 message for MCP. It
// returns the error response to write instead when the line is not one.
func parseMessage(line []byte) (*message, any) {
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		return nil, rpcError(nil, mcp.PARSE_ERROR, "parse error: not valid JSON")
	}
	switch line[0] {
	case '[':
		// mcp-go: answers a batch with -32700, as if it were not JSON. MCP
		// 2025-06-18 and later have no batches, and mcp-go negotiates
		// 2025-11-25 with current clients; a client that asks for
		// 2025-03-26, the one version with batches, is refused too.
		return nil, rpcError(nil, mcp.INVALID_REQUEST, msgBatch)
	case '{':
	default:
		return nil, rpcError(nil, mcp.INVALID_REQUEST, msgNotObject)
	}
	var f struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(line, &f); err != nil {
		return nil, rpcError(nil, mcp.INVALID_REQUEST, msgNotObject)
	}
	m := &message{raw: line, params: f.Params, result: f.Result, rpcErr: f.Error}
	if f.Method == nil && (f.Result != nil || f.Error != nil) {
		// A response to a request the server sent. A response is never
		// answered, even a malformed one (JSON-RPC 2.0 §5).
		m.response, m.id = true, f.ID
		return m, nil
	}
	// json.RawMessage keeps a JSON null as the bytes "null": a present
	// null id is told apart from a missing one.
	if f.ID != nil {
		switch kind := idKind(f.ID); kind {
		case "null":
			// mcp-go: treats "id": null as a notification and answers
			// nothing. JSON-RPC answers an invalid request with a null id.
			return nil, rpcError(nil, mcp.INVALID_REQUEST, msgNullID)
		case "":
			return nil, rpcError(nil, mcp.INVALID_REQUEST, msgBadID)
		}
		m.id = f.ID
	}
	if string(f.JSONRPC) != `"2.0"` {
		return nil, rpcError(m.id, mcp.INVALID_REQUEST, msgBadVersion)
	}
	if err := json.Unmarshal(f.Method, &m.method); err != nil || f.Method == nil {
		return nil, rpcError(m.id, mcp.INVALID_REQUEST, msgBadMethod)
	}
	return m, nil
}

// idKind classifies a JSON-RPC id: "string", "number", "null", or "" for
// any other JSON value.
func idKind(id json.RawMessage) string {
	switch c := id[0]; {
	case c == '"':
		return "string"
	case c == '-' || (c >= '0' && c <= '9'):
		return "number"
	case string(id) == "null":
		return "null"
	}
	return ""
}

// allowedBeforeInit reports whether a request may be served before the
// session is initialized: the handshake itself, ping (which MCP allows at
// any time), server/discover, and a request that declares protocol
// 2026-07-28 or later in its _meta, which carries its own handshake
// (SEP-2575; mcp-go validates it).
func allowedBeforeInit(m *message) bool {
	switch mcp.MCPMethod(m.method) {
	case mcp.MethodInitialize, mcp.MethodPing, mcp.MethodServerDiscover:
		return true
	}
	var p struct {
		Meta *mcp.Meta `json:"_meta"`
	}
	if len(m.params) == 0 || json.Unmarshal(m.params, &p) != nil {
		return false
	}
	return mcp.IsModernProtocol(p.Meta.ProtocolVersion())
}

// rpcError builds an error response; id nil means a null id.
func rpcError(id json.RawMessage, code int, msg string) mcp.JSONRPCError {
	var rid mcp.RequestId
	if id != nil {
		rid = mcp.NewRequestId(id)
	}
	return mcp.JSONRPCError{JSONRPC: mcp.JSONRPC_VERSION, ID: rid, Error: mcp.NewJSONRPCErrorDetails(code, msg, nil)}
}

// withID returns resp carrying id exactly as the client sent it.
//
// mcp-go: decodes ids into float64, so an integer id above 2^53 came back
// rounded (9007199254740993 as 9007199254740992). Two in-flight ids that
// round alike still share mcp-go's cancellation entry; only
// notifications/cancelled can tell them apart, and it cannot.
func withID(resp mcp.JSONRPCMessage, id json.RawMessage) mcp.JSONRPCMessage {
	rid := mcp.NewRequestId(id)
	switch r := resp.(type) {
	case mcp.JSONRPCResponse:
		r.ID = rid
		return r
	case *mcp.JSONRPCResponse:
		cp := *r
		cp.ID = rid
		return cp
	case mcp.JSONRPCError:
		r.ID = rid
		return r
	case *mcp.JSONRPCError:
		cp := *r
		cp.ID = rid
		return cp
	}
	// Any other shape: splice the id into its JSON.
	b, err := json.Marshal(resp)
	if err != nil {
		return resp
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(b, &fields) != nil {
		return resp
	}
	fields["id"] = id
	return fields
}

// orDefault returns v, or def when v is zero.
func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}
