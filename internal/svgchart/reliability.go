package svgchart

import (
	"cmp"
	"fmt"
	"html/template"
	"math"
	"slices"
	"strings"
)

// ReliabilityBin is one bin of a reliability diagram: the mean predicted
// probability of its cases, the observed rate among them (both in [0, 1])
// and how many cases it holds.
type ReliabilityBin struct {
	Predicted, Observed float64
	Count               int
}

// Reliability draws a reliability diagram: observed against predicted
// rate, a dashed diagonal for perfect calibration, and the bins as points
// joined in order of prediction, each sized by its count and labelled
// "n=count". Bins with a missing rate (NaN, ±Inf) or no cases are left
// out; rates outside [0, 1] are drawn at the nearer edge. With no bin left
// it says "no data yet".
func Reliability(title string, bins []ReliabilityBin) template.HTML {
	var bs []ReliabilityBin
	most := 0
	for _, b := range bins {
		if finite(b.Predicted) && finite(b.Observed) && b.Count > 0 {
			bs = append(bs, b)
			most = max(most, b.Count)
		}
	}
	if len(bs) == 0 {
		return empty(title)
	}
	slices.SortStableFunc(bs, func(a, b ReliabilityBin) int { return cmp.Compare(a.Predicted, b.Predicted) })
	const w, left, top, size = 480.0, 60.0, 44.0, 320.0
	const right, bottom = left + size, top + size
	const h = bottom + 76
	clamp := func(v float64) float64 { return math.Max(0, math.Min(1, v)) }
	xs, ys := scale{0, 1, left, right}, scale{0, 1, bottom, top}

	var desc strings.Builder
	fmt.Fprintf(&desc, "Reliability diagram, %d bins, observed rate against predicted probability (perfect calibration on the diagonal):", len(bs))
	for _, b := range bs {
		fmt.Fprintf(&desc, " predicted %s, observed %s, %d cases;", num(b.Predicted), num(b.Observed), b.Count)
	}
	c := start(w, h, title, strings.TrimSuffix(desc.String(), ";")+".")

	yt := []float64{0, 0.2, 0.4, 0.6, 0.8, 1}
	c.grid(yt, ys, left, right)
	c.f(`<g stroke="currentColor" stroke-opacity="0.15">`)
	for _, v := range yt {
		c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, n(xs.at(v)), n(top), n(xs.at(v)), n(bottom))
	}
	c.f(`</g><g font-size="11" fill-opacity="0.8" text-anchor="middle">`)
	for _, v := range yt {
		c.text(xs.at(v), bottom+17, "", tickLabel(v))
	}
	c.f(`</g>`)
	c.axes(left, top, right, bottom)
	c.text((left+right)/2, bottom+36, `text-anchor="middle"`, "predicted probability")
	c.yTitle("observed rate", top, bottom)
	c.f(`<line class="diagonal" x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor" stroke-opacity="0.6" stroke-dasharray="6 4"/>`, n(left), n(bottom), n(right), n(top))

	col := color(0)
	var pts []string
	for _, b := range bs {
		pts = append(pts, n(xs.at(clamp(b.Predicted)))+","+n(ys.at(clamp(b.Observed))))
	}
	if len(pts) > 1 {
		c.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2" stroke-linejoin="round"/>`, strings.Join(pts, " "), col)
	}
	c.f(`<g class="bins" font-size="10">`)
	for _, b := range bs {
		x, y := xs.at(clamp(b.Predicted)), ys.at(clamp(b.Observed))
		r := 3 + 9*math.Sqrt(float64(b.Count)/float64(most))
		c.f(`<g>`)
		c.tip(fmt.Sprintf("predicted %s, observed %s, %d cases", num(b.Predicted), num(b.Observed), b.Count))
		c.f(`<circle cx="%s" cy="%s" r="%s" fill="%s" fill-opacity="0.35" stroke="%s" stroke-width="1.5"/>`, n(x), n(y), n(r), col, col)
		anchor, lx := "start", x+r+3
		if x > right-50 {
			anchor, lx = "end", x-r-3
		}
		c.text(lx, y-r*0.5, fmt.Sprintf(`text-anchor="%s"`, anchor), fmt.Sprintf("n=%d", b.Count))
		c.f(`</g>`)
	}
	c.f(`</g>`)

	// Legend: the diagonal and the points.
	ly := bottom + 62
	c.f(`<g class="legend">`)
	c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor" stroke-opacity="0.6" stroke-dasharray="6 4"/>`, n(left), n(ly-4), n(left+26), n(ly-4))
	c.text(left+32, ly, "", "perfect calibration")
	c.f(`<circle cx="%s" cy="%s" r="5" fill="%s" fill-opacity="0.35" stroke="%s" stroke-width="1.5"/>`, n(left+190), n(ly-4), col, col)
	c.text(left+202, ly, "", "observed (size and n: cases)")
	c.f(`</g>`)
	return c.finish()
}
