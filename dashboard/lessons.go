package dashboard

import (
	"cmp"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/internal/svgchart"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/kb"
)

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
