package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/innate-mcp/innate-mcp/capture"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/mcpserver"
	"github.com/innate-mcp/innate-mcp/rulesync"
)

// hookTimeout bounds one hook call, server and fallback alike: Claude Code
// waits for the hook (setup gives it 10 s), and a hook must never hold the
// agent up.
const hookTimeout = 8 * time.Second

// runHook answers a Claude Code hook event: the event's JSON on stdin, the
// hook's answer on stdout. It asks the hook server of the database, and
// when none runs starts one and answers in-process. Every hook fails open:
// on any error of ours it prints nothing, logs, and exits 0.
func (m *Main) runHook(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("hook", g, stderr, "EVENT   (Claude Code's "+strings.Join(hook.Events, ", ")+", or Cursor's "+hook.CursorShellEvent+"; the event's JSON on stdin)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log, closeLog, err := m.logger(g, stderr)
	if err != nil {
		log = slog.New(slog.NewTextHandler(stderr, nil))
		closeLog = func() {}
	}
	defer closeLog()
	event := fs.Arg(0)
	cursor := event == hook.CursorShellEvent
	if fs.NArg() != 1 || !slices.Contains(hook.Events, event) && !cursor {
		log.Warn("hook: name one event", "events", hook.Events, "cursor", hook.CursorShellEvent, "args", fs.Args())
		return nil
	}
	var in hook.Input
	if cursor {
		in, err = hook.ReadCursorInput(stdin)
	} else {
		in, err = hook.ReadInput(stdin, event)
	}
	if err != nil {
		log.Warn("hook: read the event", "err", err)
		m.noteHookError(event, fmt.Errorf("read the event: %w", err))
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, hookTimeout)
	defer cancel()
	out, err := m.askHook(ctx, g, in, stderr, log)
	if err != nil {
		log.Warn("hook", "event", event, "err", err)
		m.noteHookError(event, err)
		return nil
	}
	var answer any = out
	if cursor {
		ans, ok := hook.CursorOutput(out)
		if !ok {
			return nil
		}
		answer = ans
	} else if out.Empty() {
		return nil
	}
	if err := json.NewEncoder(stdout).Encode(answer); err != nil {
		log.Warn("hook: write the answer", "err", err)
	}
	return nil
}

// askHook asks the hook server; without one it starts one for the next
// events and answers this one in-process. With INNATE_HOOK_SERVER=off every
// event is answered in-process: no server is asked, even a running one,
// and none is started.
func (m *Main) askHook(ctx context.Context, g *globals, in hook.Input, stderr io.Writer, log *slog.Logger) (hook.Output, error) {
	if m.Getenv("INNATE_HOOK_SERVER") == "off" {
		return m.handleHookHere(ctx, g, in, stderr)
	}
	socket, err := m.hookSocket(g)
	if err != nil {
		return hook.Output{}, err
	}
	// The server runs in another directory: paths go to it absolute.
	for _, p := range []*string{&in.TranscriptPath, &in.Cwd} {
		if *p != "" && !filepath.IsAbs(*p) {
			if abs, err := filepath.Abs(*p); err == nil {
				*p = abs
			}
		}
	}
	out, err := hook.Ask(ctx, socket, in)
	if !errors.Is(err, hook.ErrNoServer) {
		return out, err
	}
	if err := m.startHookServer(g); err != nil {
		log.Warn("hook: start the hook server", "err", err)
		m.noteHookError(in.Event, fmt.Errorf("start the hook server: %w", err))
	}
	return m.handleHookHere(ctx, g, in, stderr)
}

// handleHookHere answers an event in this process.
func (m *Main) handleHookHere(ctx context.Context, g *globals, in hook.Input, stderr io.Writer) (hook.Output, error) {
	a, err := m.open(ctx, g, stderr, "", logAccess)
	if err != nil {
		return hook.Output{}, err
	}
	defer a.close()
	return m.answerHook(ctx, a, m.ruleSyncer(a, nil), in)
}

// hookOverMCP answers the events of Claude Code's mcp_tool hooks in the
// session's own MCP server (mcpserver.HookTool), with the knowledge base it
// has open and its rule syncer (nil: rule sync off): what `innate-mcp hook
// EVENT` answers, without a process.
func (m *Main) hookOverMCP(a *app, syncer *rulesync.Syncer) mcpserver.HookFunc {
	return func(ctx context.Context, in hook.Input) (hook.Output, error) {
		ctx, cancel := context.WithTimeout(ctx, hookTimeout)
		defer cancel()
		out, err := m.answerHook(ctx, a, syncer, in)
		if err != nil {
			m.noteHookError(in.Event, err)
		}
		return out, err
	}
}

// answerHook answers an event with the handler of its project.
func (m *Main) answerHook(ctx context.Context, a *app, syncer *rulesync.Syncer, in hook.Input) (hook.Output, error) {
	h, err := m.hookHandler(a, syncer, in)
	if err != nil {
		return hook.Output{}, err
	}
	return h.Handle(ctx, in)
}

// hookHandler returns the handler of an event: the knowledge base, the
// configuration of the event's project, and the process's rule syncer
// (nil: rule sync off), which remembers what it checked a moment ago.
func (m *Main) hookHandler(a *app, syncer *rulesync.Syncer, in hook.Input) (*hook.Handler, error) {
	root := ""
	if in.Cwd != "" {
		root = mcpserver.ProjectRoot(in.Cwd)
	}
	cfg, err := hook.LoadConfig(hook.ConfigPaths(m.userConfigDir(), root)...)
	if err != nil {
		return nil, fmt.Errorf("hook configuration: %w", err)
	}
	stateDir, err := m.hookDir("state")
	if err != nil {
		return nil, err
	}
	var syncRules func(ctx context.Context, project string)
	if syncer != nil {
		syncRules = syncer.Seen
	}
	return &hook.Handler{
		KB: a.kb, Config: cfg, Log: a.log.With("component", "hook"),
		Project: mcpserver.ProjectRoot,
		Capture: func(msg, prev string) hook.Capture {
			r := capture.Read(msg, prev)
			c := hook.Capture{Correction: r.Correction, Rule: r.Rule, RuleText: r.RuleText}
			if r.Correction {
				c.Directive = capture.Directive(msg)
			}
			return c
		},
		State:     &hook.StateDir{Dir: stateDir},
		SyncRules: syncRules,
		Consult:   m.consultOnSessionStart(a, cfg.Consultant),
	}, nil
}

// hookDir is a directory of the hooks' own (state, the server's socket)
// in the user's data directory, created 0700.
func (m *Main) hookDir(name string) (string, error) {
	dir, err := dataDir(m.Getenv)
	if err != nil {
		return "", err
	}
	d := filepath.Join(dir, "innate-mcp", "hooks", name)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return "", err
	}
	return d, nil
}

