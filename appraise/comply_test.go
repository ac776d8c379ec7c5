package appraise

import (
	"slices"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
)

// TestApplicableRule_namedBreach: a plan that follows the best rule but
// names outright what one of the next rules forbids is cautioned on that
// rule; a breach by a rule past the first three, or one only read from a
// missing step, does not outvote the compliance.
func TestApplicableRule_namedBreach(t *testing.T) {
	general := ownRule("Lgeneral", "Tests use the sqllogictest format (`.test` files).", 0.28)
	slow := ownRule("Lslow", "Long-running tests should use the `.test_slow` extension instead of `.test`.", 0.24)
	other := ownRule("Lother", "Run `make format-fix` before committing.", 0.20)
	filler := ownRule("Lfiller", "Use `idx_t` instead of `size_t` for offsets.", 0.19)
	slowFourth := ownRule("Lslow", "Long-running tests should use the `.test_slow` extension instead of `.test`.", 0.15)
	tests := []struct {
		name      string
		candidate string
		rules     []Lesson
		want      Valence
		wantID    string
	}{
		{"the forbidden object named outright outranks a compliance", "Save it as `test/sql/join/spill.test`.",
			[]Lesson{general, slow, other}, Caution, "Lslow"},
		{"the rule's own alternative complies", "Save it as `test/sql/join/spill.test_slow`.",
			[]Lesson{general, slow, other}, Affirm, "Lslow"},
		{"a breach past the first three rules does not count", "Save it as `test/sql/join/spill.test`.",
			[]Lesson{general, other, filler, slowFourth}, Affirm, "Lgeneral"},
		{"a missing step of a later rule does not count", "Save it as `test/sql/join/spill.test` and commit it.",
			[]Lesson{general, other}, Affirm, "Lgeneral"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := applicableRule(Input{Candidate: tc.candidate, Lessons: tc.rules}, DefaultConfig())
			if r.valence != tc.want || r.lesson.ID != tc.wantID {
				t.Errorf("valence %s by %q (%s), want %s by %q", r.valence, r.lesson.ID, r.finding.Result, tc.want, tc.wantID)
			}
		})
	}
}

// TestApplicableRule_breachFloor: a rule that resonates below
// appraise.rule.floor decides only on a breach the candidate names
// outright; the same rule's compliance there does not decide.
func TestApplicableRule_breachFloor(t *testing.T) {
	text := "Use Google-style docstrings (`Args:`/`Returns:` sections), not reST (`:param:`/`:return:`)."
	d := directive.Parse(text, "")
	weak := Lesson{ID: "Ldoc", Content: text, Own: true, Directive: &d, Score: 0.12, Resonance: 0.03}
	cfg := DefaultConfig()
	tests := []struct {
		name      string
		candidate string
		want      Valence
	}{
		{"a named breach decides", "```python\n\"\"\"Compute it.\n\n:param x: the input\n:return: the slot\n\"\"\"\n```", Caution},
		{"a compliance does not", "```python\n\"\"\"Compute it.\n\nArgs:\n    x: the input\n\"\"\"\n```", Neutral},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := applicableRule(Input{Candidate: tc.candidate, Lessons: []Lesson{weak}}, cfg)
			if r.valence != tc.want {
				t.Errorf("valence %s (%s on %q), want %s", r.valence, r.finding.Result, r.finding.Object.Text, tc.want)
			}
		})
	}
	cfg.BreachFloor = cfg.RuleFloor
	if r := applicableRule(Input{Candidate: tests[0].candidate, Lessons: []Lesson{weak}}, cfg); r.valence != Neutral {
		t.Errorf("with the breach floor at the rule floor: valence %s, want neutral", r.valence)
	}
}

// TestAppraise_readOnlyPlanAgainstRules: a plan that only reads and
// reports, against the project's own rules alone, none of which can rule
// on it, abstains (sparse_evidence); the same rules and a plan that acts
// do not, nor an answer, nor a read-only plan when a lesson beyond the
// project's own rules speaks.
func TestAppraise_readOnlyPlanAgainstRules(t *testing.T) {
	cfg := DefaultConfig()
	own := func(id, text string) Lesson {
		d := directive.Parse(text, "")
		l := rule(id, 0.4, 0.5)
		l.Content, l.Own, l.Directive, l.Origin = text, true, &d, confidence.OriginUserStated
		return l
	}
	rules := []Lesson{
		own("Lmap", "The app has two product flavors, demo and prod; prod talks to the backend."),
		own("Lfmt", "Run `./gradlew spotlessApply` before committing."),
	}
	tests := []struct {
		name      string
		candidate string
		lessons   []Lesson
		want      AbstainReason
	}{
		{"a read-only plan abstains",
			"Read core/network/src/demo and core/network/src/prod and say which backend each build variant talks to.", rules, SparseEvidence},
		{"a plan that acts does not",
			"Edit core/network/src/prod/RetrofitNiaNetwork.kt to call the new endpoint.", rules, ""},
		{"an answer, which neither acts nor looks, does not",
			"Initialise the map with make before writing to it.", rules, ""},
		{"a read-only plan with a lesson beyond the rules does not",
			"Read core/network/src/demo and core/network/src/prod and say which backend each build variant talks to.",
			append(slices.Clone(rules), rule("Lother", 0.4, 0.5)), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := Appraise(Input{Candidate: tc.candidate, Lessons: tc.lessons}, cfg).Verdict
			if v.AbstainReason != tc.want {
				t.Errorf("abstain reason %q (valence %s), want %q", v.AbstainReason, v.Valence, tc.want)
			}
		})
	}
}

