package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// TestCLI_retention: --retain-traces and INNATE_RETAIN_DAYS set the
// retention that prune applies, stats still counts every recall, and a
// retention below what the regulator needs is a usage error that says so.
func TestCLI_retention(t *testing.T) {
	env := testEnv(t)
	ctx := context.Background()
	db := openStore(t, env["INNATE_DB"])
	now := time.Now().UTC()
	err := db.Update(ctx, func(tx kb.Tx) error {
		for i := range 1500 {
			// One a minute: the oldest 60 are older than the 24 h the
			// regulator reads, the first 60 of them older than 48 h.
			at := now.Add(-time.Duration(1500-i) * time.Minute)
			if i < 60 {
				at = at.Add(-48 * time.Hour)
			}
			tr := kb.Trace{ID: fmt.Sprintf("t_%04d", i), Tool: "recall", CreatedAt: at, Request: []byte(`{}`), Response: []byte(`{"empty":true}`)}
			if err := tx.InsertTrace(ctx, tr); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	prune := func(args ...string) pruneReport {
		t.Helper()
		out, err := run(t, env, "", append([]string{"prune"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var rep pruneReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("prune output %q: %v", out, err)
		}
		return rep
	}
	env["INNATE_RETAIN_DAYS"] = "2"
	if rep := prune(); rep.Deleted != 60 {
		t.Fatalf("prune by INNATE_RETAIN_DAYS=2: %+v, want the 60 traces older than 48 h deleted", rep)
	}
	if rep := prune("--retain-traces", "1000"); rep.Deleted != 440 {
		t.Fatalf("prune --retain-traces 1000: %+v, want 440 deleted", rep)
	}
	out, err := run(t, env, "", "stats", "--json")
	if err != nil || !strings.Contains(out, `"calls": 1500`) {
		t.Fatalf("stats after pruning: %v\n%s", err, out)
	}
	for _, args := range [][]string{{"--retain-days", "1", "stats"}, {"--retain-traces", "10", "stats"}, {"--retain-days", "x", "stats"}} {
		_, err := run(t, env, "", args...)
		if exitCode(err) != 2 || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v (exit %d), want a usage error naming the flag", args, err, exitCode(err))
		}
	}
}
