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

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
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

// lessonRow is one row of the lessons table.
type lessonRow struct {
	kb.Lesson
	Score float64
}

// column is a sortable column header of the lessons table.
type column struct {
	Key, Label, Href, AriaSort, Arrow string
}

// lessonsData is the lessons page.
type lessonsData struct {
	Q                      lessonQuery
	TagsText               string
	Rows                   []lessonRow
	Total, From, To        int
	Cols                   []column
	Prev, Next             string
	Tiers, States, Origins []string
}

func (srv *Server) lessons(w http.ResponseWriter, r *http.Request) {
	q, err := parseLessonQuery(r.URL.Query())
	if err != nil {
		srv.refuse(w, r, http.StatusBadRequest, "lessons: "+err.Error())
		return
	}
	rows, err := srv.findLessons(r, q)
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	sortRows(rows, q.effectiveSort(), q.effectiveDesc())
	d := lessonsData{Q: q, TagsText: strings.Join(q.Tags, ", "), Total: len(rows), Tiers: strings.Split(tierList(), ", "),
		States: []string{"active", "pending", "archived"}, Origins: []string{"user_stated", "agent_inferred", "imported"}}
	from := min((q.Page-1)*pageSize, len(rows))
	to := min(from+pageSize, len(rows))
	d.Rows, d.From, d.To = rows[from:to], from+1, to
	if q.Page > 1 {
		p := q
		p.Page--
		d.Prev = p.href()
	}
	if to < len(rows) {
		p := q
		p.Page++
		d.Next = p.href()
	}
	labels := map[string]string{"score": "Score", "id": "Id", "content": "Lesson", "state": "State", "tier": "Tier",
		"confidence": "Confidence", "origin": "Origin", "project": "Project", "recalls": "Recalled", "uses": "Used", "created": "Created"}
	for _, k := range sortColumns {
		if k == "score" && q.Q == "" {
			continue
		}
		c := column{Key: k, Label: labels[k], Href: q.sortedBy(k).href(), AriaSort: "none"}
		if q.effectiveSort() == k {
			c.AriaSort, c.Arrow = "ascending", " ↑"
			if q.effectiveDesc() {
				c.AriaSort, c.Arrow = "descending", " ↓"
			}
		}
		d.Cols = append(d.Cols, c)
	}
	srv.render(w, r, http.StatusOK, "lessons", "Lessons", d)
}

