// Package svgchart draws small, accessible charts as inline SVG for
// server-rendered pages: Radar, TimeLine, Histogram, Bars, Reliability and
// StackedBars. Each returns one self-contained <svg> element as
// template.HTML, to be placed in an html/template page as it is.
//
// Every chart has role="img", a <title> and a <desc> (the desc states the
// data in words, so a screen reader hears the figures), a viewBox and no
// width or height so that it scales to its container, and no script, style
// element or link. Text and axes are drawn in currentColor, so the chart
// takes the page's text colour on light and dark backgrounds; the data
// colours are mid-tones that keep a 3:1 contrast against both white and
// black. Colour is never the only signal: series differ by dash pattern and
// marker shape, stacked categories by fill pattern, and every series or
// category is named in a legend or a label.
//
// All text given to a chart is escaped, stripped of characters XML does not
// allow and clipped for display (the full text, up to a limit, stays in a
// tooltip and in the desc). NaN and infinite values are treated as missing;
// a chart with nothing to draw says "no data yet". The output is a pure
// function of the input: the same input gives the same bytes, and element
// ids are derived from a hash of the chart so that several charts can share
// a page. Safe for concurrent use.
package svgchart

import (
	"fmt"
	"hash/fnv"
	"html/template"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// The data colours, in the order series and categories take them: the
// Okabe-Ito blue, vermillion and bluish green, then reddish purple, ochre
// and slate violet, each with a relative luminance between 0.1 and 0.3, so
// that each stands out 3:1 against both a white and a black page.
func color(i int) string {
	return [...]string{"#0072B2", "#D55E00", "#009E73", "#B45A93", "#A6761D", "#7570B3"}[i%nColors]
}

// dash is the stroke-dasharray of series i ("" is solid).
func dash(i int) string {
	return [...]string{"", "6 3", "2 3", "8 3 2 3", "1 6"}[i%nDashes]
}

// markerOf is the marker shape of series i. With five dashes and six
// markers (coprime counts), the first thirty series each have a different
// pair.
func markerOf(i int) string {
	return [...]string{"circle", "square", "triangle", "diamond", "cross", "bar"}[i%nMarkers]
}

// fillOf is the fill pattern of stacked category i; the first eight
// categories each have a different one.
func fillOf(i int) string {
	return [...]string{"solid", "diagonal", "backdiagonal", "horizontal", "vertical", "crosshatch", "dots", "diamonds"}[i%nFills]
}

const nColors, nDashes, nMarkers, nFills = 6, 5, 6, 8

// Limits on text: labels drawn in the chart are clipped to labelBytes,
// titles to titleBytes, and the text kept in tooltips and the desc to
// fullBytes.
const (
	labelBytes = 24
	titleBytes = 80
	fullBytes  = 200
)

// idToken stands for the chart's id prefix while it is drawn; it is a
// character clean removes from all text, so it occurs only where the chart
// put it, and finish replaces it with a prefix derived from the chart.
const idToken = "\x01"

const fontFamily = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"

// canvas accumulates the markup of one chart.
type canvas struct {
	b strings.Builder
}

// start opens the svg element of a w×h chart with its title, desc and the
// title drawn at the top.
func start(w, h float64, title, desc string) *canvas {
	c := &canvas{}
	c.f(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %s %s" role="img" aria-labelledby="%st %sd" font-family="%s" font-size="12" fill="currentColor">`,
		n(w), n(h), idToken, idToken, fontFamily)
	c.f(`<title id="%st">%s</title><desc id="%sd">%s</desc>`, idToken, esc(full(title)), idToken, esc(desc))
	c.text(12, 20, `font-size="14" font-weight="600"`, clip.Line(clean(title), titleBytes))
	return c
}

// f appends formatted markup. Its arguments are numbers and markup made
// here, never text from the caller: such text goes through text, tip or esc.
func (c *canvas) f(format string, args ...any) {
	fmt.Fprintf(&c.b, format, args...)
}

// text appends a text element at (x, y) with extra attributes attrs
// (markup) and the content s (plain text, escaped here).
func (c *canvas) text(x, y float64, attrs, s string) {
	if attrs != "" {
		attrs = " " + attrs
	}
	c.f(`<text x="%s" y="%s"%s>%s</text>`, n(x), n(y), attrs, esc(s))
}

// tip appends a tooltip: a title element for the enclosing element. Text
// from the caller must have gone through full or fullOr (to be clipped).
func (c *canvas) tip(s string) {
	c.f(`<title>%s</title>`, esc(s))
}

// finish closes the svg and replaces idToken with a prefix made from a hash
// of the markup, so that two different charts on one page have different
// ids and the same chart always has the same.
func (c *canvas) finish() template.HTML {
	c.b.WriteString(`</svg>`)
	s := c.b.String()
	h := fnv.New64a()
	h.Write([]byte(s))
	prefix := fmt.Sprintf("svgc%012x-", h.Sum64()&0xffffffffffff)
	return template.HTML(strings.ReplaceAll(s, idToken, prefix))
}

// empty is the chart of no data: the title and "no data yet".
func empty(title string) template.HTML {
	const w, h = 480, 110
	c := start(w, h, title, "No data yet.")
	c.f(`<rect x="12" y="34" width="456" height="64" rx="6" fill="none" stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="4 4"/>`)
	c.text(w/2, 71, `text-anchor="middle" fill-opacity="0.7"`, "no data yet")
	return c.finish()
}

// clean returns s as text XML accepts: invalid UTF-8 replaced, characters
// XML forbids (control characters, surrogates, U+FFFE, U+FFFF) removed, and
// runs of white space made one space.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case r < 0x20, r == 0x7f, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// full is s cleaned and clipped to the length kept in tooltips and descs.
func full(s string) string {
	return clip.Line(clean(s), fullBytes)
}

// fullOr is full(s), or fallback when s is blank.
func fullOr(s, fallback string) string {
	if s = full(s); s == "" {
		return fallback
	}
	return s
}

// label is s cleaned and clipped to the length of a label in the chart, or
// fallback when s is blank.
func label(s, fallback string) string {
	return clipTo(s, fallback, labelBytes)
}

// clipTo is s cleaned and clipped to max bytes, or fallback when s is
// blank.
func clipTo(s, fallback string, max int) string {
	if s = clip.Line(clean(s), max); s == "" {
		return fallback
	}
	return s
}

// esc is s cleaned and escaped for XML text and attribute values: every
// text the chart writes goes through it.
func esc(s string) string {
	return template.HTMLEscapeString(clean(s))
}

// n formats a coordinate: rounded to a tenth, no trailing zeros, finite.
func n(x float64) string {
	if !finite(x) {
		return "0"
	}
	x = math.Max(-1e6, math.Min(1e6, math.Round(x*10)/10))
	if x == 0 {
		return "0" // not -0
	}
	return strconv.FormatFloat(x, 'f', -1, 64)
}

// num formats a value for a reader: integers whole, other values to two or
// three significant places, very large and very small ones in e-notation.
func num(v float64) string {
	if !finite(v) {
		return "n/a"
	}
	a := math.Abs(v)
	switch {
	case v == 0:
		return "0"
	case a >= 1e9 || a < 1e-3:
		return strconv.FormatFloat(v, 'g', 3, 64)
	case v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// finite reports whether v is a number, neither NaN nor infinite.
func finite(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0)
}

// scale maps the domain [d0, d1] onto the range [r0, r1] linearly.
type scale struct{ d0, d1, r0, r1 float64 }

// at is the position of v, clamped to the range. It halves before it
// subtracts so that domains as wide as the floats do not overflow.
func (s scale) at(v float64) float64 {
	t := 0.5
	if w := s.d1/2 - s.d0/2; w > 0 {
		t = (v/2 - s.d0/2) / w
	}
	if !finite(t) {
		t = 0.5
	}
	t = math.Max(0, math.Min(1, t))
	return s.r0 + t*(s.r1-s.r0)
}

// ticks returns about want round values from at most lo to at least hi,
// increasing, the first and last bounding [lo, hi]. When no round steps
// fit (a range as wide as the floats, or too narrow for their precision)
// it returns lo and hi. lo and hi must be finite with lo < hi.
func ticks(lo, hi float64, want int) []float64 {
	raw := (hi - lo) / float64(want)
	if !finite(raw) || raw <= 0 {
		return []float64{lo, hi}
	}
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 2.5, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	first := math.Floor(lo/step) * step
	if step == 0 || !finite(first) {
		return []float64{lo, hi}
	}
	var ts []float64
	for k := 0; k <= 2*want+2; k++ {
		// Twelve significant digits: 0.6, not 0.6000000000000001.
		v, _ := strconv.ParseFloat(strconv.FormatFloat(first+float64(k)*step, 'g', 12, 64), 64)
		if !finite(v) || len(ts) > 0 && v <= ts[len(ts)-1] {
			break
		}
		if math.Abs(v) < step*1e-9 {
			v = 0 // not 1e-17
		}
		ts = append(ts, v)
		if v >= hi {
			break
		}
	}
	if len(ts) < 2 || ts[len(ts)-1] < hi || ts[0] > lo {
		return []float64{lo, hi}
	}
	return ts
}

// valueDomain is the y range of a chart of values from lo to hi: from zero
// when all are non-negative (to zero when all are negative), [0, 1] when
// all lie there, and never empty.
func valueDomain(lo, hi float64) (float64, float64) {
	lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	if lo == 0 && hi <= 1 {
		return 0, 1
	}
	return lo, hi
}

// wrap places legend entries of the given widths in rows no wider than w
// starting at x0, and returns each entry's position (relative to the first
// row's baseline) and the number of rows.
func wrap(widths []float64, x0, w, rowH float64) (xs, ys []float64, rows int) {
	x, y := x0, 0.0
	rows = 1
	for _, ew := range widths {
		if x > x0 && x+ew > w {
			x, y = x0, y+rowH
			rows++
		}
		xs, ys = append(xs, x), append(ys, y)
		x += ew + 16
	}
	return xs, ys, rows
}

// textWidth estimates the drawn width of s at font size px: about 0.6 em a
// character, wide characters (CJK and the like) 1 em.
func textWidth(s string, px float64) float64 {
	w := 0.0
	for _, r := range s {
		if r >= 0x1100 {
			w += px
		} else {
			w += 0.6 * px
		}
	}
	return w
}

// marker appends the marker called shape centred at (x, y), radius r,
// in colour col, with class "mk mk-<shape>", and the tooltip tip if any.
func (c *canvas) marker(shape string, x, y, r float64, col, tip string) {
	open := func(el, geo string) {
		c.f(`<%s class="mk mk-%s" %s fill="%s" stroke="%s" stroke-width="1"`, el, shape, geo, col, col)
		if tip == "" {
			c.f(`/>`)
			return
		}
		c.f(`>`)
		c.tip(tip)
		c.f(`</%s>`, el)
	}
	switch shape {
	case "circle":
		open("circle", fmt.Sprintf(`cx="%s" cy="%s" r="%s"`, n(x), n(y), n(r)))
	case "square":
		open("rect", fmt.Sprintf(`x="%s" y="%s" width="%s" height="%s"`, n(x-r*0.85), n(y-r*0.85), n(r*1.7), n(r*1.7)))
	case "triangle":
		open("path", fmt.Sprintf(`d="M%s %sL%s %sL%s %sZ"`, n(x), n(y-r*1.1), n(x+r), n(y+r*0.8), n(x-r), n(y+r*0.8)))
	case "diamond":
		open("path", fmt.Sprintf(`d="M%s %sL%s %sL%s %sL%s %sZ"`, n(x), n(y-r*1.2), n(x+r), n(y), n(x), n(y+r*1.2), n(x-r), n(y)))
	case "cross":
		open("path", fmt.Sprintf(`d="M%s %sL%s %sM%s %sL%s %s" stroke-linecap="round" stroke-width="2"`, n(x-r), n(y-r), n(x+r), n(y+r), n(x-r), n(y+r), n(x+r), n(y-r)))
	default: // bar: a short vertical bar
		open("rect", fmt.Sprintf(`x="%s" y="%s" width="%s" height="%s"`, n(x-r*0.45), n(y-r*1.2), n(r*0.9), n(r*2.4)))
	}
}

// style is how series i is drawn.
type style struct{ color, dash, marker string }

// seriesStyle is the style of series i: colour, dash and marker.
func seriesStyle(i int) style {
	return style{color(i), dash(i), markerOf(i)}
}

// dashAttr is the stroke-dasharray attribute of a dash, or nothing for a
// solid line.
func dashAttr(d string) string {
	if d == "" {
		return ""
	}
	return fmt.Sprintf(` stroke-dasharray="%s"`, d)
}

// secs is t in seconds since 1970 as a float, which covers every year
// time.Time does without overflow.
func secs(t time.Time) float64 {
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9
}

// grid appends the horizontal grid lines and labels of the y ticks yt
// between x = left and right.
func (c *canvas) grid(yt []float64, ys scale, left, right float64) {
	c.f(`<g stroke="currentColor" stroke-opacity="0.15">`)
	for _, v := range yt {
		c.f(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, n(left), n(ys.at(v)), n(right), n(ys.at(v)))
	}
	c.f(`</g><g font-size="11" fill-opacity="0.8" text-anchor="end">`)
	for _, v := range yt {
		c.text(left-6, ys.at(v)+4, "", tickLabel(v))
	}
	c.f(`</g>`)
}

// axes appends the left and bottom axis lines of the plot.
func (c *canvas) axes(left, top, right, bottom float64) {
	c.f(`<path d="M%s %sV%sH%s" fill="none" stroke="currentColor" stroke-opacity="0.6"/>`, n(left), n(top), n(bottom), n(right))
}

// yTitle appends the rotated title of the y axis, centred on the plot's
// height.
func (c *canvas) yTitle(s string, top, bottom float64) {
	mid := (top + bottom) / 2
	c.text(14, mid, fmt.Sprintf(`text-anchor="middle" transform="rotate(-90 14 %s)"`, n(mid)), s)
}

// bandLabels appends the labels of bands of width bw from x = left at
// baseline y; when they would collide only every k-th is drawn, the others
// staying in tooltips and the desc.
func (c *canvas) bandLabels(names []string, left, bw, y float64) {
	widest := 0.0
	for _, s := range names {
		widest = max(widest, textWidth(s, 11))
	}
	every := max(1, int(math.Ceil((widest+6)/bw)))
	c.f(`<g font-size="11" text-anchor="middle" fill-opacity="0.8">`)
	for i, s := range names {
		if i%every == 0 {
			c.text(left+(float64(i)+0.5)*bw, y, "", s)
		}
	}
	c.f(`</g>`)
}

// tickLabel formats a tick value: as num, without trailing zeros (0.8,
// not 0.80).
func tickLabel(v float64) string {
	if a := math.Abs(v); a >= 1e-3 && a < 1e9 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return num(v)
}

// countTicks is ticks for counts up to hi: whole numbers only.
func countTicks(hi float64) []float64 {
	yt := ticks(0, max(hi, 1), 5)
	var out []float64
	for _, v := range yt {
		if v == math.Trunc(v) {
			out = append(out, v)
		}
	}
	if len(out) < 2 || out[len(out)-1] < hi {
		return yt
	}
	return out
}
