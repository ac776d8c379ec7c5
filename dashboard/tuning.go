package dashboard

import (
	"fmt"
	"html/template"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/svgchart"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/route"
)

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
