package svgchart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
	"time"
)

// TimePoint is one value at one time.
type TimePoint struct {
	T time.Time
	V float64
}

// Series is a named sequence of points, drawn as one line. Its points are
// drawn in the order given (sort them by time).
type Series struct {
	Name   string
	Points []TimePoint
}

// Mark is an event on the time axis, such as the cause of a change.
type Mark struct {
	T     time.Time
	Label string
}

// maxMarkRows is how many marks TimeLine lists under the chart; the rest
// are counted ("and N more") and keep their line and tooltip.
const maxMarkRows = 24

// TimeLine draws series over time, each line with its own colour, dash
// pattern and marker shape, named with its last value in the legend below.
// The y axis, labelled yLabel, starts at zero when no value is negative and
// spans [0, 1] when every value lies there. Marks are numbered dotted
// vertical lines, listed with their time and label under the legend.
// Missing values (NaN, ±Inf) and zero times break a line; times are shown
// in the location of the first point. With no point to draw it says "no
// data yet".
func TimeLine(title string, yLabel string, series []Series, marks []Mark) template.HTML {
	var t0, t1 time.Time
	lo, hi := math.Inf(1), math.Inf(-1)
	var loc *time.Location
	widen := func(t time.Time) {
		if loc == nil {
			loc = t.Location()
		}
		if t0.IsZero() || t.Before(t0) {
			t0 = t
		}
		if t1.IsZero() || t.After(t1) {
			t1 = t
		}
	}
	points := 0
	for _, s := range series {
		for _, p := range s.Points {
			if finite(p.V) && !p.T.IsZero() {
				widen(p.T)
				lo, hi = math.Min(lo, p.V), math.Max(hi, p.V)
				points++
			}
		}
	}
	if points == 0 {
		return empty(title)
	}
	var ms []Mark
	for _, m := range marks {
		if !m.T.IsZero() {
			widen(m.T)
			ms = append(ms, m)
		}
	}
	t0, t1 = t0.In(loc), t1.In(loc)
	if !t1.After(t0) {
		t0, t1 = t0.Add(-time.Hour), t1.Add(time.Hour)
	}
	lo, hi = valueDomain(lo, hi)
	yt := ticks(lo, hi, 5)
	tt, layout := timeTicks(t0, t1)

	const w, left, right = 640.0, 60.0, 624.0
	top := 40.0
	if len(ms) > 0 {
		top = 56
	}
	bottom := top + 220
	xs := scale{secs(t0), secs(t1), left, right}
	ys := scale{yt[0], yt[len(yt)-1], bottom, top}

	// Legend entries under the axis, then the list of marks.
	names := make([]string, len(series))
	var widths []float64
	for i, s := range series {
		last := math.NaN()
		for _, p := range s.Points {
			if finite(p.V) && !p.T.IsZero() {
				last = p.V
			}
		}
		names[i] = label(s.Name, fmt.Sprintf("series %d", i+1)) + " (last " + num(last) + ")"
		widths = append(widths, 34+textWidth(names[i], 12))
	}
	lx, ly, rows := wrap(widths, left, right, 20)
	legendTop := bottom + 54
	h := legendTop + float64(rows)*20
	listed := min(len(ms), maxMarkRows)
	if listed > 0 {
		h += 8 + float64(listed)*18
		if len(ms) > listed {
			h += 18
		}
	}

	var desc strings.Builder
	fmt.Fprintf(&desc, "Line chart of %s over time, from %s to %s, %d series:", fullOr(yLabel, "value"), t0.Format(time.DateTime), t1.Format(time.DateTime), len(series))
	for i, s := range series {
		var vs []string
		for _, p := range s.Points {
			if finite(p.V) && !p.T.IsZero() {
				vs = append(vs, num(p.V))
			}
		}
		fmt.Fprintf(&desc, " %s, %d points", fullOr(s.Name, fmt.Sprintf("series %d", i+1)), len(vs))
		if len(vs) > 0 {
			fmt.Fprintf(&desc, " from %s to %s", vs[0], vs[len(vs)-1])
		}
		desc.WriteString(";")
	}
	if len(ms) > 0 {
		fmt.Fprintf(&desc, " %d marked events:", len(ms))
		for i, m := range ms[:listed] {
			fmt.Fprintf(&desc, " %d %s %s;", i+1, m.T.In(loc).Format(time.DateTime), fullOr(m.Label, "event"))
		}
		if len(ms) > listed {
			fmt.Fprintf(&desc, " and %d more;", len(ms)-listed)
		}
	}
	c := start(w, h, title, strings.TrimSuffix(desc.String(), ";")+".")

	// Axes, grid and tick labels.
	c.grid(yt, ys, left, right)
	c.f(`<g font-size="11" fill-opacity="0.8" text-anchor="middle">`)
	for _, t := range tt {
		x := xs.at(secs(t))
		c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor" stroke-opacity="0.6"/>`, n(x), n(bottom), n(x), n(bottom+4))
		c.text(x, bottom+17, "", t.Format(layout))
	}
	c.f(`</g>`)
	c.axes(left, top, right, bottom)
	c.yTitle(label(yLabel, "value"), top, bottom)

	// Marks: a dotted line and a number above the plot, staggered when
	// close to the previous one.
	if len(ms) > 0 {
		c.f(`<g class="marks" font-size="10" text-anchor="middle">`)
		lastX := []float64{math.Inf(-1), math.Inf(-1)}
		for i, m := range ms {
			x := xs.at(secs(m.T))
			lvl := 0
			if x-lastX[0] < 14 {
				lvl = 1
				if x-lastX[1] < 14 {
					lvl = 0
				}
			}
			lastX[lvl] = x
			c.f(`<g>`)
			c.tip(fmt.Sprintf("%d · %s · %s", i+1, m.T.In(loc).Format(time.DateTime), fullOr(m.Label, "event")))
			c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor" stroke-opacity="0.45" stroke-dasharray="1 3"/>`, n(x), n(top-2), n(x), n(bottom))
			c.text(x, top-6-float64(lvl)*10, "", fmt.Sprint(i+1))
			c.f(`</g>`)
		}
		c.f(`</g>`)
	}

	// The series: a path broken at missing points, markers (at most about
	// 60 a series), and a legend entry with the same line and marker.
	for i, s := range series {
		st := seriesStyle(i)
		name := fullOr(s.Name, fmt.Sprintf("series %d", i+1))
		c.f(`<g class="series">`)
		var d strings.Builder
		pen := false
		for _, p := range s.Points {
			if !finite(p.V) || p.T.IsZero() {
				pen = false
				continue
			}
			op := "L"
			if !pen {
				op = "M"
			}
			fmt.Fprintf(&d, "%s%s %s", op, n(xs.at(secs(p.T))), n(ys.at(p.V)))
			pen = true
		}
		if d.Len() > 0 {
			c.f(`<path d="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"%s/>`, d.String(), st.color, dashAttr(st.dash))
		}
		every := max(1, (len(s.Points)+59)/60)
		for j, p := range s.Points {
			if !finite(p.V) || p.T.IsZero() || j%every != 0 && j != len(s.Points)-1 {
				continue
			}
			c.marker(st.marker, xs.at(secs(p.T)), ys.at(p.V), 3.5, st.color,
				fmt.Sprintf("%s · %s · %s", name, p.T.In(loc).Format(time.DateTime), num(p.V)))
		}
		c.f(`</g>`)
		x, y := lx[i], legendTop+ly[i]
		c.f(`<g class="legend">`)
		c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"%s/>`, n(x), n(y-4), n(x+26), n(y-4), st.color, dashAttr(st.dash))
		c.marker(st.marker, x+13, y-4, 3.5, st.color, "")
		c.text(x+32, y, "", names[i])
		c.f(`</g>`)
	}

	// The list of marks: number, time, label.
	if listed > 0 {
		y := legendTop + float64(rows)*20 + 8
		when := make([]string, listed)
		labelX := 0.0
		for i, m := range ms[:listed] {
			when[i] = m.T.In(loc).Format(layoutFull(layout))
			labelX = max(labelX, textWidth(when[i], 11))
		}
		labelX += left + 24 + 12
		c.f(`<g class="mark-list" font-size="11">`)
		for i, m := range ms[:listed] {
			c.text(left, y+float64(i)*18, `font-weight="600"`, fmt.Sprint(i+1))
			c.text(left+24, y+float64(i)*18, `fill-opacity="0.8"`, when[i])
			c.text(labelX, y+float64(i)*18, "", clipTo(m.Label, "event", 80))
		}
		if len(ms) > listed {
			c.text(left, y+float64(listed)*18, `fill-opacity="0.8"`, fmt.Sprintf("and %d more", len(ms)-listed))
		}
		c.f(`</g>`)
	}
	return c.finish()
}

