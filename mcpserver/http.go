package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/auth"
	"github.com/innate-mcp/innate-mcp/kb"
)

// The team server: MCP's Streamable HTTP transport (mcp-go's, endpoint
// /mcp) behind a front that authenticates every request with a bearer
// token (package auth), checks the token's scope and projects against the
// JSON-RPC call before it reaches a tool, refuses foreign browser origins
// (DNS rebinding), bounds request bodies and the request rate per token,
// and answers /healthz.

// TokenStore finds a token by the hash of its secret (kb.Admin).
type TokenStore interface {
	TokenByHash(ctx context.Context, hash string) (kb.Token, error)
}

// HTTPOptions configure the HTTP front.
type HTTPOptions struct {
	Tokens TokenStore
	// Lessons reads a lesson, to check the project of a lesson resource a
	// project-limited token reads.
	Lessons interface {
		Lesson(ctx context.Context, id string) (kb.Lesson, error)
	}
	// AllowOrigins are the browser origins allowed besides none (clients
	// that are not browsers send no Origin header).
	AllowOrigins []string
	// MaxBodyBytes bounds a request body; DefaultMaxBodyBytes when zero.
	MaxBodyBytes int64
	// Rate and Burst bound the requests per second of one token;
	// DefaultRate and DefaultBurst when zero.
	Rate  float64
	Burst int
	Log   *slog.Logger
	// Version is reported by /healthz.
	Version string
}

// Defaults of HTTPOptions.
const (
	DefaultMaxBodyBytes = 4 << 20
	DefaultRate         = 20
	DefaultBurst        = 40
)

