package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	"github.com/innate-mcp/innate-mcp/directive"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRules_listExplainAdd: `rules` syncs the project's rule files and
// lists each rule as compiled, with no check, or not a rule; `rules
// explain` says why an action is asked about or not; a person's check
// added with `rules add` replaces the reader's for its rule, and `rules
// disable` turns a check off.
func TestRules_listExplainAdd(t *testing.T) {
	env := testEnv(t)
	proj := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("..", "..", "hook", "testdata", "clean-rules.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "CLAUDE.md"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, env, "", "rules", "--project", proj, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []ruleRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	status := map[string]string{}
	ids := map[string]string{}
	for _, r := range rows {
		status[r.Rule] = r.Status
		ids[r.Rule] = r.ID
	}
	for rule, want := range map[string]string{
		"Use pnpm, never npm or yarn.":                           statusCompiled,
		"Run `make lint` before committing.":                     statusCompiled,
		"Always run `meson compile -C build <target>` to build.": statusNoCheck,
		"`deco login` - Authenticate with deco.chat":             statusNotARule,
		"Environment: `DATABASE_URL`, `REDIS_URL`, `SECRET_KEY`": statusNotARule,
		"Uses `s3://releases/latest/` for the current version.":  statusNotARule,
		"Store chat exports in `data/chat_exports`.":             statusNoCheck,
	} {
		if status[rule] != want {
			t.Errorf("%q: status %q, want %q", rule, status[rule], want)
		}
	}
	explain := func(args ...string) explanation {
		t.Helper()
		out, err := run(t, env, "", append([]string{"rules", "explain", "--project", proj, "--json"}, args...)...)
		if err != nil {
			t.Fatal(err)
		}
		var x explanation
		if err := json.Unmarshal([]byte(out), &x); err != nil {
			t.Fatalf("%v: %s", err, out)
		}
		return x
	}
	if x := explain("--action", "npm install lodash"); x.Answer != "ask" || len(x.Asks) != 1 || !strings.Contains(x.Asks[0].Rule, "Use pnpm") {
		t.Errorf("npm install: %+v", x)
	}
	if x := explain("--action", "git commit -m 'feat: x'", "--ran", "make lint"); x.Answer != "nothing" {
		t.Errorf("commit after lint: %+v", x)
	}
	if x := explain("--edit", filepath.Join(proj, "generated", "a.go")); x.Answer != "ask" {
		t.Errorf("edit under generated: %+v", x)
	}
	if x := explain("--action", "pnpm add lodash"); x.Answer != "nothing" || x.Checked == 0 {
		t.Errorf("pnpm add: %+v", x)
	}
	// A person's check for the meson rule: asks about ninja.
	mesonRule := ids["Always run `meson compile -C build <target>` to build."]
	out, err = run(t, env, "", "rules", "add", mesonRule, "--project", proj, "--forbid-command", "ninja -C build", "--instead", "meson compile -C build <target>")
	if err != nil {
		t.Fatalf("rules add: %v %s", err, out)
	}
	var added checkOut
	if err := json.Unmarshal([]byte(out), &added); err != nil || added.By != "person" {
		t.Fatalf("added %s: %v", out, err)
	}
	if x := explain("--action", "ninja -C build"); x.Answer != "ask" || x.Asks[0].Check != added.ID {
		t.Errorf("after rules add, ninja: %+v", x)
	}
	// Bad input says what to fix and writes nothing.
	if _, err := run(t, env, "", "rules", "add", mesonRule, "--project", proj, "--check", `{"kind":"maybe","command":{"programs":["x"]},"from":{"by":"person"}}`); err == nil || !strings.Contains(err.Error(), "kind") {
		t.Errorf("a bad check: %v", err)
	}
	if _, err := run(t, env, "", "rules", "add", mesonRule, "--project", proj); err == nil {
		t.Error("add without a check: no error")
	}
	if _, err := run(t, env, "", "rules", "disable", added.ID, "--project", proj); err != nil {
		t.Fatal(err)
	}
	if x := explain("--action", "ninja -C build"); x.Answer != "nothing" {
		t.Errorf("after rules disable: %+v", x)
	}
	if _, err := run(t, env, "", "rules", "approve", "k000000000000", "--project", proj); err == nil || !strings.Contains(err.Error(), "rules") {
		t.Errorf("unknown check: %v", err)
	}
}

// TestRules_exportImportKeepsChecks: an export holds each lesson's checks;
// importing it into another database keeps a person's check and the state
// and record of the reader's.
func TestRules_exportImportKeepsChecks(t *testing.T) {
	env := testEnv(t)
	proj := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("# P\n\n- Use pnpm, never npm.\n- Always run `meson compile -C build <target>`.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, env, "", "rules", "--project", proj, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []ruleRow
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("%v: %s", err, out)
	}
	readerCheck := rows[0].Checks[0].ID
	if _, err := run(t, env, "", "rules", "disable", readerCheck, "--project", proj); err != nil {
		t.Fatal(err)
	}
	if _, err := run(t, env, "", "rules", "add", rows[1].ID, "--project", proj, "--forbid-command", "ninja"); err != nil {
		t.Fatal(err)
	}
	// A consultant compiles both rules.
	planned, err := run(t, env, "", "rules", "compile", "--all", "--print-prompt", "--project", proj)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(planned, "\nAnswer: {") || strings.Contains(planned, `"$defs"`) {
		t.Errorf("the prompt does not end with the answer's shape, or holds the schema:\n%s", planned)
	}
	var plans []struct {
		Prompt string `json:"prompt"`
		Schema struct {
			Required []string `json:"required"`
		} `json:"schema"`
	}
	if js, err := run(t, env, "", "rules", "compile", "--all", "--print-prompt", "--json", "--project", proj); err != nil || json.Unmarshal([]byte(js), &plans) != nil ||
		len(plans) != 1 || plans[0].Prompt != planned || !slices.Equal(plans[0].Schema.Required, []string{"rules"}) {
		t.Errorf("--print-prompt --json: %v %s; want the prompt and the answer's schema", err, js)
	}
	var answers []string
	for i, id := range regexp.MustCompile(`(?m)^(r[0-9a-f]{6,8}) \| `).FindAllStringSubmatch(planned, -1) {
		is := `"is":"rule",`
		if i == 1 {
			is = "" // the prompt says to omit it for a rule
		}
		answers = append(answers, `{"id":"`+id[1]+`",`+is+`"say":["set up the front end","bring in a helper library","start a fresh checkout","prepare the web bundle","wire the dev server"]}`)
	}
	if len(answers) != 2 {
		t.Fatalf("the prompt names %d rules:\n%s", len(answers), planned)
	}
	answer := filepath.Join(t.TempDir(), "answer.json")
	os.WriteFile(answer, []byte(`{"model":"m","rules":[`+strings.Join(answers, ",")+`]}`), 0o600)
	if out, err := run(t, env, "", "rules", "compile", "--apply", answer, "--project", proj); err != nil || !strings.Contains(out, "2 lines compiled (2 rules, 0 not rules)") {
		t.Fatalf("apply: %v %s", err, out)
	}
	exported, err := run(t, env, "", "export")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "export.jsonl")
	if err := os.WriteFile(file, []byte(exported), 0o600); err != nil {
		t.Fatal(err)
	}
	env2 := testEnv(t)
	env2["INNATE_RULE_SYNC"] = "off" // the checks come from the export alone
	if out, err := run(t, env2, "", "import", file); err != nil {
		t.Fatalf("import: %v %s", err, out)
	}
	out, err = run(t, env2, "", "rules", "--project", proj, "--json")
	if err != nil {
		t.Fatal(err)
	}
	rows = nil
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("after import: %v: %s", err, out)
	}
	got := map[string]string{}
	for _, r := range rows {
		for _, c := range r.Checks {
			got[c.Says] = c.State + " " + c.By
		}
	}
	if got["forbids running `npm|yarn|bun` (use pnpm instead)"] != "disabled reader v"+strconv.Itoa(directive.Version) || got["forbids running `ninja`"] != "active person" {
		t.Errorf("checks after import: %v", got)
	}
	// The compiles came with the export: nothing is compiled again.
	if out, err := run(t, env2, "", "rules", "compile", "--all", "--project", proj); err != nil || !strings.Contains(out, "nothing to compile") {
		t.Errorf("after import, rules compile: %v %s", err, out)
	}
}

// TestRules_projectOutsideGit: a directory named with --project is the
// project even when it is not a git repository (it used to give no rules
// at all, and explain found no check).
func TestRules_projectOutsideGit(t *testing.T) {
	env := testEnv(t)
	proj := filepath.Join(t.TempDir(), "loose")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "CLAUDE.md"), []byte("- Never push with `--force`.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, env, "", "rules", "explain", "--project", proj, "--action", "git push --force origin main", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var x explanation
	if err := json.Unmarshal([]byte(out), &x); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if x.Answer != "ask" {
		t.Errorf("force push in a project outside git: %+v", x)
	}
}
