package main

import (
	"path/filepath"

	"context"
	"fmt"
	"github.com/innate-mcp/innate-mcp/hook"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/innate-mcp/innate-mcp/stats"
)

// runStats prints the health report (package stats).
func (m *Main) runStats(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var asJSON bool
	fs := newFlagSet("stats", g, stderr, "[--json]")
	fs.BoolVar(&asJSON, "json", false, "print JSON (schema: stats.schema.json) instead of a table")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), readAccess)
	if err != nil {
		return err
	}
	defer a.close()
	r, err := stats.Build(ctx, a.store, a.kb)
	if err != nil {
		return err
	}
	hc := stats.HookContext(m.hookSessions())
	r.HookContext = &hc
	if asJSON {
		return writeJSON(stdout, r)
	}
	return writeReport(stdout, r)
}

// writeReport prints the report for people.
func writeReport(w io.Writer, r stats.Report) error {
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	p := func(format string, args ...any) { fmt.Fprintf(tw, format, args...) }
	p("innate-mcp stats\t%s\n\n", r.GeneratedAt.Format(time.RFC3339))
	p("LESSONS\t%d\n", r.Lessons.Total)
	p("  by state\t%s\n", counts(r.Lessons.ByState, "active", "pending", "archived"))
	p("  by tier\t%s\n", counts(r.Lessons.ByTier, tierNames()...))
	p("  by origin\t%s\n", counts(r.Lessons.ByOrigin, "user_stated", "imported", "agent_inferred"))
	p("  stale (unused 30 days)\t%d (%.0f%% of recallable)\n", r.Lessons.Stale, 100*r.Lessons.StaleShare)
	p("\nRECALL\t%d calls, %d empty (%.0f%%), %d selections\n", r.Recall.Calls, r.Recall.Empty, 100*r.Recall.EmptyRate, r.Recall.Selections)
	for _, u := range r.Recall.Top {
		p("  %s\t%d (%.0f%%)  %s\n", u.LessonID, u.Count, 100*u.Share, u.Content)
	}
	h := r.Hesitation
	p("\nHESITATION\t%d calls, %d at or over the threshold (%.0f%%), %d held, %d error patterns\n", h.Calls, h.Triggered, 100*h.TriggerRate, h.Held, h.Patterns)
	p("  reviews of held items\t%d confirmed, %d rejected\n", h.Confirmed, h.Rejected)
	if len(h.Signals) > 0 {
		names := make([]string, 0, len(h.Signals))
		for n := range h.Signals {
			names = append(names, n)
		}
		sort.Slice(names, func(i, j int) bool { return h.Signals[names[i]] > h.Signals[names[j]] })
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s %d", n, h.Signals[n]))
		}
		p("  signals\t%s\n", strings.Join(parts, ", "))
	}
	ap := r.Appraise
	p("\nAPPRAISE\t%d verdicts, %d abstained (%.0f%%)\n", ap.Verdicts, ap.Abstained, 100*ap.AbstainRate)
	p("  abstentions with an outcome\t%d, %d justified (precision %s)\n", ap.KnownAbstentions, ap.Justified, orNA(ap.AbstentionPrecision))
	p("  calibration\t%d verdicts with an outcome, ECE %s, Brier %s\n", ap.Calibrated, orNA(ap.ECE), orNA(ap.Brier))
	p("\nROUTING\t%d decisions\n", r.Routing.Decisions)
	for _, m := range r.Routing.Modes {
		p("  %s\t%d (%.0f%%)  healthy %.0f-%.0f%%  %s\n", m.Mode, m.Count, 100*m.Share, 100*m.Range.Low, 100*m.Range.High, m.Status)
	}
	p("\nREGULATOR\t%d recent changes\n", len(r.Regulator))
	for _, c := range r.Regulator {
		p("  %s\t%s %s %.3f → %.3f\t%s\n", c.At.Format(time.DateTime), c.Kind, c.Param, c.Before, c.After, c.Reason)
	}
	p("\nCONTRADICTIONS\t%d linked, %d unresolved\n", r.Contradictions.Total, r.Contradictions.Unresolved)
	for _, pair := range r.Contradictions.Pairs {
		p("  %s ↔ %s\n", pair[0], pair[1])
	}
	writeRuleFiles(p, r.RuleFiles)
	if hc := r.HookContext; hc != nil {
		p("\nHOOK CONTEXT\t%d sessions kept, tokens per session: mean %.0f, p50 %d, p95 %d, max %d; %d withheld past the budget\n",
			hc.Sessions, hc.TokensMean, hc.TokensP50, hc.TokensP95, hc.TokensMax, hc.Withheld)
		events := make([]string, 0, len(hc.ByEvent))
		for ev := range hc.ByEvent {
			events = append(events, ev)
		}
		sort.Strings(events)
		for _, ev := range events {
			p("  %s\t%.0f tokens per session\n", ev, hc.ByEvent[ev])
		}
	}
	p("\nHEALTH\tvalue\thealthy\tstatus\n")
	for _, c := range r.Health {
		flag := ""
		if c.Status == "low" || c.Status == "high" {
			flag = "  ⚠"
		}
		p("  %s\t%.3f\t[%.2f, %.2f]\t%s%s\n", c.Name, c.Value, c.Low, c.High, c.Status, flag)
	}
	return tw.Flush()
}

// counts renders a count map in a fixed key order, then any other keys.
func counts(m map[string]int, order ...string) string {
	var parts []string
	seen := map[string]bool{}
	for _, k := range order {
		seen[k] = true
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		name := k
		if name == "" {
			name = "(none)"
		}
		parts = append(parts, fmt.Sprintf("%s %d", name, m[k]))
	}
	return strings.Join(parts, ", ")
}

// orNA prints a figure, or n/a for the -1 of "no data".
func orNA(v float64) string {
	if v < 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", v)
}

func tierNames() []string {
	var out []string
	for _, t := range confidence.AllTiers() {
		out = append(out, string(t))
	}
	return out
}

// writeRuleFiles prints the rule files synced, by project, for people.
func writeRuleFiles(p func(string, ...any), states []rulesync.State) {
	n := 0
	for _, st := range states {
		n += len(st.Files)
	}
	p("\nRULE FILES\t%d synced\n", n)
	for _, st := range states {
		project := st.Project
		if project == "" {
			project = "(global)"
		}
		for _, f := range st.Files {
			p("  %s\tsynced %s, %d rules (+%d ~%d -%d)\t%s\n", f.Path, f.SyncedAt.Local().Format(time.DateTime), f.Rules, f.Added, f.Changed, f.Removed, project)
		}
	}
}

// hookSessions are the hooks' kept session states (none when the data
// directory cannot be found).
func (m *Main) hookSessions() []hook.SessionState {
	dir, err := dataDir(m.Getenv)
	if err != nil {
		return nil
	}
	return (&hook.StateDir{Dir: filepath.Join(dir, "innate-mcp", "hooks", "state")}).Sessions()
}
