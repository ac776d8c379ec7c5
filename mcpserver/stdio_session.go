package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// stdioSession is the one client session of a stdio connection: what the
// client said in initialize, and the requests the server sent it (roots/list)
// awaiting their responses. It is safe for concurrent use.
type stdioSession struct {
	conn          *stdioConn
	notifications chan mcp.JSONRPCNotification
	initialized   atomic.Bool
	clientInfo    atomic.Pointer[mcp.Implementation]
	clientCaps    atomic.Pointer[mcp.ClientCapabilities]
	version       atomic.Pointer[string]

	nextID  atomic.Int64
	mu      sync.Mutex
	waiting map[int64]chan *message
}

var (
	_ server.ClientSession              = (*stdioSession)(nil)
	_ server.SessionWithClientInfo      = (*stdioSession)(nil)
	_ server.SessionWithRoots           = (*stdioSession)(nil)
	_ server.SessionWithProtocolVersion = (*stdioSession)(nil)
)

func newStdioSession() *stdioSession {
	return &stdioSession{notifications: make(chan mcp.JSONRPCNotification, 100), waiting: map[int64]chan *message{}}
}

// SessionID names the session; there is one per process.
func (s *stdioSession) SessionID() string { return "stdio" }

// NotificationChannel is where the server queues notifications for the client.
func (s *stdioSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.notifications }

// Initialize marks the session initialized; mcp-go calls it on initialize.
func (s *stdioSession) Initialize() { s.initialized.Store(true) }

// Initialized reports whether initialize has succeeded.
func (s *stdioSession) Initialized() bool { return s.initialized.Load() }

// GetClientInfo returns the client's name and version from initialize.
func (s *stdioSession) GetClientInfo() mcp.Implementation {
	if p := s.clientInfo.Load(); p != nil {
		return *p
	}
	return mcp.Implementation{}
}

// SetClientInfo records the client's name and version.
func (s *stdioSession) SetClientInfo(v mcp.Implementation) { s.clientInfo.Store(&v) }

// GetClientCapabilities returns the capabilities the client declared.
func (s *stdioSession) GetClientCapabilities() mcp.ClientCapabilities {
	if p := s.clientCaps.Load(); p != nil {
		return *p
	}
	return mcp.ClientCapabilities{}
}

// SetClientCapabilities records the capabilities the client declared.
func (s *stdioSession) SetClientCapabilities(v mcp.ClientCapabilities) { s.clientCaps.Store(&v) }

// ProtocolVersion returns the version negotiated in initialize, or "".
func (s *stdioSession) ProtocolVersion() string {
	if p := s.version.Load(); p != nil {
		return *p
	}
	return ""
}

// SetProtocolVersion records the negotiated version; mcp-go calls it on
// initialize.
func (s *stdioSession) SetProtocolVersion(v string) { s.version.Store(&v) }

// ListRoots asks the client for its roots and waits for the answer or for
// ctx to end.
func (s *stdioSession) ListRoots(ctx context.Context, _ mcp.ListRootsRequest) (*mcp.ListRootsResult, error) {
	var res mcp.ListRootsResult
	if err := s.request(ctx, string(mcp.MethodListRoots), &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// request sends a request to the client and decodes its result into v.
func (s *stdioSession) request(ctx context.Context, method string, v any) error {
	id := s.nextID.Add(1)
	ch := make(chan *message, 1)
	s.mu.Lock()
	s.waiting[id] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.waiting, id)
		s.mu.Unlock()
	}()
	s.conn.write(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
	}{mcp.JSONRPC_VERSION, id, method})
	select {
	case <-ctx.Done():
		return fmt.Errorf("%s: %w", method, ctx.Err())
	case m := <-ch:
		if m.rpcErr != nil {
			var e mcp.JSONRPCErrorDetails
			if err := json.Unmarshal(m.rpcErr, &e); err != nil {
				return fmt.Errorf("%s: malformed error from the client: %w", method, err)
			}
			return fmt.Errorf("%s: the client answered %d: %s", method, e.Code, e.Message)
		}
		if err := json.Unmarshal(m.result, v); err != nil {
			return fmt.Errorf("%s: decode the client's result: %w", method, err)
		}
		return nil
	}
}

// deliver hands a response from the client to the request waiting for it;
// a response nobody waits for (late, or with an unknown id) is dropped.
func (s *stdioSession) deliver(m *message) {
	id, err := strconv.ParseInt(string(m.id), 10, 64)
	if err != nil {
		s.conn.t.log.Debug("response with an id the server never sent", "id", string(m.id))
		return
	}
	s.mu.Lock()
	ch := s.waiting[id]
	delete(s.waiting, id)
	s.mu.Unlock()
	if ch == nil {
		s.conn.t.log.Debug("response to no pending request", "id", id)
		return
	}
	ch <- m
}
