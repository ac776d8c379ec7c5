package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/hook"
)

// replayEnv is what a replay of real agent events through the hooks needs
// (eval actions, eval stop): a fresh temporary knowledge base, a directory
// to lay the projects out in, the hooks' session state, and the dump.
type replayEnv struct {
	ev    *evalKB
	root  string
	state *hook.StateDir
	dump  io.Writer
	start time.Time
	done  func(*error)
}

// openReplay opens a replay's environment; close removes it.
func (m *Main) openReplay(ctx context.Context, g *globals, stderr io.Writer, name, dumpPath string) (*replayEnv, error) {
	dump, done, err := createDump(dumpPath)
	if err != nil {
		return nil, err
	}
	ev, err := m.openEvalKB(ctx, g, stderr, evalKBOptions{})
	if err != nil {
		done(&err)
		return nil, err
	}
	root, err := os.MkdirTemp("", "innate-"+name+"-*")
	if err != nil {
		ev.close()
		done(&err)
		return nil, err
	}
	return &replayEnv{ev: ev, root: root, state: &hook.StateDir{Dir: filepath.Join(root, ".state")}, dump: dump, start: time.Now(), done: done}, nil
}

// close removes the replay's directory and knowledge base and closes the
// dump, keeping the first error in *err.
func (r *replayEnv) close(err *error) {
	os.RemoveAll(r.root)
	r.ev.close()
	r.done(err)
}

// handler is the hooks' handler for a project of the replay, with the
// default configuration, as Claude Code's hooks would run it.
func (r *replayEnv) handler(project string, sync func(ctx context.Context, project string)) *hook.Handler {
	return &hook.Handler{KB: r.ev.kb, Config: hook.DefaultConfig(), Log: r.ev.log.With("component", "hook"),
		Project: func(string) string { return project }, State: r.state, SyncRules: sync}
}

// write prints a replay's report with the embedder and the seconds taken.
func (r *replayEnv) write(stdout io.Writer, report any) error {
	b, err := json.Marshal(report)
	if err != nil {
		return err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return err
	}
	out["embedder"], out["seconds"] = r.ev.emb.Name(), eval.Seconds(r.start)
	return writeJSON(stdout, out)
}
