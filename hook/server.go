package hook

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"
)

// A hook is a new process per event, and a cold process pays for what a
// warm one has already: the sentence encoder's weights (about 150 ms) and
// the vector index (about 160 ms at 10k lessons). So the hooks are served
// by a long-lived process of their own, the hook server: `innate-mcp hook
// EVENT` connects to it over a Unix socket (in a directory only the user
// can enter), sends the event and prints the answer. When no server
// answers, the hook starts one in the background and answers this event
// in-process, cold. The server exits after IdleTimeout without a request.

// IdleTimeout is how long a hook server waits for a request before it
// exits.
const IdleTimeout = 30 * time.Minute

// Request is what a hook sends the server: the event's payload as Claude
// Code gave it.
type Request struct {
	Input Input `json:"input"`
}

// Response is the server's answer. Error is ours, never the agent's: the
// hook logs it and prints nothing.
type Response struct {
	Output Output `json:"output"`
	Error  string `json:"error,omitempty"`
}

// maxResponseBytes bounds an answer read from the server.
const maxResponseBytes = 1 << 20

// SocketPath is where the hook server of a database listens: in dir (the
// user's runtime directory), named for the database path and the build,
// so that a new build never talks to an old server.
func SocketPath(dir, dbPath, build string) string {
	return filepath.Join(dir, "hook-"+hashKey(dbPath + "\x00" + build)[:16]+".sock")
}

// Ask sends in to the server at socket and returns its answer. It fails
// fast (ErrNoServer) when no server listens there.
func Ask(ctx context.Context, socket string, in Input) (Output, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", socket)
	if err != nil {
		return Output{}, fmt.Errorf("%w: %v", ErrNoServer, err)
	}
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	}
	if err := json.NewEncoder(conn).Encode(Request{Input: in}); err != nil {
		return Output{}, err
	}
	var resp Response
	if err := json.NewDecoder(io.LimitReader(conn, maxResponseBytes)).Decode(&resp); err != nil {
		return Output{}, fmt.Errorf("read the hook server's answer: %w", err)
	}
	if resp.Error != "" {
		return Output{}, errors.New(resp.Error)
	}
	return resp.Output, nil
}

// ErrNoServer is wrapped by Ask's error when no hook server listens.
var ErrNoServer = errors.New("no hook server")

// Listen opens the server's socket. The directory is created 0700; a
// stale socket file (no server behind it) is replaced; a live one is
// ErrServerRunning.
func Listen(socket string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(socket), 0o700); err != nil {
		return nil, err
	}
	ln, err := net.Listen("unix", socket)
	if err == nil {
		return ln, nil
	}
	if c, derr := net.DialTimeout("unix", socket, 200*time.Millisecond); derr == nil {
		c.Close()
		return nil, ErrServerRunning
	}
	// Nothing answers: a server that died left its file.
	if rerr := os.Remove(socket); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		return nil, err
	}
	return net.Listen("unix", socket)
}

// ErrServerRunning is Listen's error when another server holds the socket.
var ErrServerRunning = errors.New("a hook server is already running")

// Server answers hook requests with one Handler per request's project
// (its configuration), until its context ends or it idles.
type Server struct {
	// Handler returns the handler for an event: the knowledge base is
	// shared, the configuration is the event's project's.
	Handler func(in Input) (*Handler, error)
	Log     *slog.Logger
	// Idle is how long it waits for a request before Serve returns;
	// IdleTimeout when zero.
	Idle time.Duration
}

// Serve accepts connections on ln until ctx ends or no request came for
// the idle timeout, answering each connection's one request. It closes ln.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	idle := s.Idle
	if idle == 0 {
		idle = IdleTimeout
	}
	log := s.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var last atomic.Int64
	last.Store(time.Now().UnixNano())
	go func() {
		t := time.NewTicker(min(idle/4, time.Minute))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				ln.Close()
				return
			case <-t.C:
				if time.Since(time.Unix(0, last.Load())) > idle {
					log.Info("hook server idle: exiting", "idle", idle)
					cancel()
				}
			}
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	for {
		conn, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		last.Store(time.Now().UnixNano())
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer conn.Close()
			s.answer(ctx, conn, log)
			now := time.Now()
			last.Store(now.UnixNano())
			// The socket's time is the last request's, for doctor to read.
			if a, ok := ln.Addr().(*net.UnixAddr); ok {
				os.Chtimes(a.Name, now, now)
			}
		}()
	}
}

// requestTimeout bounds one request's work in the server.
const requestTimeout = 30 * time.Second

func (s *Server) answer(ctx context.Context, conn net.Conn, log *slog.Logger) {
	conn.SetDeadline(time.Now().Add(requestTimeout))
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	var req Request
	resp := Response{}
	if err := json.NewDecoder(bufio.NewReader(io.LimitReader(conn, MaxInputBytes))).Decode(&req); err != nil {
		resp.Error = fmt.Sprintf("read request: %v", err)
	} else if h, err := s.Handler(req.Input); err != nil {
		resp.Error = err.Error()
	} else if out, err := h.Handle(ctx, req.Input); err != nil {
		resp.Error = err.Error()
	} else {
		resp.Output = out
	}
	if resp.Error != "" {
		log.Warn("hook request", "event", req.Input.Event, "err", resp.Error)
	}
	if err := json.NewEncoder(conn).Encode(resp); err != nil {
		log.Warn("hook answer", "err", err)
	}
}
