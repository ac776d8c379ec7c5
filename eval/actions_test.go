//go:build !race

// The quality tests replay whole evaluation sets: single-threaded work the
// race detector slows some five times and learns nothing from. The README's
// test command runs this package again without -race.

package eval_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/internal/fakeembed"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/storage"
)

// TestActions_realToolCalls replays the actions set (testdata/actions: real
// tool calls from public repositories' committed agent chats, labelled by
// sessions that never saw the code) through the PreToolUse hook. Both
// halves are held to the levels of precision: few asks, nearly all
// right and quoting the broken rule. Recall is held at the levels measured
// (docs/hooks.md, "Measured"): 0.39 on the tune half, whose repositories
// were read while the reader was built; on the check half, whose rules are
// mostly about process and code style, the built-in reader catches 9 of
// 68 breaches, short of the 0.30.
func TestActions_realToolCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 2,648 tool calls")
	}
	t.Parallel()
	for _, v := range []struct{ name, consultant string }{
		{"reader", ""},
		// The recorded consultant's answers (testdata/actions/consultant).
		{"with the consultant", filepath.Join("testdata", "actions", "consultant")},
	} {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			replayActions(t, v.consultant)
		})
	}
}

// TestActions_ruleFileAudit replays the audit set (testdata/explain: real
// rule files of 246 repositories, with everyday compliant actions and plain
// breaches that sessions that never saw the code wrote for each, before
// they ran the program) through the PreToolUse hook, with and without the
// consultant's recorded answers (testdata/explain/consultant, written by
// other sessions from the prompts alone). Its check half is only counted;
// its tune half was read for readers v18 to v34. Held at the figures
// measured (docs/hooks.md and docs/consultant.md, "Measured"): batch g,
// added unread, raised the consultant's compliant flags on the check half
// from 2.22 to 2.75 per 100; batches h and i, added unread, are below.
func TestActions_ruleFileAudit(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 1,825 actions")
	}
	for _, v := range []struct {
		name, consultant string
		// per half: precision of asks and of flags, recall, and compliant
		// calls flagged per 100 at most
		tune, check [4]float64
	}{
		// Batch h, added unread, took the check half's recall from 0.31
		// to 0.29 and its compliant calls flagged to 1.07 per 100; batch
		// i (at v33) its recall to 0.292 and its compliant calls asked to
		// 1.15 per 100.
		{"reader", "", [4]float64{0.85, 0.84, 0.30, 3}, [4]float64{0.93, 0.93, 0.29, 1.5}},
		{"consultant", filepath.Join("testdata", "explain", "consultant"), [4]float64{0.90, 0.90, 0.74, 3.5}, [4]float64{0.93, 0.93, 0.72, 3}},
	} {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			rep := runActions(t, filepath.Join("testdata", "explain"), v.consultant)
			t.Logf("tune: %+v", rep.Tune)
			t.Logf("check: %+v", rep.Check)
			if rep.Calls < 1800 || rep.Repos < 240 || rep.Check.Repos < 120 {
				t.Fatalf("the set has %d actions from %d repositories, %d of them in the check half", rep.Calls, rep.Repos, rep.Check.Repos)
			}
			// The sources name nine batches, whose figures add up to the
			// whole.
			calls, asks := 0, 0
			for _, b := range rep.Batches {
				calls, asks = calls+b.Calls, asks+b.Asks
			}
			if len(rep.Batches) != 9 || calls != rep.Calls || asks != rep.Asks {
				t.Errorf("batches %+v hold %d calls and %d asks; the set %d and %d", rep.Batches, calls, asks, rep.Calls, rep.Asks)
			}
			if v.consultant != "" && (rep.Consultant == nil || rep.Consultant.Files < 260 || rep.Consultant.Checks < 2200) {
				t.Errorf("recorded answers applied: %+v", rep.Consultant)
			}
			for _, h := range []struct {
				name string
				f    eval.ActionFigures
				want [4]float64
			}{{"tune", rep.Tune, v.tune}, {"check", rep.Check, v.check}} {
				f := h.f
				if f.AskPrecision < h.want[0] || f.FlagPrecision < h.want[1] || f.RecallRule < h.want[2] || f.CompliantFlagsPer100 > h.want[3] {
					t.Errorf("%s half: precision of asks %.3f, of flags %.3f, recall %.3f, compliant calls flagged %.2f per 100; want at least %.2f, %.2f, %.2f and at most %.0f",
						h.name, f.AskPrecision, f.FlagPrecision, f.RecallRule, f.CompliantFlagsPer100, h.want[0], h.want[1], h.want[2], h.want[3])
				}
			}
		})
	}
}

