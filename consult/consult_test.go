package consult

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/check"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// rules are the rules the tests ask about.
var rules = []Rule{
	{ID: RuleID("Template comments are HEEx comments (`<%!-- --%>`), never `<!-- -->`.", "Web"), Text: "Template comments are HEEx comments (`<%!-- --%>`), never `<!-- -->`.", When: "Web"},
	{ID: RuleID("Run `make lint` before you commit.", "Web"), Text: "Run `make lint` before you commit.", When: "Web"},
	{ID: RuleID("The web layer lives in lib/web.", ""), Text: "The web layer lives in lib/web."},
}

// say are phrasings that share no word with the rules.
var say = []string{"touch a page layout", "adjust the markup of a screen", "rework a view partial", "fix a broken page fragment", "restyle the account screen"}

func heex(c CheckAnswer) Answer {
	return Answer{Model: "m", Rules: []RuleAnswer{{ID: rules[0].ID, Is: IsRule, Do: Dont, Say: say, Checks: []CheckAnswer{c}}}}
}

var writeHeex = check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{"*.heex"}, Text: "<!--"}}

// TestValidate: what is kept and what is refused, and why.
func TestValidate(t *testing.T) {
	tests := []struct {
		name     string
		answer   Answer
		recorded []string
		checks   int    // checks kept of the first rule
		says     int    // phrasings kept of the first rule
		refused  string // a word of the refusal, "" for none
	}{
		{"a check that matches its bad example and not its good one",
			heex(CheckAnswer{Check: writeHeex, Bad: []Call{{Write: "a.html.heex", Text: "<!-- x -->"}}, Good: []Call{{Write: "a.html.heex", Text: "<%!-- x --%>"}}}), nil, 1, 5, ""},
		{"a check that misses its bad example",
			heex(CheckAnswer{Check: writeHeex, Bad: []Call{{Write: "a.ex", Text: "<!-- x -->"}}}), nil, 0, 5, "does not match its bad example"},
		{"a check that matches its good example",
			heex(CheckAnswer{Check: check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{"*.heex"}, Text: "<"}},
				Bad: []Call{{Write: "a.heex", Text: "<!-- x -->"}}, Good: []Call{{Write: "a.heex", Text: "<%!-- x --%>"}}}), nil, 0, 5, "matches its good example"},
		{"a check with no bad example",
			heex(CheckAnswer{Check: writeHeex}), nil, 0, 5, "no bad example"},
		{"a check that does not parse",
			heex(CheckAnswer{Check: check.Check{Kind: "ban", Write: &check.WritePattern{}}, Bad: []Call{{Run: "ls"}}}), nil, 0, 5, "kind"},
		{"an example quoted from the rule",
			heex(CheckAnswer{Check: writeHeex, Bad: []Call{{Write: "a.heex", Text: "<!-- -->", Quoted: true}}}), nil, 1, 5, ""},
		{"an example said to be quoted that the rule does not hold",
			heex(CheckAnswer{Check: writeHeex, Bad: []Call{{Write: "a.heex", Text: "<!-- hidden -->", Quoted: true}}}), nil, 0, 5, "not in the rule"},
		{"a command check that would fire on too many recorded commands",
			heex(CheckAnswer{Check: check.Check{Kind: check.Forbid, Command: &check.CommandPattern{Programs: []string{"git"}}}, Bad: []Call{{Run: "git status"}}}),
			append(repeat("git status", 10), repeat("ls", 20)...), 0, 5, "would have fired on 10 of the 30"},
		{"a command check that fires on few recorded commands",
			heex(CheckAnswer{Check: check.Check{Kind: check.Forbid, Command: &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"push"}, Flags: []string{"--force"}}}, Bad: []Call{{Run: "git push --force"}}}),
			append(repeat("git status", 10), repeat("ls", 20)...), 1, 5, ""},
		{"phrasings that reuse the rule's words are dropped, the others kept",
			Answer{Rules: []RuleAnswer{{ID: rules[0].ID, Is: IsRule, Say: []string{"HEEx comments in templates", "template comments", "never HTML comments", "touch a page layout", "adjust the markup of a screen", "rework a view partial"}}}}, nil, 0, 3, `3 of 6 phrasings reuse the rule's own words, more than half of theirs, or have none of their own ("HEEx comments in templates", "template comments", "never HTML comments")`},
		{"too few left keep none",
			Answer{Rules: []RuleAnswer{{ID: rules[0].ID, Is: IsRule, Say: []string{"HEEx comments in templates", "template comments", "never HTML comments", "touch a page layout", "adjust the markup of a screen"}}}}, nil, 0, 0, "at least 3"},
		{"a description keeps no check",
			Answer{Rules: []RuleAnswer{{ID: rules[0].ID, Is: IsDescription, Checks: []CheckAnswer{{Check: writeHeex}}}}}, nil, 0, 0, "has no checks"},
		{"an unknown kind of line",
			Answer{Rules: []RuleAnswer{{ID: rules[0].ID, Is: "policy"}}}, nil, 0, 0, "not one of rule"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Validate(tt.answer, rules, Options{Recorded: tt.recorded})
			if err != nil {
				t.Fatal(err)
			}
			checks, says := 0, 0
			for _, c := range res.Compiled {
				if c.Rule.ID == rules[0].ID {
					checks, says = len(c.Checks), len(c.Say)
					for _, ch := range c.Checks {
						if ch.From.By != check.ByConsultant {
							t.Errorf("a kept check's provenance is %q", ch.From.By)
						}
					}
				}
			}
			var why []string
			for _, r := range res.Refused {
				why = append(why, r.Why)
			}
			if checks != tt.checks || says != tt.says || (tt.refused == "") != (len(why) == 0) || tt.refused != "" && !strings.Contains(strings.Join(why, "; "), tt.refused) {
				t.Errorf("kept %d checks, %d phrasings; refused %q; want %d, %d, %q", checks, says, why, tt.checks, tt.says, tt.refused)
			}
		})
	}
}

