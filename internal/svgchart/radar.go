package svgchart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Axis is one spoke of a radar chart: its label and a value in [0, 1]
// (values outside are drawn at the nearer end and labelled as they are).
type Axis struct {
	Label string
	Value float64
}

// Radar draws the values of axes as a polygon over spokes from 0 at the
// centre to 1 at the edge, clockwise from the top, each spoke labelled with
// its name and value. A missing value (NaN, ±Inf) reads "n/a" and is left
// out of the polygon. With no value at all it says "no data yet".
func Radar(title string, axes []Axis) template.HTML {
	valid := 0
	for _, a := range axes {
		if finite(a.Value) {
			valid++
		}
	}
	if valid == 0 {
		return empty(title)
	}
	const w, h, cx, cy, r = 540.0, 344.0, 270.0, 182.0, 110.0
	var desc strings.Builder
	fmt.Fprintf(&desc, "Radar chart of %d axes, each from 0 at the centre to 1 at the edge:", len(axes))
	for i, a := range axes {
		sep := ";"
		if i == len(axes)-1 {
			sep = "."
		}
		fmt.Fprintf(&desc, " %s %s%s", fullOr(a.Label, fmt.Sprintf("axis %d", i+1)), num(a.Value), sep)
	}
	c := start(w, h, title, desc.String())

	k := len(axes)
	angle := func(i int) float64 { return -math.Pi/2 + 2*math.Pi*float64(i)/float64(k) }
	at := func(i int, v float64) (float64, float64) {
		return cx + r*v*math.Cos(angle(i)), cy + r*v*math.Sin(angle(i))
	}

	// Grid: rings at quarters (polygons from three axes, circles below) and
	// the spokes.
	c.f(`<g fill="none" stroke="currentColor" stroke-opacity="0.25">`)
	for _, q := range []float64{0.25, 0.5, 0.75, 1} {
		if k < 3 {
			c.f(`<circle cx="%s" cy="%s" r="%s"/>`, n(cx), n(cy), n(r*q))
			continue
		}
		var pts []string
		for i := range k {
			x, y := at(i, q)
			pts = append(pts, n(x)+","+n(y))
		}
		c.f(`<polygon points="%s"/>`, strings.Join(pts, " "))
	}
	for i := range k {
		x, y := at(i, 1)
		c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, n(cx), n(cy), n(x), n(y))
	}
	c.f(`</g>`)
	c.f(`<g font-size="10" fill-opacity="0.6">`)
	for _, q := range []float64{0.5, 1} {
		c.text(cx+4, cy-r*q+12, "", tickLabel(q))
	}
	c.f(`</g>`)

	// The values: a polygon through the present ones, a marker on each.
	var pts []string
	for i, a := range axes {
		if finite(a.Value) {
			x, y := at(i, math.Max(0, math.Min(1, a.Value)))
			pts = append(pts, n(x)+","+n(y))
		}
	}
	col := color(0)
	if len(pts) >= 3 {
		c.f(`<polygon points="%s" fill="%s" fill-opacity="0.2" stroke="%s" stroke-width="2" stroke-linejoin="round"/>`, strings.Join(pts, " "), col, col)
	} else if len(pts) == 2 {
		c.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(pts, " "), col)
	}
	for i, a := range axes {
		if finite(a.Value) {
			x, y := at(i, math.Max(0, math.Min(1, a.Value)))
			c.marker("circle", x, y, 4, col, fullOr(a.Label, fmt.Sprintf("axis %d", i+1))+": "+num(a.Value))
		}
	}

	// Labels at the spokes' ends: the name, then the value in bold.
	for i, a := range axes {
		x, y := at(i, 1+14/r)
		cos, sin := math.Cos(angle(i)), math.Sin(angle(i))
		anchor := "middle"
		if cos > 0.25 {
			anchor = "start"
		} else if cos < -0.25 {
			anchor = "end"
		}
		ly, vy := y-2, y+12
		if sin < -0.5 {
			ly, vy = y-14, y
		} else if sin > 0.5 {
			ly, vy = y+10, y+24
		}
		name := clipTo(a.Label, fmt.Sprintf("axis %d", i+1), 20) // fits in the 146 px beside the rim
		c.f(`<g text-anchor="%s">`, anchor)
		c.tip(fullOr(a.Label, name) + ": " + num(a.Value))
		c.text(x, ly, "", name)
		c.text(x, vy, `font-weight="600"`, num(a.Value))
		c.f(`</g>`)
	}
	return c.finish()
}