// replayActions replays the set, with a consultant's recorded answers when
// consultant is set, and holds its figures.
func replayActions(t *testing.T, consultant string) {
	rep := runActions(t, filepath.Join("testdata", "actions"), consultant)
	if consultant != "" && (rep.Consultant == nil || rep.Consultant.Files < 20 || rep.Consultant.Checks < 100) {
		t.Errorf("recorded answers applied: %+v", rep.Consultant)
	}
	holdActions(t, rep)
}

// runActions replays the actions set in data through the PreToolUse hook,
// with a consultant's recorded answers when consultant is set.
func runActions(t *testing.T, data, consultant string) eval.ActionsReport {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := storage.Open(ctx, filepath.Join(dir, "eval.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// PreToolUse reads no embedding: a fake encoder keeps the import fast.
	k, err := kb.New(kb.Config{Store: db, Embedder: fakeembed.New(64), Session: "eval"})
	if err != nil {
		t.Fatal(err)
	}
	sync := rulesync.New(k, db, rulesync.Options{})
	state := &hook.StateDir{Dir: filepath.Join(dir, "state")}
	rep, err := eval.Actions(ctx, data, eval.ActionsOptions{
		Root: filepath.Join(dir, "repos"), Lesson: k.Lesson, Consultant: consultant, KB: k,
		Handler: func(root string) *hook.Handler {
			return &hook.Handler{KB: k, Config: hook.DefaultConfig(), Project: func(string) string { return root }, State: state, SyncRules: sync.Seen}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// holdActions holds the actions set's figures.
func holdActions(t *testing.T, rep eval.ActionsReport) {
	t.Helper()
	t.Logf("all: %+v", rep.ActionFigures)
	t.Logf("tune: %+v", rep.Tune)
	t.Logf("check: %+v", rep.Check)
	if rep.Calls < 800 || rep.Repos < 12 || rep.Check.Repos < 6 {
		t.Fatalf("the set has %d calls from %d repositories, %d of them in the check half", rep.Calls, rep.Repos, rep.Check.Repos)
	}
	// 28 of the check half's breaches are edits the chat showed without
	// their text or path: recall over the breaches a call shows is the
	// higher figure, and counts the same catches.
	if rep.Check.Shown < 30 || rep.Check.Shown >= rep.Check.Breaches || rep.Check.RecallShownRule <= rep.Check.RecallRule ||
		rep.Tune.Shown != rep.Tune.Breaches || rep.Tune.RecallShownRule != rep.Tune.RecallRule {
		t.Errorf("breaches shown: check %d of %d (recall %.3f, %.3f over all); tune %d of %d (recall %.3f, %.3f)",
			rep.Check.Shown, rep.Check.Breaches, rep.Check.RecallShownRule, rep.Check.RecallRule,
			rep.Tune.Shown, rep.Tune.Breaches, rep.Tune.RecallShownRule, rep.Tune.RecallRule)
	}
	// The goals are the check half's (issue 26). The tune half, read while
	// the reader was built, is held to its own figures: its asks are all
	// right (precision 1.00, 23 of 23 with message templates), and there
	// are a little more than 2 per 100 calls. Batch 2 (five more
	// repositories, read by no one) brought 22 tune breaches that no check
	// reaches (edits of a rule that names a tool to edit with) and 14 check
	// breaches: recall fell with it, on both halves.
	for _, h := range []struct {
		name   string
		f      eval.ActionFigures
		asks   float64
		recall float64
	}{{"tune", rep.Tune, 2.2, 0.30}, {"check", rep.Check, 2, 0.10}} {
		c := h.f
		for _, x := range []struct {
			name      string
			got, want float64
			atMost    bool
		}{
			{"asks per 100 calls", c.AsksPer100, h.asks, true},
			{"precision of asks", c.AskPrecision, 0.70, false},
			{"precision of asks quoting the broken rule", c.AskPrecisionRule, 0.60, false},
			{"flags per 100 calls", c.FlagsPer100, 6, true},
			{"precision of flags", c.FlagPrecision, 0.50, false},
			{"recall of breaches with the right rule", c.RecallRule, h.recall, false},
		} {
			if x.atMost && x.got > x.want || !x.atMost && x.got < x.want {
				bound := "at least"
				if x.atMost {
					bound = "at most"
				}
				t.Errorf("%s half: %s = %.3f, want %s %.2f", h.name, x.name, x.got, bound, x.want)
			}
		}
	}
}