// findLessons returns the lessons q selects: recall's ranking of the
// search (every candidate, without recall's floor) when there is one, else
// every lesson of the filters, with their decay brought up to now.
func (srv *Server) findLessons(r *http.Request, q lessonQuery) ([]lessonRow, error) {
	ctx := r.Context()
	keep := func(l kb.Lesson) bool {
		switch {
		case q.Project != "" && l.Project != q.Project,
			q.State != "" && string(l.State) != q.State,
			q.Tier != "" && string(l.Tier) != q.Tier,
			q.Origin != "" && string(l.Origin) != q.Origin:
			return false
		}
		for _, t := range q.Tags {
			if !slices.Contains(l.Tags, t) {
				return false
			}
		}
		return true
	}
	var rows []lessonRow
	if q.Q != "" {
		ranked, err := srv.cfg.KB.Rank(ctx, kb.Situation{Query: q.Q, Project: q.Project})
		if err != nil {
			return nil, fmt.Errorf("search %q: %w", q.Q, err)
		}
		for _, s := range ranked {
			if keep(s.Lesson) {
				rows = append(rows, lessonRow{s.Lesson, s.Score})
			}
		}
		return rows, nil
	}
	f := kb.LessonFilter{Project: q.Project, Origin: kb.Origin(q.Origin)}
	if q.State != "" {
		f.States = []kb.State{kb.State(q.State)}
	}
	lessons, _, err := srv.census.snapshot(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the lessons: %w", err)
	}
	err = censusSource{lessons: lessons}.Lessons(ctx, f, func(l kb.Lesson) error {
		l = srv.cfg.KB.DecayedToNow(l)
		if keep(l) {
			rows = append(rows, lessonRow{Lesson: l})
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the lessons: %w", err)
	}
	return rows, nil
}

// sortRows orders the lessons table by a column, ties by id.
func sortRows(rows []lessonRow, col string, desc bool) {
	tierRank := map[confidence.Tier]int{}
	for i, t := range confidence.AllTiers() {
		tierRank[t] = i
	}
	by := func(a, b lessonRow) int {
		switch col {
		case "score":
			return cmp.Compare(a.Score, b.Score)
		case "content":
			return strings.Compare(strings.ToLower(a.Content), strings.ToLower(b.Content))
		case "state":
			return strings.Compare(string(a.State), string(b.State))
		case "tier":
			return cmp.Compare(tierRank[b.Tier], tierRank[a.Tier])
		case "confidence":
			return cmp.Compare(a.Confidence, b.Confidence)
		case "origin":
			return strings.Compare(string(a.Origin), string(b.Origin))
		case "project":
			return strings.Compare(a.Project, b.Project)
		case "recalls":
			return cmp.Compare(a.Counters.Recalls, b.Counters.Recalls)
		case "uses":
			return cmp.Compare(a.Counters.Uses, b.Counters.Uses)
		case "created":
			return a.CreatedAt.Compare(b.CreatedAt)
		}
		return 0
	}
	slices.SortStableFunc(rows, func(a, b lessonRow) int {
		c := by(a, b)
		if desc {
			c = -c
		}
		return cmp.Or(c, strings.Compare(a.ID, b.ID))
	})
}

// lessonData is one lesson's page.
type lessonData struct {
	L                 kb.Lesson
	Scores            confidence.Scores
	Trend             confidence.Trend
	History           []confidence.Change
	Links             []kb.Link
	Activity          []kb.Activity
	TrendChart, Radar template.HTML
	Archived          bool
	// Checks are the lesson's checks (package check), as the hooks
	// enforce them.
	Checks []checkView
}

func (srv *Server) lesson(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	id := r.PathValue("id")
	l, err := srv.cfg.KB.Lesson(ctx, id)
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	hist, err := srv.cfg.Store.History(ctx, id)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the history of %s: %w", id, err))
		return
	}
	links, err := srv.cfg.Store.Links(ctx, id)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the links of %s: %w", id, err))
		return
	}
	cc := srv.cfg.KB.ConfidenceConfig()
	d := lessonData{L: l, Scores: l.Conf.Scores(cc), Links: links, Archived: l.State == kb.StateArchived}
	var series []float64
	names := []string{"confidence", "frequency", "effectiveness", "human approval"}
	lines := make([]svgchart.Series, len(names))
	for i, n := range names {
		lines[i].Name = n
	}
	var marks []svgchart.Mark
	for _, h := range hist {
		series = append(series, h.After.Composite)
		for i, v := range []float64{h.After.Composite, h.After.Frequency, h.After.Effectiveness, h.After.Human} {
			lines[i].Points = append(lines[i].Points, svgchart.TimePoint{T: h.At, V: v})
		}
		if h.Kind != confidence.KindDecay {
			marks = append(marks, svgchart.Mark{T: h.At, Label: string(h.Kind)})
		}
	}
	d.Trend = confidence.TrendOf(series, cc)
	slices.Reverse(hist)
	d.History = hist
	d.TrendChart = svgchart.TimeLine("Confidence over time", "confidence", lines, marks)
	d.Radar = svgchart.Radar("Confidence dimensions", []svgchart.Axis{{Label: "frequency", Value: d.Scores.Frequency},
		{Label: "effectiveness", Value: d.Scores.Effectiveness}, {Label: "human approval", Value: d.Scores.Human}})
	if d.Activity, err = srv.act.LessonActivity(ctx, id, activityLimit); err != nil {
		srv.fail(w, r, fmt.Errorf("read the activity of %s: %w", id, err))
		return
	}
	if d.Checks, err = srv.lessonChecks(r, id); err != nil {
		srv.fail(w, r, err)
		return
	}
	srv.render(w, r, http.StatusOK, "lesson", "Lesson "+id, d)
}

// lessonAction applies approve, reject, archive or restore (kb.ApplyAction,
// as `innate-mcp lessons` does): a confidence event in the history.
func (srv *Server) lessonAction(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	action := kb.LessonAction(r.PostForm.Get("action"))
	l, note, err := srv.cfg.KB.ApplyAction(r.Context(), id, action, strings.TrimSpace(r.PostForm.Get("reason")))
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	srv.done(w, r, "/lessons/"+pathEscape(l.ID), fmt.Sprintf("%s: %s", action, note))
}

