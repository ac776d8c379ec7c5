package main

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/stats"
)

// TestRegulate_movesOneParameterFromTheLogs: reviews that reject hesitate's
// holds make the regulator raise a hesitation threshold by at most its daily
// step, only once (a second run is not due), and a dry run changes nothing.
func TestRegulate_movesOneParameterFromTheLogs(t *testing.T) {
	env := testEnv(t)
	for range 40 {
		out, err := run(t, env, "All tests pass and it works now. Deploying.", "hesitate", "--action", "deploy")
		if err != nil {
			t.Fatal(err)
		}
		var res kb.HesitateResult
		json.Unmarshal([]byte(out), &res)
		if _, err := run(t, env, "", "record", "--trace", res.TraceID, "--outcome", "success"); err != nil {
			t.Fatal(err)
		}
		if _, err := run(t, env, `{"trace_id": "`+res.TraceID+`", "review": "rejected"}`, "record"); err != nil {
			t.Fatal(err)
		}
	}
	type out struct {
		DryRun  bool              `json:"dry_run"`
		Changes []regulate.Change `json:"changes"`
	}
	var dry, real, again out
	s, err := run(t, env, "", "regulate", "--dry-run")
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(s), &dry)
	if !dry.DryRun || len(dry.Changes) != 1 {
		t.Fatalf("dry run: %s", s)
	}
	s, _ = run(t, env, "", "regulate", "--dry-run")
	json.Unmarshal([]byte(s), &again)
	if len(again.Changes) != 1 {
		t.Fatalf("the dry run applied something: second dry run %s", s)
	}
	s, err = run(t, env, "", "regulate")
	if err != nil {
		t.Fatal(err)
	}
	json.Unmarshal([]byte(s), &real)
	if len(real.Changes) != 1 {
		t.Fatalf("regulate: %s", s)
	}
	c := real.Changes[0]
	reg, _ := regulate.DefaultRegistry()
	p, ok := reg.Lookup(c.Param)
	if !ok || c.Kind != regulate.KindChange || math.Abs(c.After-c.Before) > 0.02*p.Scale+1e-9 || c.Param[:len("hesitation.")] != "hesitation." {
		t.Fatalf("change %+v (scale %v)", c, p.Scale)
	}
	s, _ = run(t, env, "", "regulate")
	json.Unmarshal([]byte(s), &again)
	if len(again.Changes) != 0 {
		t.Fatalf("a second run moved again: %s", s)
	}
	// The retuned threshold is in force for the next command.
	report, _ := run(t, env, "", "stats", "--json")
	var rep stats.Report
	json.Unmarshal([]byte(report), &rep)
	if len(rep.Regulator) != 1 || rep.Regulator[0].Param != c.Param {
		t.Fatalf("stats regulator section: %+v", rep.Regulator)
	}
}
