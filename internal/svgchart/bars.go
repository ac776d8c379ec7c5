package svgchart

import (
	"fmt"
	"html/template"
	"math"
	"strings"
)

// Bin is one bar of a histogram: the bin's label and its count.
type Bin struct {
	Label string
	Count int
}

// Histogram draws bins as vertical bars in the order given, each with its
// count above it (when there is room) and its label below, and xLabel
// under the axis. Negative counts are drawn as zero. With no bins it says
// "no data yet".
func Histogram(title string, xLabel string, bins []Bin) template.HTML {
	if len(bins) == 0 {
		return empty(title)
	}
	const w, left, right, top, bottom = 640.0, 60.0, 624.0, 40.0, 240.0
	const h = bottom + 50
	hi, total := 0.0, 0.0
	names := make([]string, len(bins))
	var desc strings.Builder
	fmt.Fprintf(&desc, "Histogram of %s, %d bins:", fullOr(xLabel, "value"), len(bins))
	for i, b := range bins {
		v := float64(max(b.Count, 0))
		hi, total = max(hi, v), total+v
		names[i] = clipTo(b.Label, fmt.Sprintf("bin %d", i+1), 14)
		fmt.Fprintf(&desc, " %s %d;", fullOr(b.Label, fmt.Sprintf("bin %d", i+1)), max(b.Count, 0))
	}
	fmt.Fprintf(&desc, " %s in all.", num(total))
	c := start(w, h, title, strings.TrimSuffix(desc.String(), ";"))
	yt := countTicks(hi)
	ys := scale{0, yt[len(yt)-1], bottom, top}
	c.grid(yt, ys, left, right)

	bw := (right - left) / float64(len(bins))
	gap := math.Min(bw*0.15, 4)
	col := color(0)
	c.f(`<g class="bars" fill="%s" fill-opacity="0.8" stroke="%s">`, col, col)
	for i, b := range bins {
		v := float64(max(b.Count, 0))
		y := ys.at(v)
		c.f(`<rect x="%s" y="%s" width="%s" height="%s">`, n(left+float64(i)*bw+gap/2), n(y), n(bw-gap), n(bottom-y))
		c.tip(fmt.Sprintf("%s: %d", fullOr(b.Label, fmt.Sprintf("bin %d", i+1)), max(b.Count, 0)))
		c.f(`</rect>`)
	}
	c.f(`</g>`)
	if bw >= textWidth(num(hi), 10)+4 { // the widest count fits
		c.f(`<g font-size="10" text-anchor="middle">`)
		for i, b := range bins {
			v := float64(max(b.Count, 0))
			c.text(left+(float64(i)+0.5)*bw, ys.at(v)-4, "", num(v))
		}
		c.f(`</g>`)
	}
	c.axes(left, top, right, bottom)
	c.bandLabels(names, left, bw, bottom+16)
	c.text((left+right)/2, bottom+40, `text-anchor="middle"`, label(xLabel, "value"))
	c.yTitle("count", top, bottom)
	return c.finish()
}

// Bar is one row of a bar chart: its label, its value, and a note shown
// after the value (such as a share or a count; may be empty).
type Bar struct {
	Label string
	Value float64
	Note  string
}

