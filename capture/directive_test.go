package capture

import "testing"

func TestDirective(t *testing.T) {
	for _, c := range []struct{ msg, want string }{
		{"No, I told you to use pnpm, not npm!", "use pnpm, not npm"},
		{"Don't use npm, use pnpm.", "Don't use npm, use pnpm"},
		{"no, please never touch migrations/", "please never touch migrations/"},
		{"I said to run `make lint` before committing", "run `make lint` before committing"},
		{"Use gofumpt instead of go fmt.", "Use gofumpt instead of go fmt"},
		{"Wrong. Run the tests with make test, not go test.", "Run the tests with make test, not go test"},
		{"Why did you use npm there?", ""},
		{"still the same error", ""},
		{"That's not what I asked.", ""},
		{"Non, n'utilise pas npm, utilise pnpm.", "n'utilise pas npm, utilise pnpm"},
		{"不要用 npm，用 pnpm", "不要用 npm，用 pnpm"},
	} {
		if got := Directive(c.msg); got != c.want {
			t.Errorf("Directive(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

func FuzzDirective(f *testing.F) {
	for _, s := range []string{"No, I told you to use pnpm, not npm!", "why?", "不要用 npm，用 pnpm", "```\ncode\n```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := Directive(s)
		if len(d) > len(s) {
			t.Fatalf("Directive(%q) = %q is longer than the message", s, d)
		}
	})
}

// TestRead_questionsAndConventions: a question is no correction unless it
// rejects what was done, and a convention's own verb directs.
func TestRead_questionsAndConventions(t *testing.T) {
	prev := "I ran npm install lodash and added tests with assert."
	for _, c := range []struct {
		msg              string
		correction, rule bool
	}{
		{"Why did you use npm there?", false, false},
		{"why did you use npm? I said pnpm", true, false},
		{"In this repo we use testify's require, never assert.", false, true},
		{"We prefer table tests in this project.", false, true},
		{"We use Redis for the cache, and the bug is in the loader.", false, false},
		{"We use Go 1.26.", false, false},
	} {
		r := Read(c.msg, prev)
		if r.Correction != c.correction || r.Rule != c.rule {
			t.Errorf("Read(%q): correction %v (%.2f), rule %v (%.2f); want %v, %v", c.msg, r.Correction, r.CorrectionScore, r.Rule, r.RuleScore, c.correction, c.rule)
		}
	}
}

// TestRead_negatedResult: after the agent claimed a change, a statement
// that what it names does not work reads as a correction; a question, or
// a negation of something the agent's turn does not name, does not.
func TestRead_negatedResult(t *testing.T) {
	prev := "I've updated the theme colours of the cards and the navbar; they should now match the brand palette."
	for _, c := range []struct {
		msg  string
		want bool
	}{
		{"The navbar is not blue.", true},
		{"The cards don't match the palette.", true},
		{"Are the navbar colours not supposed to change?", false},
		{"Don't touch the navbar.", false}, // an imperative: the negate cue's own reading
		{"I have not decided on the footer yet.", false},
	} {
		if r := Read(c.msg, prev); r.Correction != c.want {
			t.Errorf("Read(%q): correction %v (%.2f, %v), want %v", c.msg, r.Correction, r.CorrectionScore, r.Cues, c.want)
		}
	}
}

// TestRead_pastedFailure: output pasted after the agent claimed a fix
// that shows a failure (as runlog reads a command's output) is a
// correction, whatever words go with it; the same output with no claim
// before it, or output that passed, is not.
func TestRead_pastedFailure(t *testing.T) {
	claimed := "I fixed the rounding in cart/total.go; the discount is now applied to cents."
	asked := "Which package holds the cart totals?"
	failing := "--- FAIL: TestTotal (0.00s)\n    total_test.go:12: got 10.01, want 10\nFAIL\nFAIL\tshop/cart\t0.004s"
	traceback := "Traceback (most recent call last):\n  File \"app.py\", line 3, in <module>\n    total()\nZeroDivisionError: division by zero"
	passing := "ok  \tshop/cart\t0.004s"
	for _, c := range []struct {
		msg, prev string
		want      bool
	}{
		{failing, claimed, true},
		{traceback, claimed, true},
		{failing, asked, false},
		{passing, claimed, false},
	} {
		if r := Read(c.msg, c.prev); r.Correction != c.want {
			t.Errorf("Read(%.30q after %.20q): correction %v (%.2f, %v), want %v", c.msg, c.prev, r.Correction, r.CorrectionScore, r.Cues, c.want)
		}
	}
}
