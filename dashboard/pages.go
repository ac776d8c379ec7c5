package dashboard

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/svgchart"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/stats"
)

// How far back the time charts reach, and how many rows the lists show.
const (
	chartDays     = 30
	calibDays     = 90
	needsPerson   = 10
	activityLimit = 50
	reviewLimit   = 200
)

// funcs are the templates' helpers.
var funcs = template.FuncMap{
	"source": kb.SourceLabel,
	"pct": func(v float64) string {
		if v < 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.0f%%", 100*v)
	},
	"f3": func(v float64) string {
		if v < 0 || math.IsNaN(v) {
			return "n/a"
		}
		return fmt.Sprintf("%.3f", v)
	},
	"when": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format("2006-01-02 15:04")
	},
	"stamp":  func(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) },
	"line":   func(s string, n int) string { return clip.Line(s, n) },
	"lesson": func(id string) string { return "/lessons/" + pathEscape(id) },
	"join":   strings.Join,
	"navs":   func() []navEntry { return navEntries },
}

// navEntry is one entry of the page navigation.
type navEntry struct{ Key, Label, Href string }

// navEntries are the pages of the navigation (a lesson's page is reached
// from the lessons page), in the navigation's order.
var navEntries = []navEntry{{"overview", "Overview", "/"}, {"lessons", "Lessons", "/lessons"},
	{"calibration", "Calibration", "/calibration"}, {"review", "Review", "/review"}, {"routing", "Routing", "/routing"}}

// pathEscape escapes a lesson id or trace id for a path segment.
func pathEscape(s string) string {
	return strings.NewReplacer("%", "%25", "/", "%2F", "?", "%3F", "#", "%23", " ", "%20").Replace(s)
}

// statusLabel is a health status in words with a symbol, so that colour is
// never the only signal.
func statusLabel(s string) string {
	switch s {
	case "ok":
		return "✓ ok"
	case "low":
		return "▼ low"
	case "high":
		return "▲ high"
	}
	return "– no data"
}

// healthRow is one health figure of the overview.
type healthRow struct {
	stats.Check
	Label string
}

// overviewData is the overview page.
type overviewData struct {
	// CensusAt is the time of the lesson snapshot the counts come from.
	CensusAt                        time.Time
	Report                          stats.Report
	Health                          []healthRow
	TierChart, StateChart           template.HTML
	OriginChart, ProjectChart       template.HTML
	HesitationChart                 template.HTML
	Pending                         []kb.Lesson
	PendingCount                    int
	Held                            []kb.HeldDraft
	HeldCount                       int
	Contradictions                  [][2]string
	EmptyRate, TopShare             float64
	EmptyRateStatus, TopShareStatus string
}

func (srv *Server) overview(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	lessons, at, err := srv.census.snapshot(ctx)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the lessons: %w", err))
		return
	}
	rep, err := stats.Build(ctx, censusSource{srv.cfg.Store, lessons}, srv.cfg.KB)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("build the health report: %w", err))
		return
	}
	if srv.cfg.HookSessions != nil {
		hc := stats.HookContext(srv.cfg.HookSessions())
		rep.HookContext = &hc
	}
	d := overviewData{Report: rep, Contradictions: rep.Contradictions.Pairs, CensusAt: at}
	for _, c := range rep.Health {
		d.Health = append(d.Health, healthRow{c, statusLabel(c.Status)})
		switch c.Name {
		case "recall.empty_rate":
			d.EmptyRate, d.EmptyRateStatus = c.Value, statusLabel(c.Status)
		case "recall.top_lesson_share":
			d.TopShare, d.TopShareStatus = c.Value, statusLabel(c.Status)
		}
	}
	byProject := map[string]int{}
	err = censusSource{lessons: lessons}.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
		p := l.Project
		if p == "" {
			p = "(global)"
		}
		byProject[p]++
		if l.State == kb.StatePending {
			d.PendingCount++
			if len(d.Pending) < needsPerson {
				d.Pending = append(d.Pending, l)
			}
		}
		return nil
	})
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the lessons: %w", err))
		return
	}
	var tiers []string
	for _, t := range confidence.AllTiers() {
		tiers = append(tiers, string(t))
	}
	d.TierChart = svgchart.Bars("Lessons by tier", countBars(rep.Lessons.ByTier, tiers, 0))
	d.StateChart = svgchart.Bars("Lessons by state", countBars(rep.Lessons.ByState, []string{"active", "pending", "archived"}, 0))
	d.OriginChart = svgchart.Bars("Lessons by origin", countBars(rep.Lessons.ByOrigin, []string{"user_stated", "imported", "agent_inferred"}, 0))
	d.ProjectChart = svgchart.Bars("Lessons by project (largest 10)", countBars(byProject, nil, 10))
	scores, err := srv.act.HesitationScores(ctx, srv.cfg.Now().AddDate(0, 0, -chartDays))
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read hesitation scores: %w", err))
		return
	}
	d.HesitationChart = svgchart.Histogram("Hesitation scores, last 30 days", "score", scoreBins(scores))
	held, err := srv.act.HeldDrafts(ctx, true, reviewLimit)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read held drafts: %w", err))
		return
	}
	d.HeldCount = len(held)
	d.Held = held[:min(len(held), needsPerson)]
	srv.render(w, r, http.StatusOK, "overview", "Overview", d)
}

// countBars turns counts into bars: the keys of order first (with zero
// counts), then the others largest first; at most limit bars when limit >
// 0.
func countBars(m map[string]int, order []string, limit int) []svgchart.Bar {
	total := 0
	for _, n := range m {
		total += n
	}
	var bars []svgchart.Bar
	seen := map[string]bool{}
	add := func(k string) {
		seen[k] = true
		note := ""
		if total > 0 {
			note = fmt.Sprintf("%.0f%%", 100*float64(m[k])/float64(total))
		}
		label := k
		if label == "" {
			label = "(none)"
		}
		bars = append(bars, svgchart.Bar{Label: label, Value: float64(m[k]), Note: note})
	}
	for _, k := range order {
		add(k)
	}
	var rest []string
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.SortFunc(rest, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b)) })
	for _, k := range rest {
		if limit > 0 && len(bars) >= limit {
			break
		}
		add(k)
	}
	return bars
}

// scoreBins counts hesitation scores (0-100) in ten bins.
func scoreBins(scores []float64) []svgchart.Bin {
	if len(scores) == 0 {
		return nil
	}
	bins := make([]svgchart.Bin, 10)
	for i := range bins {
		bins[i].Label = fmt.Sprintf("%d-%d", 10*i, 10*i+9)
	}
	bins[9].Label = "90-100"
	for _, s := range scores {
		i := min(max(int(s/10), 0), 9)
		bins[i].Count++
	}
	return bins
}