// TestValidate_requireBefore: a check that asks for a step before a
// command must be satisfied by that step.
func TestValidate_requireBefore(t *testing.T) {
	lint := &check.CommandPattern{Programs: []string{"make"}, Sub: []string{"lint"}}
	commit := &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"commit"}}
	ok := Answer{Rules: []RuleAnswer{{ID: rules[1].ID, Is: IsRule, Checks: []CheckAnswer{{Check: check.Check{Kind: check.RequireBefore, Command: commit, Before: lint}, Bad: []Call{{Commit: "feat: x"}}}}}}}
	res, err := Validate(ok, rules, Options{})
	if err != nil || len(res.Compiled) != 1 || len(res.Compiled[0].Checks) != 1 {
		t.Fatalf("a sound require-before check: %+v, %v", res, err)
	}
	// Its step never satisfies it: "before" names another program.
	deaf := ok
	deaf.Rules = []RuleAnswer{{ID: rules[1].ID, Is: IsRule, Checks: []CheckAnswer{{Check: check.Check{Kind: check.RequireBefore, Command: commit,
		Before: &check.CommandPattern{Programs: []string{"make"}, Sub: []string{"lint"}, Except: []*check.CommandPattern{{Programs: []string{"make"}}}}}, Bad: []Call{{Commit: "feat: x"}}}}}}
	res, err = Validate(deaf, rules, Options{})
	if err != nil || len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Why, "does not recognise the step") {
		t.Errorf("a require-before check its step cannot satisfy: %+v, %v", res.Refused, err)
	}
	// A step named by its path, with the argument it needs, is recognised.
	script := ok
	script.Rules = []RuleAnswer{{ID: rules[1].ID, Checks: []CheckAnswer{{Check: check.Check{Kind: check.RequireBefore, Command: commit,
		Before: &check.CommandPattern{Programs: []string{"./lint.sh"}, Args: []string{"api"}}}, Bad: []Call{{Commit: "feat: x"}}}}}}
	if res, err := Validate(script, rules, Options{}); err != nil || len(res.Refused) != 0 || len(res.Compiled) != 1 || len(res.Compiled[0].Checks) != 1 {
		t.Errorf("a require-before check whose step is a script with an argument: %+v, %v", res.Refused, err)
	}
	// A step named by its runner and the words after it is recognised.
	viaRunner := ok
	viaRunner.Rules = []RuleAnswer{{ID: rules[1].ID, Checks: []CheckAnswer{{Check: check.Check{Kind: check.RequireBefore, Command: commit,
		Before: &check.CommandPattern{Programs: []string{"uvx"}, Sub: []string{"lefthook", "run"}}}, Bad: []Call{{Commit: "feat: x"}}}}}}
	if res, err := Validate(viaRunner, rules, Options{}); err != nil || len(res.Refused) != 0 {
		t.Errorf("a require-before check naming the runner: %+v, %v", res.Refused, err)
	}
	// A step named by an argument glob is the good example that runs it;
	// with no such example, the step cannot be run and the check is refused.
	globbed := check.Check{Kind: check.RequireBefore, Command: &check.CommandPattern{Programs: []string{"git"}, Sub: []string{"push"}},
		Before: &check.CommandPattern{Programs: []string{"mvn"}, Args: []string{"checkstyle:check*"}}}
	withGood := ok
	withGood.Rules = []RuleAnswer{{ID: rules[1].ID, Checks: []CheckAnswer{{Check: globbed, Bad: []Call{{Run: "git push origin topic"}}, Good: []Call{{Run: "mvn checkstyle:check@validate"}}}}}}
	if res, err := Validate(withGood, rules, Options{}); err != nil || len(res.Refused) != 0 || len(res.Compiled) != 1 || len(res.Compiled[0].Checks) != 1 {
		t.Errorf("a require-before check whose step is its good example: %+v, %v", res.Refused, err)
	}
	noGood := ok
	noGood.Rules = []RuleAnswer{{ID: rules[1].ID, Checks: []CheckAnswer{{Check: globbed, Bad: []Call{{Run: "git push origin topic"}}, Good: []Call{{Run: "git status"}}}}}}
	if res, err := Validate(noGood, rules, Options{}); err != nil || len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Why, "does not recognise the step") {
		t.Errorf("a require-before check whose step no example runs: %+v, %v", res.Refused, err)
	}
	// A bad example the check misses says how the call was read.
	miss := ok
	miss.Rules = []RuleAnswer{{ID: rules[1].ID, Checks: []CheckAnswer{{Check: check.Check{Kind: check.Forbid,
		Command: &check.CommandPattern{Programs: []string{"uvx"}, Sub: []string{"ruff", "format"}}}, Bad: []Call{{Run: "uvx ruff check ."}}}}}}
	if res, err := Validate(miss, rules, Options{}); err != nil || len(res.Refused) != 1 || !strings.Contains(res.Refused[0].Why, "runs as program ruff check . via uvx") {
		t.Errorf("a check that misses its bad example: %+v, %v", res.Refused, err)
	}
}