// lessonEdit replaces a lesson by a new wording (kb.EditLesson): the old
// one is archived and superseded, never overwritten.
func (srv *Server) lessonEdit(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f := r.PostForm
	l, err := srv.cfg.KB.EditLesson(r.Context(), id, kb.LessonEdit{Content: f.Get("content"), Trigger: f.Get("trigger"),
		AntiTrigger: f.Get("anti_trigger"), Reason: f.Get("reason")})
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	srv.done(w, r, "/lessons/"+pathEscape(l.ID), fmt.Sprintf("edited: this lesson supersedes %s, now archived", id))
}

// calibrationData is the calibration page.
type calibrationData struct {
	Bins           []svgchart.ReliabilityBin
	Reliability    template.HTML
	OverTime       template.HTML
	Days           []calibrationDay
	Points         int
	ECE, Brier     float64
	Identity       bool
	CalibrationMap []appraise.Knot
}

// calibrationDay is one day's calibration figures.
type calibrationDay struct {
	Day        string
	N          int
	ECE, Brier float64
}

func (srv *Server) calibration(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d := calibrationData{ECE: -1, Brier: -1}
	cal, err := srv.cfg.KB.Calibration(ctx)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the calibration: %w", err))
		return
	}
	d.Identity, d.CalibrationMap = cal.Identity(), cal.Knots
	days, err := srv.act.CalibrationSeries(ctx, srv.cfg.Now().AddDate(0, 0, -calibDays))
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the calibration points: %w", err))
		return
	}
	const nb = kb.CalibrationBins
	sumP, sumO, cnt := make([]float64, nb), make([]float64, nb), make([]int, nb)
	var allConf []float64
	var allHit []bool
	ece := svgchart.Series{Name: "ECE"}
	brier := svgchart.Series{Name: "Brier"}
	for _, day := range days {
		conf, hit := make([]float64, len(day.Points)), make([]bool, len(day.Points))
		for i, p := range day.Points {
			c := cal.Map(p.Strength)
			conf[i], hit[i] = c, p.Hit
			b := min(int(c*nb), nb-1)
			sumP[b] += c
			if p.Hit {
				sumO[b]++
			}
			cnt[b]++
		}
		allConf, allHit = append(allConf, conf...), append(allHit, hit...)
		cd := calibrationDay{Day: day.Day, N: len(conf), ECE: -1, Brier: -1}
		if len(conf) > 0 {
			cd.ECE, cd.Brier = appraise.ECE(conf, hit, nb), brierOf(conf, hit)
			if t, err := time.Parse(time.DateOnly, day.Day); err == nil {
				ece.Points = append(ece.Points, svgchart.TimePoint{T: t, V: cd.ECE})
				brier.Points = append(brier.Points, svgchart.TimePoint{T: t, V: cd.Brier})
			}
		}
		d.Days = append(d.Days, cd)
	}
	for b := range nb {
		if cnt[b] > 0 {
			d.Bins = append(d.Bins, svgchart.ReliabilityBin{Predicted: sumP[b] / float64(cnt[b]), Observed: sumO[b] / float64(cnt[b]), Count: cnt[b]})
		}
	}
	if d.Points = len(allConf); d.Points > 0 {
		d.ECE, d.Brier = appraise.ECE(allConf, allHit, nb), brierOf(allConf, allHit)
	}
	slices.Reverse(d.Days)
	d.Reliability = svgchart.Reliability("Reliability: predicted confidence against observed hit rate", d.Bins)
	d.OverTime = svgchart.TimeLine("Calibration error per day", "error", []svgchart.Series{ece, brier}, nil)
	srv.render(w, r, http.StatusOK, "calibration", "Calibration", d)
}

// brierOf is the mean squared error of confidences against hits.
func brierOf(conf []float64, hit []bool) float64 {
	var s float64
	for i, c := range conf {
		h := 0.0
		if hit[i] {
			h = 1
		}
		s += (c - h) * (c - h)
	}
	return s / float64(len(conf))
}

// reviewData is the review page.
type reviewData struct {
	Pending, Reviewed []kb.HeldDraft
}

func (srv *Server) review(w http.ResponseWriter, r *http.Request) {
	d := reviewData{}
	{ // the held drafts, pending first
		all, err := srv.act.HeldDrafts(r.Context(), false, reviewLimit)
		if err != nil {
			srv.fail(w, r, fmt.Errorf("read held drafts: %w", err))
			return
		}
		for _, h := range all {
			if h.Review == "" {
				d.Pending = append(d.Pending, h)
			} else {
				d.Reviewed = append(d.Reviewed, h)
			}
		}
	}
	srv.render(w, r, http.StatusOK, "review", "Review", d)
}

