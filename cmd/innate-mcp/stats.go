package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
	"github.com/innate-mcp/innate-mcp/storage"
)

// Report is the system's health in one view: `innate-mcp stats` prints it
// as a table or JSON, and the MCP resource innate://stats serves the JSON.
// Its JSON schema is stats.schema.json at the repository root.
type Report struct {
	GeneratedAt    time.Time             `json:"generated_at"`
	Lessons        LessonsSection        `json:"lessons"`
	Recall         storage.RecallStats   `json:"recall"`
	Appraise       storage.AppraiseStats `json:"appraise"`
	Routing        RoutingSection        `json:"routing"`
	Hesitation     HesitationSection     `json:"hesitation"`
	Contradictions ContradictionsSection `json:"contradictions"`
	Regulator      []regulate.Change     `json:"regulator"` // the latest changes, newest first
	Health         []Check               `json:"health"`
}

// RoutingSection is the engagement router's mode distribution against the
// seed's healthy ranges.
type RoutingSection struct {
	Decisions int                `json:"decisions"`
	Modes     []route.ModeHealth `json:"modes"`
}

// LessonsSection counts lessons by state, tier and origin.
type LessonsSection struct {
	Total    int            `json:"total"`
	ByState  map[string]int `json:"by_state"`
	ByTier   map[string]int `json:"by_tier"`
	ByOrigin map[string]int `json:"by_origin"`
	// Stale are recallable lessons unused for 30 days or more.
	Stale      int      `json:"stale"`
	StaleShare float64  `json:"stale_share"`
	StaleIDs   []string `json:"stale_ids"`
}

// HesitationSection is the hesitation audit log's summary.
type HesitationSection struct {
	storage.HesitationStats
	// ConfirmRatio is confirmed / (confirmed + rejected) over reviewed
	// held items; -1 when none was reviewed.
	ConfirmRatio float64 `json:"confirm_ratio"`
}

// ContradictionsSection lists lessons that contradict each other.
type ContradictionsSection struct {
	Total      int         `json:"total"`
	Unresolved int         `json:"unresolved"`
	Pairs      [][2]string `json:"unresolved_pairs"`
}

// Check is one health figure against its healthy range.
type Check struct {
	Name   string  `json:"name"`
	Value  float64 `json:"value"`
	Low    float64 `json:"low"`
	High   float64 `json:"high"`
	Status string  `json:"status"` // ok, low, high, or no_data
	N      int     `json:"n"`      // observations behind the value
	Note   string  `json:"note"`
}

// staleAfter is how long unused makes a recallable lesson stale.
const staleAfter = 30 * 24 * time.Hour

