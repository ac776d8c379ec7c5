package main

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/internal/evaldata"
	"github.com/innate-mcp/innate-mcp/internal/linediff"
	"github.com/innate-mcp/innate-mcp/internal/mcptest"
	"github.com/innate-mcp/innate-mcp/stats"

	"github.com/google/jsonschema-go/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/innate-mcp/innate-mcp/kb"
)

var update = flag.Bool("update", false, "rewrite golden files (stats.schema.json)")

const statsSchemaPath = "../../stats.schema.json"

// TestStatsSchema keeps stats.schema.json equal to the schema of stats.Report
// (regenerate with -update).
func TestStatsSchema(t *testing.T) {
	s, err := jsonschema.For[stats.Report](&jsonschema.ForOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Title = "innate-mcp stats"
	s.Description = "The report printed by `innate-mcp stats --json` and served as the MCP resource innate://stats."
	got, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *update {
		os.WriteFile(statsSchemaPath, got, 0o644)
	}
	want, err := os.ReadFile(statsSchemaPath)
	if err != nil {
		t.Fatalf("read stats.schema.json (go test ./cmd/innate-mcp -run TestStatsSchema -update): %v", err)
	}
	if d := linediff.Diff(string(want), string(got)); d != "" {
		t.Fatalf("stats.schema.json is out of date (- file, + schema of stats.Report; go test ./cmd/innate-mcp -run TestStatsSchema -update):\n%s", d)
	}
}

// validateStats checks a stats JSON document against stats.schema.json.
func validateStats(t *testing.T, doc string) {
	t.Helper()
	f, err := os.Open(statsSchemaPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	schemaDoc, err := validator.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := validator.NewCompiler()
	if err := c.AddResource("stats.schema.json", schemaDoc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("stats.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := validator.UnmarshalJSON(strings.NewReader(doc))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Fatalf("stats --json does not match stats.schema.json: %v", err)
	}
}

func TestCLI_statsAndLessons(t *testing.T) {
	env := testEnv(t)
	// An empty database reports every section, with no_data health.
	out, err := run(t, env, "", "stats", "--json")
	if err != nil {
		t.Fatal(err)
	}
	validateStats(t, out)

	file := writeTemp(t, "rules.jsonl", `{"id":"tabs","content":"Indent Go code with tabs, as gofmt does.","trigger":"formatting Go code"}
{"id":"ctx","content":"Pass context.Context as the first parameter of functions that do I/O.","trigger":"designing Go APIs"}
`)
	if _, err := run(t, env, "", "import", file); err != nil {
		t.Fatal(err)
	}
	rec, _ := run(t, env, "", "recall", "formatting my Go code")
	var r kb.RecallResult
	json.Unmarshal([]byte(rec), &r)
	run(t, env, "", "record", "--trace", r.TraceID, "--outcome", "success", "--used", "tabs")
	run(t, env, "All tests pass. Pushing.", "hesitate", "--action", "push")
	run(t, env, "", "record", "--lesson", "Never indent Go code with tabs.", "--trigger", "formatting Go code", "--origin", "agent_inferred")

	out, err = run(t, env, "", "stats", "--json")
	if err != nil {
		t.Fatal(err)
	}
	validateStats(t, out)
	var rep stats.Report
	json.Unmarshal([]byte(out), &rep)
	if rep.Lessons.Total != 3 || rep.Recall.Calls != 1 || rep.Hesitation.Calls != 1 || rep.Contradictions.Total != 1 || len(rep.Health) < 6 {
		t.Fatalf("report: %+v", rep)
	}
	table, err := run(t, env, "", "stats")
	if err != nil {
		t.Fatal(err)
	}
	for _, section := range []string{"LESSONS", "RECALL", "HESITATION", "CONTRADICTIONS", "HEALTH"} {
		if !strings.Contains(table, section) {
			t.Fatalf("stats table lacks %s:\n%s", section, table)
		}
	}

	// lessons list / show / reject / archive / restore.
	list, err := run(t, env, "", "lessons", "list", "--json")
	if err != nil || strings.Count(list, `"id"`) != 3 {
		t.Fatalf("lessons list: %s %v", list, err)
	}
	show, err := run(t, env, "", "lessons", "show", "tabs", "--json")
	if err != nil || !strings.Contains(show, `"scores"`) || !strings.Contains(show, `"history"`) || !strings.Contains(show, `"trend"`) {
		t.Fatalf("lessons show: %s %v", show, err)
	}
	if out, err := run(t, env, "", "lessons", "archive", "ctx", "--reason", "obsolete"); err != nil || !strings.Contains(out, "archived") {
		t.Fatalf("archive: %s %v", out, err)
	}
	if out, err := run(t, env, "", "lessons", "restore", "ctx"); err != nil || !strings.Contains(out, `"state": "active"`) {
		t.Fatalf("restore: %s %v", out, err)
	}
	if _, err := run(t, env, "", "lessons", "show", "nope"); err == nil {
		t.Fatal("show of a missing lesson succeeded")
	}
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := t.TempDir() + "/" + name
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestStats_cursorrulesPlusReplay builds a database from the 967 real rule
// files of ../shared/eval/lessons (cursorrulesLessons of them under the
// race detector; with a stand-in embedder, for speed),
// replays recalls, records, appraisals and hesitations over it, and checks
// that stats prints every section and that --json matches the schema.
func TestStats_cursorrulesPlusReplay(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a database of 967 lessons")
	}
	data := evaldata.Path(t, "lessons", "cursorrules.jsonl")
	env := testEnv(t)
	// The stand-in embedder: build the database through kb directly.
	n := lessonsDBFrom(t, env["INNATE_DB"], data, cursorrulesLessons)
	queries := []string{"writing React components with hooks", "configuring Tailwind CSS", "Python type hints and docstrings",
		"Next.js app router data fetching", "writing unit tests in Go", "bake a chocolate cake"}
	// The replay goes through one server, in-process: what is measured is
	// the report of the calls, not the cost of opening the database for
	// each of them.
	c := spawn(t, env["INNATE_DB"])
	c.initialize()
	for i := range 60 {
		q := queries[i%len(queries)]
		r := mcptest.Structured(t, c.tool("recall", map[string]any{"query": q}))
		if lessons, _ := r["lessons"].([]any); len(lessons) > 0 {
			outcome := "success"
			if i%4 == 0 {
				outcome = "failure"
			}
			first, _ := lessons[0].(map[string]any)
			mcptest.Structured(t, c.tool("record", map[string]any{"trace_id": r["trace_id"], "outcome": outcome, "used": []any{first["id"]}}))
		}
		if i%5 == 0 {
			c.tool("appraise", map[string]any{"query": q, "candidate": "Use the framework's defaults.", "message": q + "?"})
			c.tool("hesitate", map[string]any{"draft": "It definitely works now, all tests pass.", "actions": []string{"commit"}})
		}
	}
	c.close()
	out, err := run(t, env, "", "stats", "--json")
	if err != nil {
		t.Fatal(err)
	}
	validateStats(t, out)
	var rep stats.Report
	json.Unmarshal([]byte(out), &rep)
	if rep.Lessons.Total < n*9/10 || rep.Recall.Calls != 60 || rep.Appraise.Verdicts != 12 || rep.Hesitation.Calls != 12 || rep.Routing.Decisions != 12 {
		t.Fatalf("report: lessons %d, recalls %d, verdicts %d, hesitations %d, routes %d", rep.Lessons.Total, rep.Recall.Calls,
			rep.Appraise.Verdicts, rep.Hesitation.Calls, rep.Routing.Decisions)
	}
	table, _ := run(t, env, "", "stats")
	for _, section := range []string{"LESSONS", "RECALL", "APPRAISE", "ROUTING", "REGULATOR", "HESITATION", "CONTRADICTIONS", "HEALTH"} {
		if !strings.Contains(table, section) {
			t.Fatalf("stats lacks %s:\n%s", section, table)
		}
	}
}