// hookSocket is where the hook server of the configured database listens.
// A build is told apart by the executable's path, size and time, so that
// an upgraded binary starts a server of its own.
func (m *Main) hookSocket(g *globals) (string, error) {
	path, err := m.dbPath(g)
	if err != nil {
		return "", err
	}
	if isPostgres(path) {
		// One server per PostgreSQL database and user: the socket's name
		// is a hash of the URL, which never appears in it.
	} else if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	build := version
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			build = fmt.Sprintf("%s %s %d %d", version, exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	dir := m.Getenv("XDG_RUNTIME_DIR")
	if dir != "" {
		dir = filepath.Join(dir, "innate-mcp")
	} else if dir, err = m.hookDir("run"); err != nil {
		return "", err
	}
	return hook.SocketPath(dir, path, build), nil
}

// startHookServer starts `innate-mcp hook-server` for the configured
// database in the background, detached from the hook's process, its output
// appended to the hooks' log file.
func (m *Main) startHookServer(g *globals) error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	// The database as this hook resolved it, absolute: the server runs in
	// another directory.
	path, err := m.dbPath(g)
	if err != nil {
		return err
	}
	args := []string{"hook-server"}
	var env []string
	if isPostgres(path) {
		// In the environment, not on the command line, where any user
		// could read the password in the process list.
		env = append(os.Environ(), "INNATE_DB="+path)
	} else {
		if path, err = filepath.Abs(path); err != nil {
			return err
		}
		args = []string{"--db", path, "hook-server"}
	}
	logDir, err := m.hookDir("log")
	if err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(logDir, "hook-server.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(exe, args...)
	cmd.Env = env // nil: this process's environment
	cmd.Stdout, cmd.Stderr = logf, logf
	// Not the project's directory, which the server would keep busy.
	cmd.Dir = logDir
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	return cmd.Process.Release()
}

// runHookServer serves hook events for the configured database until it
// idles (hook.IdleTimeout) or is stopped. The hooks start it; it exits at
// once when another server already serves the database.
func (m *Main) runHookServer(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("hook-server", g, stderr, "")
	defIdle := hook.IdleTimeout
	if v := m.Getenv("INNATE_HOOK_IDLE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fmt.Errorf("%w: INNATE_HOOK_IDLE=%q: give a duration such as 30m", errUsage, v)
		}
		defIdle = d
	}
	idle := fs.Duration("idle", defIdle, "exit after this long without an event (env INNATE_HOOK_IDLE)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	socket, err := m.hookSocket(g)
	if err != nil {
		return err
	}
	ln, err := hook.Listen(socket)
	if errors.Is(err, hook.ErrServerRunning) {
		return nil
	}
	if err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, "hooks", serveAccess)
	if err != nil {
		ln.Close()
		return err
	}
	defer a.close()
	// What the first event would wait for: the encoder and the index.
	if err := a.emb.Preload(); err != nil {
		a.log.Warn("load embedder", "err", err)
	}
	if err := a.store.WarmUp(ctx); err != nil {
		a.log.Warn("build vector index", "err", err)
	}
	a.log.Info("hook server ready", "socket", socket, "db", a.where)
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	var looks sync.WaitGroup
	defer looks.Wait()
	syncer := m.ruleSyncer(a, inBackground(ctx, &looks))
	srv := &hook.Server{Handler: func(in hook.Input) (*hook.Handler, error) { return m.hookHandler(a, syncer, in) },
		Log: a.log.With("component", "hook-server"), Idle: *idle}
	return srv.Serve(ctx, ln)
}

var _ hook.Knowledge = (*kb.KB)(nil)