// reviewAction records a person's review of a held draft, as record does
// with review and the hesitate call's trace_id.
func (srv *Server) reviewAction(w http.ResponseWriter, r *http.Request) {
	trace := r.PathValue("trace")
	res, err := srv.cfg.KB.Record(r.Context(), kb.RecordRequest{TraceID: trace, Review: r.PostForm.Get("review"), Author: kb.AuthorPerson})
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	var what []string
	for _, c := range res.Changes {
		what = append(what, c.What)
	}
	srv.done(w, r, "/review", strings.Join(what, "; "))
}

// regulatorRow is one entry of the regulator's log on the routing page.
type regulatorRow struct {
	regulate.Change
	Revertible bool
	Reverted   bool
}

// routingData is the routing page.
type routingData struct {
	Modes     template.HTML
	ModeTable []modeDay
	ModeNames []string
	Changes   []regulatorRow
}

// modeDay is one day of the mode table: a count per mode of ModeNames.
type modeDay struct {
	Day    string
	Counts []int
}

func (srv *Server) routing(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	d := routingData{}
	for _, m := range route.Modes() {
		d.ModeNames = append(d.ModeNames, string(m))
	}
	{
		series, err := srv.act.ModeSeries(ctx, srv.cfg.Now().AddDate(0, 0, -chartDays))
		if err != nil {
			srv.fail(w, r, fmt.Errorf("read the routing log: %w", err))
			return
		}
		byDay := map[string][]int{}
		var days []string
		for _, c := range series {
			if _, ok := byDay[c.Day]; !ok {
				byDay[c.Day] = make([]int, len(d.ModeNames))
				days = append(days, c.Day)
			}
			if i := slices.Index(d.ModeNames, c.Mode); i >= 0 {
				byDay[c.Day][i] += c.Count
			}
		}
		slices.Sort(days)
		var groups []svgchart.Group
		for _, day := range days {
			g := svgchart.Group{Label: day}
			for _, n := range byDay[day] {
				g.Values = append(g.Values, float64(n))
			}
			groups = append(groups, g)
			d.ModeTable = append(d.ModeTable, modeDay{day, byDay[day]})
		}
		d.Modes = svgchart.StackedBars("Engagement modes per day", d.ModeNames, groups)
	}
	hist, err := srv.cfg.Store.RegulatorHistory(ctx)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the regulator's log: %w", err))
		return
	}
	params, err := srv.cfg.Store.Params(ctx)
	if err != nil {
		srv.fail(w, r, fmt.Errorf("read the tuned parameters: %w", err))
		return
	}
	cur := srv.registry.Resolve(params)
	for _, c := range hist {
		row := regulatorRow{Change: c}
		if c.Kind == regulate.KindChange {
			row.Reverted = slices.ContainsFunc(hist, func(h regulate.Change) bool {
				return h.Kind == regulate.KindRevert && h.Param == c.Param && h.Ref.Equal(c.At)
			})
			row.Revertible = !row.Reverted && math.Abs(cur[c.Param]-c.After) <= 1e-9 && !srv.cfg.Store.ReadOnly()
		}
		d.Changes = append(d.Changes, row)
	}
	// Only the latest change of a parameter can be reverted: an earlier
	// one's after value was moved by it.
	seen := map[string]bool{}
	for i := len(d.Changes) - 1; i >= 0; i-- {
		c := &d.Changes[i]
		if c.Kind == regulate.KindKeep {
			continue
		}
		if seen[c.Param] {
			c.Revertible = false
		}
		seen[c.Param] = true
	}
	slices.Reverse(d.Changes)
	srv.render(w, r, http.StatusOK, "routing", "Routing", d)
}

// revert puts back one regulator change (tuning.Revert).
func (srv *Server) revert(w http.ResponseWriter, r *http.Request) {
	param := r.PostForm.Get("param")
	at, err := time.Parse(time.RFC3339Nano, r.PostForm.Get("at"))
	if err != nil {
		srv.refuse(w, r, http.StatusBadRequest, "revert: at must be the change's time as the page gives it (RFC 3339)")
		return
	}
	c, err := srv.reg.Revert(r.Context(), srv.cfg.Store, srv.cfg.KB, param, at, srv.cfg.Now().UTC(), "reverted by a person from the dashboard")
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	srv.done(w, r, "/routing", c.Reason)
}