// layoutFull is the layout of a mark's time in the list: date and time to
// the precision of the ticks, the year when they span months.
func layoutFull(tick string) string {
	switch tick {
	case "15:04:05":
		return "Jan 2 15:04:05"
	case "2006", "Jan 2006":
		return "2006-01-02"
	case "2006-01-02 15:04":
		return tick
	}
	return "Jan 2 15:04"
}

// timeStep is a spacing of time ticks: a duration, or a number of days or
// months (calendar steps), and the layout of their labels.
type timeStep struct {
	d      time.Duration
	days   int
	months int
	layout string
}

// approx is the step's length in seconds, about.
func (s timeStep) approx() float64 {
	switch {
	case s.days > 0:
		return float64(s.days) * 86400
	case s.months > 0:
		return float64(s.months) * 30.44 * 86400
	}
	return s.d.Seconds()
}

// timeTicks returns round times from t0 to t1 (at most 7 of them, at
// least t0 and t1 themselves) and the layout of their labels.
func timeTicks(t0, t1 time.Time) ([]time.Time, string) {
	steps := []timeStep{
		{d: time.Second, layout: "15:04:05"}, {d: 5 * time.Second, layout: "15:04:05"}, {d: 15 * time.Second, layout: "15:04:05"},
		{d: time.Minute, layout: "15:04"}, {d: 5 * time.Minute, layout: "15:04"}, {d: 15 * time.Minute, layout: "15:04"},
		{d: time.Hour, layout: "15:04"}, {d: 3 * time.Hour, layout: "15:04"},
		{d: 6 * time.Hour, layout: "Jan 2 15:04"}, {d: 12 * time.Hour, layout: "Jan 2 15:04"},
		{days: 1, layout: "Jan 2"}, {days: 2, layout: "Jan 2"}, {days: 7, layout: "Jan 2"}, {days: 14, layout: "Jan 2"},
		{months: 1, layout: "Jan 2006"}, {months: 3, layout: "Jan 2006"}, {months: 6, layout: "Jan 2006"},
	}
	span := secs(t1) - secs(t0)
	var st timeStep
	for _, s := range steps {
		if span/s.approx() <= 6 {
			st = s
			break
		}
	}
	if st.layout == "" { // years: a round number of them
		years := ticks(0, span/(365.25*86400), 5)
		st = timeStep{months: 12 * max(1, int(math.Min(years[1]-years[0], 1e6))), layout: "2006"}
		if years[1]-years[0] < 1 {
			st.months = 12
		}
	}
	var t time.Time
	y, m, d := t0.Date()
	switch {
	case st.d > 0:
		t = t0.Truncate(st.d)
	case st.days > 0:
		t = time.Date(y, m, d, 0, 0, 0, 0, t0.Location())
	default:
		mo := int(m) - 1
		if st.months <= 12 {
			mo = mo / st.months * st.months
		} else {
			mo = 0
			y -= y % (st.months / 12)
		}
		t = time.Date(y, time.Month(mo+1), 1, 0, 0, 0, 0, t0.Location())
	}
	var ts []time.Time
	for range 20 {
		if !t.Before(t0) {
			if t.After(t1) {
				break
			}
			ts = append(ts, t)
		}
		next := t.Add(st.d)
		if st.days > 0 || st.months > 0 {
			next = t.AddDate(0, st.months, st.days)
		}
		if !next.After(t) {
			break
		}
		t = next
	}
	if len(ts) == 0 {
		return []time.Time{t0, t1}, "2006-01-02 15:04"
	}
	return ts, st.layout
}