// NewHTTPHandler returns the team server's handler for s: /mcp and
// /healthz.
func NewHTTPHandler(s *server.MCPServer, o HTTPOptions) http.Handler {
	if o.MaxBodyBytes == 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.Rate == 0 {
		o.Rate = DefaultRate
	}
	if o.Burst == 0 {
		o.Burst = DefaultBurst
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	streamable := server.NewStreamableHTTPServer(s, server.WithEndpointPath("/mcp"),
		server.WithHTTPContextFunc(func(ctx context.Context, r *http.Request) context.Context { return ctx }))
	f := &front{o: o, next: streamable, buckets: map[string]*bucket{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"status":"ok","version":%q}`+"\n", o.Version)
	})
	mux.Handle("/mcp", f)
	return mux
}

// front authenticates and authorises requests to /mcp.
type front struct {
	o    HTTPOptions
	next http.Handler
	mu   sync.Mutex
	// buckets holds each token's request budget.
	buckets map[string]*bucket
}

func (f *front) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if origin := r.Header.Get("Origin"); origin != "" && !slices.Contains(f.o.AllowOrigins, origin) {
		httpError(w, http.StatusForbidden, "origin "+origin+" is not allowed (innate-mcp serve --allow-origin)")
		return
	}
	tok, ok := f.authenticate(w, r)
	if !ok {
		return
	}
	if !f.allow(tok.ID) {
		w.Header().Set("Retry-After", "1")
		httpError(w, http.StatusTooManyRequests, "too many requests for this token: slow down")
		return
	}
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, f.o.MaxBodyBytes))
		if err != nil {
			httpError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", f.o.MaxBodyBytes))
			return
		}
		if msg := f.authorize(r.Context(), tok, body); msg != "" {
			httpError(w, http.StatusForbidden, msg)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
	}
	// A token limited to projects draws on their lessons and the global
	// ones only: the tools' answers never carry another project's lesson.
	f.next.ServeHTTP(w, r.WithContext(kb.ConfineTo(r.Context(), tok.Projects)))
}

// authenticate finds the request's token; it answers 401 when there is
// none, or it is unknown or revoked.
func (f *front) authenticate(w http.ResponseWriter, r *http.Request) (kb.Token, bool) {
	secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	secret = strings.TrimSpace(secret)
	if !ok || !auth.LooksLikeToken(secret) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="innate-mcp"`)
		httpError(w, http.StatusUnauthorized, "send Authorization: Bearer <token> (innate-mcp token create)")
		return kb.Token{}, false
	}
	tok, err := f.o.Tokens.TokenByHash(r.Context(), auth.Hash(secret))
	if err != nil || tok.RevokedAt != nil {
		if err != nil && !errors.Is(err, kb.ErrNotFound) {
			f.o.Log.Warn("read token", "err", err)
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="innate-mcp", error="invalid_token"`)
		httpError(w, http.StatusUnauthorized, "unknown or revoked token")
		return kb.Token{}, false
	}
	return tok, true
}

// rpcMessage is what the front reads of a JSON-RPC message.
type rpcMessage struct {
	Method string `json:"method"`
	Params struct {
		Name      string         `json:"name"`
		URI       string         `json:"uri"`
		Arguments map[string]any `json:"arguments"`
	} `json:"params"`
}

// toolScope is the scope each tool needs.
var toolScope = map[string]auth.Scope{"recall": auth.Read, "appraise": auth.Read, "hesitate": auth.Read, "record": auth.Write}

// authorize checks each JSON-RPC message of a body against the token's
// scope and projects; it returns why not, or "".
func (f *front) authorize(ctx context.Context, tok kb.Token, body []byte) string {
	var msgs []rpcMessage
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &msgs) != nil {
			return "" // the transport answers the parse error
		}
	} else {
		var m rpcMessage
		if json.Unmarshal(trimmed, &m) != nil {
			return ""
		}
		msgs = []rpcMessage{m}
	}
	scope := auth.Scope(tok.Scope)
	for _, m := range msgs {
		switch m.Method {
		case "tools/call":
			need, known := toolScope[m.Params.Name]
			if !known {
				need = auth.Admin
			}
			if !scope.Allows(need) {
				return fmt.Sprintf("token %s (scope %s) may not call %s, which needs scope %s", tok.Name, tok.Scope, m.Params.Name, need)
			}
			if len(tok.Projects) == 0 || m.Params.Name == "hesitate" {
				// hesitate reads no lesson: only the draft and the error
				// patterns learned from outcomes, which belong to no project.
				continue
			}
			project, _ := m.Params.Arguments["project"].(string)
			write := need != auth.Read
			if lesson, ok := m.Params.Arguments["lesson"].(map[string]any); ok {
				if global, _ := lesson["global"].(bool); global {
					project = ""
				}
			}
			if project == "" || !auth.MayUse(tok.Projects, project, write) {
				return fmt.Sprintf("token %s is limited to projects %s: name one of them in the call's project argument", tok.Name, strings.Join(tok.Projects, ", "))
			}
		case "resources/read":
			if len(tok.Projects) == 0 {
				continue
			}
			id, ok := strings.CutPrefix(m.Params.URI, "innate://lesson/")
			if !ok {
				return fmt.Sprintf("token %s is limited to projects %s: it may not read %s", tok.Name, strings.Join(tok.Projects, ", "), m.Params.URI)
			}
			if f.o.Lessons == nil {
				return "lesson resources are not served to project-limited tokens"
			}
			l, err := f.o.Lessons.Lesson(ctx, id)
			if err == nil && !auth.MayUse(tok.Projects, l.Project, false) {
				return fmt.Sprintf("token %s may not read a lesson of another project", tok.Name)
			}
		}
	}
	return ""
}

// bucket is a token bucket: tokens refill at the rate, up to the burst.
type bucket struct {
	level float64
	at    time.Time
}

// allow takes one request from the token's budget.
func (f *front) allow(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	b := f.buckets[id]
	if b == nil {
		b = &bucket{level: float64(f.o.Burst), at: now}
		f.buckets[id] = b
	}
	b.level = min(float64(f.o.Burst), b.level+now.Sub(b.at).Seconds()*f.o.Rate)
	b.at = now
	if b.level < 1 {
		return false
	}
	b.level--
	return true
}

// httpError answers an error as JSON.
func httpError(w http.ResponseWriter, code int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
