// Package stats builds the system's health report: lessons by state, tier
// and origin, the recall, appraise, routing and hesitation logs summarised,
// the regulator's latest changes and contradictions, the rule files synced, and each health
// figure against its healthy range. `innate-mcp stats` prints it and the
// MCP resource innate://stats serves it; its JSON schema is
// stats.schema.json at the repository root.
package stats

import (
	"context"
	"math"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
	"github.com/innate-mcp/innate-mcp/rulesync"
)

// Report is the system's health in one view.
type Report struct {
	GeneratedAt    time.Time             `json:"generated_at"`
	Lessons        LessonsSection        `json:"lessons"`
	Recall         kb.RecallStats        `json:"recall"`
	Appraise       kb.AppraiseStats      `json:"appraise"`
	Routing        RoutingSection        `json:"routing"`
	Hesitation     HesitationSection     `json:"hesitation"`
	Contradictions ContradictionsSection `json:"contradictions"`
	Regulator      []regulate.Change     `json:"regulator"` // the latest changes, newest first
	// RuleFiles are the agent rule files synced into the knowledge base
	// (package rulesync), by project, the global ones first.
	RuleFiles []rulesync.State `json:"rule_files"`
	// HookContext is what the hooks added to agents' context, when the
	// caller read the hooks' session states (HookContext).
	HookContext *HookContextSection `json:"hook_context,omitempty"`
	Health      []Check             `json:"health"`
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
	// recallable counts the lessons that are not archived.
	recallable int
}

// HesitationSection is the hesitation audit log's summary.
type HesitationSection struct {
	kb.HesitationStats
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

// Source is what the report reads from a store.
type Source interface {
	kb.StatsReader
	kb.MetaStore
	// Lessons calls fn for every lesson matching filter, in id order.
	Lessons(ctx context.Context, filter kb.LessonFilter, fn func(kb.Lesson) error) error
	// RegulatorHistory returns the regulator's log, oldest first.
	RegulatorHistory(ctx context.Context) ([]regulate.Change, error)
}

// StaleAfter is how long unused makes a recallable lesson stale.
const StaleAfter = 30 * 24 * time.Hour

// Build computes the report from s, with each lesson's confidence settled
// by k as of now.
func Build(ctx context.Context, s Source, k *kb.KB) (Report, error) {
	now := time.Now().UTC()
	r := Report{GeneratedAt: now}
	var err error
	if r.Lessons, err = lessonsSection(ctx, s, k, now); err != nil {
		return r, err
	}
	if r.Recall, err = s.RecallStats(ctx, time.Time{}, 5); err != nil {
		return r, err
	}
	if r.Appraise, err = s.AppraiseStats(ctx, time.Time{}); err != nil {
		return r, err
	}
	if r.Routing, err = routingSection(ctx, s); err != nil {
		return r, err
	}
	if r.Regulator, err = latestChanges(ctx, s, 10); err != nil {
		return r, err
	}
	if r.Hesitation, err = hesitationSection(ctx, s); err != nil {
		return r, err
	}
	if r.Contradictions, err = contradictionsSection(ctx, s); err != nil {
		return r, err
	}
	if r.RuleFiles, err = rulesync.States(ctx, s); err != nil {
		return r, err
	}
	r.Health = healthChecks(r)
	return r, nil
}

// lessonsSection counts every lesson, settled as of now, and finds the
// stale ones.
func lessonsSection(ctx context.Context, s Source, k *kb.KB, now time.Time) (LessonsSection, error) {
	ls := LessonsSection{ByState: map[string]int{}, ByTier: map[string]int{}, ByOrigin: map[string]int{}}
	err := s.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
		ls.add(k.DecayedToNow(l), now)
		return nil
	})
	if err != nil {
		return ls, err
	}
	if ls.recallable > 0 {
		ls.StaleShare = float64(ls.Stale) / float64(ls.recallable)
	}
	return ls, nil
}

// add counts one lesson.
func (ls *LessonsSection) add(l kb.Lesson, now time.Time) {
	ls.Total++
	ls.ByState[string(l.State)]++
	ls.ByTier[string(l.Tier)]++
	ls.ByOrigin[string(l.Origin)]++
	if l.State == kb.StateArchived {
		return
	}
	ls.recallable++
	last := l.CreatedAt
	if l.LastUsedAt != nil && l.LastUsedAt.After(last) {
		last = *l.LastUsedAt
	}
	if now.Sub(last) >= StaleAfter {
		ls.Stale++
		if len(ls.StaleIDs) < 20 {
			ls.StaleIDs = append(ls.StaleIDs, l.ID)
		}
	}
}

// routingSection checks the routing decisions' mode distribution.
func routingSection(ctx context.Context, s Source) (RoutingSection, error) {
	var rs RoutingSection
	counts, err := s.ModeCounts(ctx, time.Time{})
	if err != nil {
		return rs, err
	}
	mc := map[route.Mode]int{}
	for m, n := range counts {
		mc[route.Mode(m)] = n
		rs.Decisions += n
	}
	rs.Modes = route.CheckDistribution(mc)
	if rs.Modes == nil {
		rs.Modes = []route.ModeHealth{}
	}
	return rs, nil
}

// latestChanges returns the regulator's last n changes, newest first.
func latestChanges(ctx context.Context, s Source, n int) ([]regulate.Change, error) {
	hist, err := s.RegulatorHistory(ctx)
	if err != nil {
		return nil, err
	}
	out := []regulate.Change{}
	for i := len(hist) - 1; i >= 0 && len(out) < n; i-- {
		out = append(out, hist[i])
	}
	return out, nil
}

// hesitationSection summarises the hesitation log with its confirm ratio.
func hesitationSection(ctx context.Context, s Source) (HesitationSection, error) {
	hs, err := s.HesitationStats(ctx, time.Time{})
	if err != nil {
		return HesitationSection{}, err
	}
	h := HesitationSection{HesitationStats: hs, ConfirmRatio: -1}
	if n := hs.Confirmed + hs.Rejected; n > 0 {
		h.ConfirmRatio = float64(hs.Confirmed) / float64(n)
	}
	return h, nil
}

// contradictionsSection counts the contradicts links and lists the
// unresolved pairs.
func contradictionsSection(ctx context.Context, s Source) (ContradictionsSection, error) {
	cs, err := s.Contradictions(ctx)
	if err != nil {
		return ContradictionsSection{}, err
	}
	out := ContradictionsSection{Total: len(cs), Pairs: [][2]string{}}
	for _, c := range cs {
		if !c.Resolved {
			out.Unresolved++
			out.Pairs = append(out.Pairs, [2]string{c.A, c.B})
		}
	}
	return out, nil
}

// healthChecks holds each health figure of r against its healthy range.
func healthChecks(r Report) []Check {
	topShare := 0.0
	if len(r.Recall.Top) > 0 {
		topShare = r.Recall.Top[0].Share
	}
	recallable := r.Lessons.recallable
	hs := r.Hesitation
	return []Check{
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
		check("hesitation.confirm_ratio", hs.ConfirmRatio, hs.Confirmed+hs.Rejected, 0.5, 1,
			"held items that reviews confirmed: low means hesitation holds too much"),
	}
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
