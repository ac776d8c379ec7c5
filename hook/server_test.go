package hook

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// shortDir is a temporary directory with a short path: a Unix socket's
// path must stay under about 100 bytes.
func shortDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp("", "ih")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func TestServer_answersHooksOverTheSocket(t *testing.T) {
	h, _ := testHandler(t)
	socket := SocketPath(shortDir(t), "/data/kb.db", "build-1")
	ln, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(socket); !errors.Is(err, ErrServerRunning) {
		t.Errorf("second Listen: %v, want ErrServerRunning", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	srv := &Server{Handler: func(Input) (*Handler, error) { return h, nil }}
	go func() { done <- srv.Serve(ctx, ln) }()

	out, err := Ask(ctx, socket, payload(t, "pre-tool-use-bash.json", "transcript-untested.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Specific == nil || out.Specific.PermissionDecision != "ask" {
		t.Errorf("answer %+v", out)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := Ask(context.Background(), socket, Input{Event: Stop}); !errors.Is(err, ErrNoServer) {
		t.Errorf("after the server stopped: %v, want ErrNoServer", err)
	}
}

func TestServer_replacesAStaleSocketAndExitsWhenIdle(t *testing.T) {
	socket := SocketPath(shortDir(t), "/data/kb.db", "build-1")
	// A socket file with no server behind it, as a killed server leaves.
	stale, err := net.Listen("unix", socket)
	if err != nil {
		t.Fatal(err)
	}
	stale.(*net.UnixListener).SetUnlinkOnClose(false)
	stale.Close()
	if _, err := os.Stat(socket); err != nil {
		t.Fatal("no stale file to test with")
	}
	ln, err := Listen(socket)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	srv := &Server{Handler: func(Input) (*Handler, error) { return nil, errors.New("unused") }, Idle: 200 * time.Millisecond}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), ln) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not exit when idle")
	}
	if _, err := os.Stat(filepath.Dir(socket)); err != nil {
		t.Fatal(err)
	}
}

func TestServer_errorsAreAnsweredNotPrinted(t *testing.T) {
	socket := SocketPath(shortDir(t), "/data/kb.db", "b")
	ln, err := Listen(socket)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := &Server{Handler: func(Input) (*Handler, error) { return nil, errors.New("config: bad bash_decision") }}
	go srv.Serve(ctx, ln)
	if _, err := Ask(ctx, socket, Input{Event: Stop}); err == nil || err.Error() != "config: bad bash_decision" {
		t.Errorf("err = %v", err)
	}
}