// TestValidate_wrongPrompt: an answer to another prompt is refused whole;
// one that leaves rules out, or names a rule since edited, keeps the rest.
func TestValidate_wrongPrompt(t *testing.T) {
	if _, err := Validate(Answer{Rules: []RuleAnswer{{ID: "r00000000", Is: IsRule}}}, rules, Options{}); err == nil {
		t.Error("an answer naming none of the rules was accepted")
	}
	if _, err := Validate(Answer{Rules: []RuleAnswer{{ID: rules[2].ID, Is: IsMap}, {ID: rules[2].ID, Is: IsMap}}}, rules, Options{}); err == nil {
		t.Error("an answer naming a rule twice was accepted")
	}
	res, err := Validate(Answer{Rules: []RuleAnswer{{ID: rules[2].ID, Is: IsDescription}, {ID: "r00000000", Is: IsRule}}}, rules, Options{})
	if err != nil || len(res.Compiled) != 1 || len(res.Missing) != 2 || len(res.Unknown) != 1 {
		t.Errorf("a partial answer: %+v, %v", res, err)
	}
}

// TestParse: what an answer may look like, and the errors that say what
// to fix.
func TestParse(t *testing.T) {
	tests := []struct {
		in, err string
	}{
		{`{"rules":[{"id":"r1","is":"map"}]}`, ""},
		{"```json\n{\"rules\":[]}\n```", ""},
		{`{"rules":[{"id":"r1","is":"map","why":"x"}]}`, "unknown field"},
		{`{"model":"m"}`, `no "rules"`},
		{`{"rules":[]} {"rules":[]}`, "more than one"},
		{`not json`, "not JSON"},
		{`{"other":{"map":["r1"]}}`, ""},
		{`{"rules":[],"other":{"maps":["r1"]}}`, `"other" has the kind "maps"`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Parse(%q) = %v, want %q", tt.in, err, tt.err)
		}
	}
	// The lines listed in "other" are rules entries with only id and is,
	// after those of "rules", by kind in a fixed order.
	a, err := Parse([]byte(`{"rules":[{"id":"r1","do":"dont"}],"other":{"map":["r3","r4"],"description":["r2"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []RuleAnswer{{ID: "r1", Do: Dont}, {ID: "r2", Is: IsDescription}, {ID: "r3", Is: IsMap}, {ID: "r4", Is: IsMap}}
	if !reflect.DeepEqual(a.Rules, want) || a.Other != nil {
		t.Errorf("folded: %+v (other %v), want %+v", a.Rules, a.Other, want)
	}
}

// TestPrompt: the prompt a consultant is given, as a golden file.
func TestPrompt(t *testing.T) {
	got := Prompt("CLAUDE.md", rules)
	path := filepath.Join("testdata", "prompt.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the prompt differs from %s (go test ./consult -run TestPrompt -update, then review):\n%s", path, got)
	}
	for id, short := range ShortIDs(rules) {
		if !strings.HasPrefix(id, short) || !strings.Contains(got, "\n"+short+" | ") {
			t.Errorf("the prompt does not name %s by %s", id, short)
		}
	}
}

// TestShortIDs: a prompt names a rule by a prefix of its id, unless two
// rules share it; an answer may name it either way, and a prefix two rules
// asked about share names neither.
func TestShortIDs(t *testing.T) {
	twins := []Rule{{ID: "rabcdef01", Text: "Use pnpm."}, {ID: "rabcdef02", Text: "Use uv."}, {ID: "r12345678", Text: "Use just."}}
	short := ShortIDs(twins)
	if short["rabcdef01"] != "rabcdef01" || short["rabcdef02"] != "rabcdef02" || short["r12345678"] != "r123456" {
		t.Fatalf("short ids: %v", short)
	}
	a := Answer{Rules: []RuleAnswer{{ID: "r123456", Is: IsMap}, {ID: "rabcdef02", Is: IsMap}, {ID: "rabcdef", Is: IsMap}}}
	res, err := Validate(a, twins, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var named []string
	for _, r := range res.Named {
		named = append(named, r.ID)
	}
	if strings.Join(named, " ") != "r12345678 rabcdef02" || strings.Join(res.Unknown, " ") != "rabcdef" || strings.Join(res.Missing, " ") != "rabcdef01" {
		t.Errorf("named %v, unknown %v, missing %v", named, res.Unknown, res.Missing)
	}
	// One rule named by its id and by its prefix is named twice.
	if _, err := Validate(Answer{Rules: []RuleAnswer{{ID: "r123456", Is: IsMap}, {ID: "r12345678", Is: IsMap}}}, twins, Options{}); err == nil {
		t.Error("a rule named by its prefix and its id was accepted")
	}
}

// TestShortWhen: a heading path shares its leading headings with the one
// before as "…".
func TestShortWhen(t *testing.T) {
	tests := []struct{ when, prev, want string }{
		{"Guide > Testing", "", "Guide > Testing"},
		{"Guide > Testing", "Guide > Style", "… > Testing"},
		{"Guide > Testing > Go", "Guide > Testing", "… > Go"},
		{"Guide", "Guide > Testing", "Guide"},
		{"Other > Testing", "Guide > Testing", "Other > Testing"},
		{"files: *.go", "Guide", "files: *.go"},
	}
	for _, tt := range tests {
		if got := shortWhen(tt.when, tt.prev); got != tt.want {
			t.Errorf("shortWhen(%q, %q) = %q, want %q", tt.when, tt.prev, got, tt.want)
		}
	}
}

func TestRuleID(t *testing.T) {
	a := RuleID("Use pnpm.", "Tooling")
	if a != RuleID(" Use pnpm. ", "Tooling") || a == RuleID("Use pnpm!", "Tooling") || a == RuleID("Use pnpm.", "Build") || len(a) != 9 {
		t.Errorf("RuleID is not an identity of text and context: %s", a)
	}
}

// FuzzParse: any text gives an answer or an error, and a parsed answer
// validates without panicking.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"rules":[{"id":"` + rules[0].ID + `","is":"rule","say":["a b c"],"checks":[{"kind":"forbid","write":{"paths":["*.heex"],"text":"<!--"},"bad":[{"write":"a.heex","text":"<!--"}]}]}]}`))
	f.Add([]byte(`{"rules":[{"id":"` + rules[1].ID + `","is":"rule","checks":[{"kind":"require-before","command":{"programs":["git"],"sub":["commit"]},"before":{"programs":["make"]},"bad":[{"commit":"x"},{"run":"git commit -m 'a"}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := Parse(data)
		if err != nil {
			return
		}
		Validate(a, rules, Options{Recorded: []string{"git status", "make lint"}, MinRecorded: 1})
	})
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

// TestValidate_sayAgainstTheShownRule: a phrasing is held to the words of
// the rule as the prompt shows it, cut at maxRuleBytes; a word past the
// cut was never shown, and using it costs the phrasing nothing.
func TestValidate_sayAgainstTheShownRule(t *testing.T) {
	long := "Keep the web layer thin: " + strings.Repeat("handlers only decode requests and encode responses, ", 9) + "and the ledger reconciliation runs nightly."
	if !strings.Contains(long[maxRuleBytes:], "ledger reconciliation") {
		t.Fatalf("the test rule is not cut before its last words (%d bytes)", len(long))
	}
	r := Rule{ID: RuleID(long, ""), Text: long}
	say := []string{"ledger reconciliation script", "nightly ledger job", "reconciliation failed overnight", "fix the ledger totals", "tune the reconciliation batch"}
	res, err := Validate(Answer{Rules: []RuleAnswer{{ID: r.ID, Is: IsRule, Do: Do, Say: say}}}, []Rule{r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Compiled) != 1 || len(res.Compiled[0].Say) != len(say) || len(res.Refused) != 0 {
		t.Errorf("kept %+v, refused %+v; want all %d phrasings", res.Compiled, res.Refused, len(say))
	}
}
