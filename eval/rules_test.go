//go:build !race

// The quality tests replay whole evaluation sets: single-threaded work the
// race detector slows some five times and learns nothing from. The README's
// test command runs this package again without -race.

package eval_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/eval"
	"github.com/innate-mcp/innate-mcp/internal/evaldata"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/storage"
)

// TestRules_devSet runs the rules dev set (20 projects' own rule files) as
// `innate-mcp eval rules` does and holds the figures the README reports:
// the goals where they are met, the measured level (less a margin
// for the race detector's slower but identical run) where they are not yet.
func TestRules_devSet(t *testing.T) {
	if testing.Short() {
		t.Skip("imports the sets' rule files with the built-in encoder")
	}
	t.Parallel()
	dir := evaldata.Path(t, "rules")
	type bound struct {
		name   string
		got    func(eval.RulesReport) float64
		want   float64
		atMost bool
	}
	caution := func(r eval.RulesReport) float64 { return r.CautionViolates }
	alarms := func(r eval.RulesReport) float64 { return r.CautionComplies }
	affirm := func(r eval.RulesReport) float64 { return r.AffirmComplies }
	unrelated := func(r eval.RulesReport) float64 { return r.AbstainUnrelated }
	abstains := func(r eval.RulesReport) float64 { return r.AbstainRules }
	recall := func(r eval.RulesReport) float64 { return r.RecallHit3 }
	paraphrased := func(r eval.RulesReport) float64 { return r.RecallHit3Paraphrased }
	for _, v := range []struct {
		name, consultant string
		bounds           []bound
	}{
		{"reader", "", []bound{
			{"appraise caution on complies (false alarms)", alarms, 0.10, true},
			{"appraise affirm on complies", affirm, 0.50, false},
			{"appraise abstains on unrelated", unrelated, 0.80, false},
			{"appraise caution on violates", caution, 0.60, false},
			{"appraise abstains on rule scenarios", abstains, 0.25, true},
			{"recall hit@3", recall, 0.46, false},
		}},
		// The recorded consultant's answers (testdata/consultant): the
		// issue's goals for recall, and the caution measured, less a margin.
		{"with the consultant", filepath.Join("testdata", "consultant", "rules"), []bound{
			{"recall hit@3", recall, 0.70, false},
			{"recall hit@3, paraphrased situations", paraphrased, 0.40, false},
			{"appraise caution on complies (false alarms)", alarms, 0.08, true},
			{"appraise caution on violates", caution, 0.60, false},
			{"appraise abstains on unrelated", unrelated, 0.80, false},
		}},
	} {
		t.Run(v.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db, err := storage.Open(ctx, filepath.Join(t.TempDir(), "eval.db"), storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "eval"})
			if err != nil {
				t.Fatal(err)
			}
			rep, err := eval.Rules(ctx, k, dir, eval.RulesOptions{Consultant: v.consultant})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%+v", rep.RuleFigures)
			if rep.Missing != 0 {
				t.Errorf("%d rules of the set are in no imported lesson", rep.Missing)
			}
			if v.consultant != "" && (rep.Consultant == nil || rep.Consultant.Files != rep.Consultant.Asked) {
				t.Errorf("recorded answers applied: %+v", rep.Consultant)
			}
			for _, c := range v.bounds {
				got := c.got(rep)
				if c.atMost && got > c.want || !c.atMost && got < c.want {
					bound := "at least"
					if c.atMost {
						bound = "at most"
					}
					t.Errorf("%s = %.3f, want %s %.2f", c.name, got, bound, c.want)
				}
			}
		})
	}
}

// TestRules_independent runs the seven rules sets no constant was chosen on
// (testdata/rules-independent: 30 other repositories' rule files, written by
// sessions that never saw the code) and holds their pooled figures at the
// level the README reports, less a small margin. The goal for
// caution is not met there yet.
func TestRules_independent(t *testing.T) {
	if testing.Short() {
		t.Skip("imports the sets' rule files with the built-in encoder")
	}
	t.Parallel()
	ctx := context.Background()
	var violates, complies, unrelated, rules int
	var caution, alarms, affirm, abstainUnrelated, abstainRules float64
	for _, set := range []string{"a", "b", "c", "d", "e", "f", "g"} {
		db, err := storage.Open(ctx, filepath.Join(t.TempDir(), set+".db"), storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k, err := kb.New(kb.Config{Store: db, Embedder: embed.Builtin(), Session: "eval"})
		if err != nil {
			t.Fatal(err)
		}
		rep, err := eval.Rules(ctx, k, filepath.Join("testdata", "rules-independent", set), eval.RulesOptions{})
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("set %s: %+v", set, rep.RuleFigures)
		if rep.Missing > 1 {
			// Set c's strimzi rule is the lead-in of a list ("User-facing
			// documentation is in `documentation/` folder (AsciiDoc
			// format):"), which the importer reads as its items' context,
			// not as a lesson of its own; any other loss is a regression.
			t.Errorf("set %s: %d rules are in no imported lesson", set, rep.Missing)
		}
		// One plan that breaks and one that follows each rule's situation;
		// the rest are situations no rule covers.
		n, u := float64(rep.Rules), float64(rep.Scenarios-2*rep.Rules)
		violates += rep.Rules
		complies += rep.Rules
		unrelated += rep.Scenarios - 2*rep.Rules
		rules += 2 * rep.Rules
		caution += rep.CautionViolates * n
		alarms += rep.CautionComplies * n
		affirm += rep.AffirmComplies * n
		abstainUnrelated += rep.AbstainUnrelated * u
		abstainRules += rep.AbstainRules * 2 * n
	}
	for _, c := range []struct {
		name      string
		got, want float64
		atMost    bool
	}{
		{"appraise caution on violates", caution / float64(violates), 0.45, false},
		{"appraise caution on complies (false alarms)", alarms / float64(complies), 0.12, true},
		{"appraise affirm on complies", affirm / float64(complies), 0.62, false},
		{"appraise abstains on unrelated", abstainUnrelated / float64(unrelated), 0.87, false},
		{"appraise abstains on rule scenarios", abstainRules / float64(rules), 0.28, true},
	} {
		t.Logf("all seven: %s = %.3f", c.name, c.got)
		if c.atMost && c.got > c.want || !c.atMost && c.got < c.want {
			bound := "at least"
			if c.atMost {
				bound = "at most"
			}
			t.Errorf("%s = %.3f, want %s %.2f", c.name, c.got, bound, c.want)
		}
	}
}