// Bars draws one horizontal bar a row, in the order given: the label on
// the left, the bar from zero, the value and the note on the right. A
// missing value (NaN, ±Inf) reads "n/a" and has no bar. With no bars it
// says "no data yet".
func Bars(title string, bars []Bar) template.HTML {
	if len(bars) == 0 {
		return empty(title)
	}
	const w, labelEnd, left, right, valueX, rowH = 640.0, 168.0, 176.0, 448.0, 458.0, 24.0
	lo, hi := 0.0, 0.0
	var desc strings.Builder
	fmt.Fprintf(&desc, "Bar chart, %d bars:", len(bars))
	for i, b := range bars {
		if finite(b.Value) {
			lo, hi = math.Min(lo, b.Value), math.Max(hi, b.Value)
		}
		fmt.Fprintf(&desc, " %s %s", fullOr(b.Label, fmt.Sprintf("bar %d", i+1)), num(b.Value))
		if note := full(b.Note); note != "" {
			fmt.Fprintf(&desc, " (%s)", note)
		}
		desc.WriteString(";")
	}
	if lo == hi {
		hi = 1
	}
	top := 36.0
	h := top + float64(len(bars))*rowH + 10
	c := start(w, h, title, strings.TrimSuffix(desc.String(), ";")+".")
	xs := scale{lo, hi, left, right}
	zero := xs.at(0)
	col := color(0)
	for i, b := range bars {
		y := top + float64(i)*rowH
		name := label(b.Label, fmt.Sprintf("bar %d", i+1))
		c.f(`<g class="bar">`)
		c.tip(fullOr(b.Label, name) + ": " + num(b.Value) + strings.TrimSuffix(" "+full(b.Note), " "))
		c.text(labelEnd, y+16, `text-anchor="end"`, name)
		if finite(b.Value) {
			x := xs.at(b.Value)
			c.f(`<rect x="%s" y="%s" width="%s" height="14" rx="2" fill="%s" fill-opacity="0.8" stroke="%s"/>`, n(math.Min(x, zero)), n(y+5), n(math.Abs(x-zero)), col, col)
		}
		c.text(valueX, y+16, `font-weight="600"`, num(b.Value))
		if note := clipTo(b.Note, "", 28); note != "" {
			c.text(valueX+textWidth(num(b.Value), 12)+10, y+16, `fill-opacity="0.7"`, note)
		}
		c.f(`</g>`)
	}
	c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="currentColor" stroke-opacity="0.6"/>`, n(zero), n(top), n(zero), n(h-8))
	return c.finish()
}

// Group is one stacked bar: its label (such as a day) and one value for
// each category, in the categories' order.
type Group struct {
	Label  string
	Values []float64
}

// StackedBars draws one vertical bar a group, stacked from the first
// category at the bottom, each category in its own colour and fill
// pattern, named with its total in the legend above; each bar's total is
// written over it when there is room. Values beyond the categories are
// ignored, absent ones count as zero, and missing (NaN, ±Inf) or negative
// ones are drawn as zero. With no group, no category or no value it says
// "no data yet".
func StackedBars(title string, categories []string, groups []Group) template.HTML {
	k := len(categories)
	value := func(g Group, j int) float64 {
		if j < len(g.Values) && finite(g.Values[j]) && g.Values[j] > 0 {
			return g.Values[j]
		}
		return 0
	}
	present := false
	for _, g := range groups {
		for j := range min(k, len(g.Values)) {
			present = present || finite(g.Values[j])
		}
	}
	if !present {
		return empty(title)
	}
	const w, left, right = 640.0, 60.0, 624.0
	cats := make([]string, k)
	sums := make([]float64, k)
	hi := 0.0
	for _, g := range groups {
		t := 0.0
		for j := range k {
			t += value(g, j)
			sums[j] += value(g, j)
		}
		hi = max(hi, t)
	}
	var widths []float64
	for j, s := range categories {
		cats[j] = label(s, fmt.Sprintf("category %d", j+1)) + " (" + num(sums[j]) + ")"
		widths = append(widths, 22+textWidth(cats[j], 12))
	}
	lx, ly, rows := wrap(widths, left, right, 20)
	top := 48 + float64(rows)*20
	bottom := top + 200
	h := bottom + 30

	var desc strings.Builder
	fmt.Fprintf(&desc, "Stacked bar chart, %d bars of %d categories (", len(groups), k)
	for j, s := range categories {
		if j > 0 {
			desc.WriteString(", ")
		}
		desc.WriteString(fullOr(s, fmt.Sprintf("category %d", j+1)))
	}
	desc.WriteString("):")
	for i, g := range groups {
		fmt.Fprintf(&desc, " %s", fullOr(g.Label, fmt.Sprintf("bar %d", i+1)))
		sep := " "
		for j := range k {
			fmt.Fprintf(&desc, "%s%s", sep, num(value(g, j)))
			sep = ", "
		}
		desc.WriteString(";")
	}
	c := start(w, h, title, strings.TrimSuffix(desc.String(), ";")+".")

	// The fill patterns, one a category, and the legend.
	c.f(`<defs>`)
	for j := range k {
		c.pattern(fmt.Sprintf("%sp%d", idToken, j), fillOf(j), color(j))
	}
	c.f(`</defs>`)
	for j := range k {
		x, y := lx[j], 44+ly[j]
		c.f(`<g class="legend"><rect x="%s" y="%s" width="14" height="14" fill="url(#%sp%d)" stroke="%s"/>`, n(x), n(y-11), idToken, j, color(j))
		c.text(x+20, y, "", cats[j])
		c.f(`</g>`)
	}

	yt := ticks(0, max(hi, 1), 5)
	if hi == math.Trunc(hi) {
		yt = countTicks(hi)
	}
	ys := scale{0, yt[len(yt)-1], bottom, top}
	c.grid(yt, ys, left, right)
	bw := (right - left) / float64(max(len(groups), 1))
	barW := math.Min(bw*0.7, 56)
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = clipTo(g.Label, fmt.Sprintf("bar %d", i+1), 14)
		x := left + (float64(i)+0.5)*bw - barW/2
		base := 0.0
		c.f(`<g class="stack">`)
		for j := range k {
			v := value(g, j)
			if v == 0 {
				continue
			}
			y0, y1 := ys.at(base), ys.at(base+v)
			base += v
			c.f(`<rect x="%s" y="%s" width="%s" height="%s" fill="url(#%sp%d)" stroke="%s">`, n(x), n(y1), n(barW), n(y0-y1), idToken, j, color(j))
			c.tip(fmt.Sprintf("%s · %s: %s", fullOr(g.Label, fmt.Sprintf("bar %d", i+1)), fullOr(categories[j], fmt.Sprintf("category %d", j+1)), num(v)))
			c.f(`</rect>`)
		}
		if bw >= textWidth(num(hi), 10)+4 {
			c.text(x+barW/2, ys.at(base)-4, `font-size="10" text-anchor="middle"`, num(base))
		}
		c.f(`</g>`)
	}
	c.axes(left, top, right, bottom)
	c.bandLabels(names, left, bw, bottom+16)
	return c.finish()
}

// pattern appends the fill pattern called kind in colour col with the
// given id (markup): a tinted tile with lines or dots over it.
func (c *canvas) pattern(id, kind, col string) {
	c.f(`<pattern id="%s" class="fill-%s" width="6" height="6" patternUnits="userSpaceOnUse">`, id, kind)
	if kind == "solid" {
		c.f(`<rect width="6" height="6" fill="%s" fill-opacity="0.85"/></pattern>`, col)
		return
	}
	c.f(`<rect width="6" height="6" fill="%s" fill-opacity="0.25"/>`, col)
	var d string
	switch kind {
	case "diagonal":
		d = "M0 6L6 0M-1 1L1 -1M5 7L7 5"
	case "backdiagonal":
		d = "M0 0L6 6M-1 5L1 7M5 -1L7 1"
	case "horizontal":
		d = "M0 3H6"
	case "vertical":
		d = "M3 0V6"
	case "crosshatch":
		d = "M0 3H6M3 0V6"
	case "diamonds":
		d = "M0 6L6 0M-1 1L1 -1M5 7L7 5M0 0L6 6M-1 5L1 7M5 -1L7 1"
	}
	if kind == "dots" {
		c.f(`<circle cx="3" cy="3" r="1.5" fill="%s"/>`, col)
	} else {
		c.f(`<path d="%s" stroke="%s" stroke-width="1.5"/>`, d, col)
	}
	c.f(`</pattern>`)
}