// buildReport computes the report from the database.
func buildReport(ctx context.Context, db *storage.DB, k *kb.KB) (Report, error) {
	now := time.Now().UTC()
	r := Report{GeneratedAt: now, Lessons: LessonsSection{ByState: map[string]int{}, ByTier: map[string]int{}, ByOrigin: map[string]int{}}}
	lessons, err := db.AllLessons(ctx)
	if err != nil {
		return r, err
	}
	recallable := 0
	for _, l := range lessons {
		l = k.DecayedToNow(l)
		r.Lessons.Total++
		r.Lessons.ByState[string(l.State)]++
		r.Lessons.ByTier[string(l.Tier)]++
		r.Lessons.ByOrigin[string(l.Origin)]++
		if l.State == kb.StateArchived {
			continue
		}
		recallable++
		last := l.CreatedAt
		if l.LastUsedAt != nil && l.LastUsedAt.After(last) {
			last = *l.LastUsedAt
		}
		if now.Sub(last) >= staleAfter {
			r.Lessons.Stale++
			if len(r.Lessons.StaleIDs) < 20 {
				r.Lessons.StaleIDs = append(r.Lessons.StaleIDs, l.ID)
			}
		}
	}
	if recallable > 0 {
		r.Lessons.StaleShare = float64(r.Lessons.Stale) / float64(recallable)
	}
	if r.Recall, err = db.RecallStats(ctx, time.Time{}, 5); err != nil {
		return r, err
	}
	if r.Appraise, err = db.AppraiseStats(ctx, time.Time{}); err != nil {
		return r, err
	}
	counts, err := db.ModeCounts(ctx, time.Time{})
	if err != nil {
		return r, err
	}
	mc := map[route.Mode]int{}
	for m, n := range counts {
		mc[route.Mode(m)] = n
		r.Routing.Decisions += n
	}
	r.Routing.Modes = route.CheckDistribution(mc)
	if r.Routing.Modes == nil {
		r.Routing.Modes = []route.ModeHealth{}
	}
	hist, err := db.RegulatorHistory(ctx)
	if err != nil {
		return r, err
	}
	r.Regulator = []regulate.Change{}
	for i := len(hist) - 1; i >= 0 && len(r.Regulator) < 10; i-- {
		r.Regulator = append(r.Regulator, hist[i])
	}
	hs, err := db.HesitationStats(ctx, time.Time{})
	if err != nil {
		return r, err
	}
	r.Hesitation = HesitationSection{HesitationStats: hs, ConfirmRatio: -1}
	if n := hs.Confirmed + hs.Rejected; n > 0 {
		r.Hesitation.ConfirmRatio = float64(hs.Confirmed) / float64(n)
	}
	cs, err := db.Contradictions(ctx)
	if err != nil {
		return r, err
	}
	r.Contradictions.Total = len(cs)
	r.Contradictions.Pairs = [][2]string{}
	for _, c := range cs {
		if !c.Resolved {
			r.Contradictions.Unresolved++
			r.Contradictions.Pairs = append(r.Contradictions.Pairs, [2]string{c.A, c.B})
		}
	}
	topShare := 0.0
	if len(r.Recall.Top) > 0 {
		topShare = r.Recall.Top[0].Share
	}
	r.Health = []Check{
		check("recall.empty_rate", r.Recall.EmptyRate, r.Recall.Calls, 0.05, 0.80,
			"share of recalls that found nothing relevant: near 0 suggests a floor too low, near 1 an empty or off-topic knowledge base"),
		check("recall.top_lesson_share", topShare, r.Recall.Selections, 0, 0.30,
			"share of all selections taken by the most selected lesson: a lesson near everything crowds out the rest"),
		check("lessons.stale_share", r.Lessons.StaleShare, recallable, 0, 0.50,
			"recallable lessons unused for 30 days; decay demotes them, nothing deletes them"),
		check("lessons.unresolved_contradictions", float64(r.Contradictions.Unresolved), recallable, 0, 0,
			"pairs of live lessons that say opposite things"),
		check("appraise.abstain_rate", r.Appraise.AbstainRate, r.Appraise.Verdicts, 0.10, 0.70,
			"share of verdicts that abstained: the critic should say \"I don't know\" often, but not always"),
		check("appraise.abstention_precision", r.Appraise.AbstentionPrecision, r.Appraise.KnownAbstentions, 0.5, 1,
			"abstentions whose held-back call would have been wrong: low means the critic abstains where it had footing"),
		check("appraise.calibration_ece", r.Appraise.ECE, r.Appraise.Calibrated, 0, 0.10,
			"expected calibration error of verdict confidence against outcomes"),
		check("appraise.brier", r.Appraise.Brier, r.Appraise.Calibrated, 0, 0.25,
			"Brier score of verdict confidence (0.25 is a coin flip)"),
		check("hesitation.trigger_rate", hs.TriggerRate, hs.Calls, 0.05, 0.40,
			"share of hesitate calls at or above the threshold: too high is noise agents learn to ignore"),
		check("hesitation.confirm_ratio", r.Hesitation.ConfirmRatio, hs.Confirmed+hs.Rejected, 0.5, 1,
			"held items that reviews confirmed: low means hesitation holds too much"),
	}
	return r, nil
}

// check builds a health check; no observations means no_data.
func check(name string, v float64, n int, lo, hi float64, note string) Check {
	c := Check{Name: name, Value: metric.Round4(v), Low: lo, High: hi, N: n, Note: note, Status: "ok"}
	switch {
	case n == 0 || v < 0 || math.IsNaN(v):
		c.Status, c.Value = "no_data", 0
	case v < lo:
		c.Status = "low"
	case v > hi:
		c.Status = "high"
	}
	return c
}

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
	r, err := buildReport(ctx, a.db, a.kb)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, r)
	}
	return writeReport(stdout, r)
}

// writeReport prints the report for people.
func writeReport(w io.Writer, r Report) error {
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

// reportFunc computes the stats report.
type reportFunc func(context.Context) (Report, error)

// statsResource is the read-only MCP resource innate://stats: the same
// report as `innate-mcp stats --json`.
func statsResource(report reportFunc) (mcp.Resource, server.ResourceHandlerFunc) {
	res := mcp.NewResource("innate://stats", "innate-mcp stats",
		mcp.WithResourceDescription("The knowledge base's health: lessons by tier and state, recall empty rate, hesitation trigger rate and reviews, contradictions, each health figure against its healthy range."),
		mcp.WithMIMEType("application/json"))
	return res, func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		r, err := report(ctx)
		if err != nil {
			return nil, err
		}
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "innate://stats", MIMEType: "application/json", Text: string(b)}}, nil
	}
}
