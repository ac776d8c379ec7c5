package mcpserver

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestOnProject_toldOfEachJudgingCallsProject: recall, appraise and
// hesitate tell OnProject of their project (the one named, else the git
// root of the working directory) before they run; record does not.
func TestOnProject_toldOfEachJudgingCallsProject(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	proj := NewProjectResolver(filepath.Join(root))
	proj.OnProject(func(_ context.Context, p string) {
		mu.Lock()
		seen = append(seen, p)
		mu.Unlock()
	})
	log := slog.New(slog.DiscardHandler)
	tr := &stdioTransport{srv: New("test", &fakeKB{}, nil, proj, log, func() {}), log: log}
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	msgs := serveInput(t, tr, strings.Join([]string{lineInit, lineInitialized,
		call("2", "recall", `{"query":"run the tests","project":"/named/project"}`),
		call("3", "recall", `{"query":"run the tests"}`),
		call("4", "appraise", `{"query":"run the tests","candidate":"go test ./..."}`),
		call("5", "hesitate", `{"draft":"All tests pass."}`),
		recordLine("6"),
	}, "\n")+"\n")
	for _, id := range []string{"2", "3", "4", "5", "6"} {
		if m := byID(msgs, id); m == nil || m.toolError() {
			t.Fatalf("call %s answered %v", id, m)
		}
	}
	slices.Sort(seen)
	want := []string{"/named/project", root, root, root}
	slices.Sort(want)
	if !slices.Equal(seen, want) {
		t.Fatalf("OnProject was told of %q; want %q", seen, want)
	}
}