// TestApplicableRule_situation: a rule whose condition names what is
// changed (the `api/` module) decides by what the plan leaves out only when
// the plan or the situation names it; the summary of a breach of a base
// class says so.
func TestApplicableRule_situation(t *testing.T) {
	d := directive.Parse("Run `make crd_install` to update derived CRDs", "Guide > CRD Changes: If you changed anything in the api/ module")
	crd := Lesson{ID: "Lcrd", Content: "Run `make crd_install` to update derived CRDs", Own: true, Directive: &d, Score: 0.3, Resonance: 0.3}
	plan := "Hand-edit packaging/install/045-Crd-kafkanodepool.yaml and commit it."
	tests := []struct {
		name, situation string
		want            Valence
	}{
		{"the situation changed api/", "I added a field to api/src/main/java/io/strimzi/api/KafkaNodePoolSpec.java.", Caution},
		{"nothing in api/", "The CRD YAML for node pools has a typo in a description.", Neutral},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := applicableRule(Input{Candidate: plan, Situation: tc.situation, Lessons: []Lesson{crd}}, DefaultConfig())
			if r.valence != tc.want {
				t.Errorf("valence %s (%s), want %s", r.valence, r.finding.Result, tc.want)
			}
		})
	}

	e := directive.Parse("Errors extend `AISDKError` from `@ai-sdk/provider`.", "")
	base := Lesson{ID: "Lbase", Content: "Errors extend `AISDKError` from `@ai-sdk/provider`.", Own: true, Directive: &e, Score: 0.3, Resonance: 0.3}
	cand := "Add `export class InvalidToolApprovalError extends Error {}` to errors.ts."
	r := applicableRule(Input{Candidate: cand, Lessons: []Lesson{base}}, DefaultConfig())
	if r.valence != Caution {
		t.Fatalf("valence %s (%s), want caution", r.valence, r.finding.Result)
	}
	if got, want := ruleSummary(r, cand), "a class here extends another base than `AISDKError`"; !strings.Contains(got, want) {
		t.Errorf("summary %q, want it to say %q", got, want)
	}
}

// TestApplicableRule_outrightBreach: a rule whose check the plan breaks
// outright decides however low it ranks, ahead of the rule in rank; a
// breach that is not outright (a step missing before) decides only in
// rank, as before.
func TestApplicableRule_outrightBreach(t *testing.T) {
	run := ownRule("Lrun", "Run the app with `cargo run --bin app`.", 0.36)
	debug := ownRule("Ldebug", "Use debug builds when developing.", 0.01)
	candidate := "`cargo run --release --bin app -- check sample.py`"
	breaches := map[string]string{"Ldebug": "cargo run --release --bin app"}
	for _, tc := range []struct {
		name     string
		outright map[string]bool
		want     Valence
		wantID   string
	}{
		{"an outright breach of a rule that barely resonates decides", map[string]bool{"Ldebug": true}, Caution, "Ldebug"},
		{"a breach that is not outright does not, out of rank: the rule in rank decides", nil, "", "Lrun"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := applicableRule(Input{Candidate: candidate, Lessons: []Lesson{run, debug}, Breaches: breaches, Outright: tc.outright}, DefaultConfig())
			if tc.want != "" && r.valence != tc.want || r.lesson.ID != tc.wantID {
				t.Errorf("valence %s by %q, want %s by %q", r.valence, r.lesson.ID, tc.want, tc.wantID)
			}
		})
	}
}

// TestApplicableRule_notRuleAsksNothing: a line a consultant read as no
// rule (a map entry naming a command) does not caution a plan for leaving
// out what it names; read as a rule, the same line does.
func TestApplicableRule_notRuleAsksNothing(t *testing.T) {
	text := "Lint: `cargo clippy --all-targets`."
	d := directive.Parse(text, "")
	l := Lesson{ID: "Llint", Content: text, Own: true, Directive: &d, Score: 0.4, Resonance: 0.4}
	plan := "Run `cargo build` and push the branch."
	if r := applicableRule(Input{Candidate: plan, Lessons: []Lesson{l}}, DefaultConfig()); r.valence != Caution || r.finding.Result != directive.Lacks {
		t.Fatalf("read as a rule: valence %s (%s), want a caution for what it lacks", r.valence, r.finding.Result)
	}
	l.NotRule = true
	if r := applicableRule(Input{Candidate: plan, Lessons: []Lesson{l}}, DefaultConfig()); r.valence == Caution {
		t.Errorf("read as no rule: valence %s (%s), want no caution", r.valence, r.finding.Result)
	}
}

// TestApplicableRule_rival: a plan that does a rule's job with another thing
// of the same kind breaks it even when the rule is not the best ranked; a
// plan that only leaves the thing out does not, there.
func TestApplicableRule_rival(t *testing.T) {
	top := ownRule("Ltop", "Keep screen files under 300 lines.", 0.40)
	harness := ownRule("Lharness", "Always test screens with `PageTestHarness`.", 0.30)
	for _, tc := range []struct {
		plan string
		want Valence
	}{
		{"Test the settings screen with `LegacyBrowserHarness` and assert on its title.", Caution},
		{"Test the settings screen and assert on its title.", Neutral},
	} {
		r := applicableRule(Input{Candidate: tc.plan, Lessons: []Lesson{top, harness}}, DefaultConfig())
		if r.valence != tc.want && !(tc.want == Neutral && r.valence == "") {
			t.Errorf("%q: valence %q by %q (%s), want %q", tc.plan, r.valence, r.lesson.ID, r.finding.Result, tc.want)
		}
	}
}
