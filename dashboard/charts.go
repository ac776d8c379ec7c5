package dashboard

// STAND-IN: DELETE AT INTEGRATION. These are minimal stand-ins with the
// signatures of package internal/svgchart (written by the "charts" helper
// on another branch), so that the dashboard compiles and runs before the
// merge. At integration: delete this file, import
// "github.com/innate-mcp/innate-mcp/internal/svgchart", and replace the
// prefix "chart" with "svgchart." (chartRadar → svgchart.Radar, chartAxis
// → svgchart.Axis, and so on). Each stand-in draws only a titled box that
// says how much data it was given.

import (
	"fmt"
	"html/template"
	"time"
)

type chartAxis struct {
	Label string
	Value float64
}

type chartTimePoint struct {
	T time.Time
	V float64
}

type chartSeries struct {
	Name   string
	Points []chartTimePoint
}

type chartMark struct {
	T     time.Time
	Label string
}

type chartBin struct {
	Label string
	Count int
}

type chartBar struct {
	Label string
	Value float64
	Note  string
}

type chartReliabilityBin struct {
	Predicted, Observed float64
	Count               int
}

type chartGroup struct {
	Label  string
	Values []float64
}

func chartRadar(title string, axes []chartAxis) template.HTML {
	return standIn(title, len(axes), "axes")
}

func chartTimeLine(title, yLabel string, series []chartSeries, marks []chartMark) template.HTML {
	n := 0
	for _, s := range series {
		n += len(s.Points)
	}
	return standIn(title, n, "points")
}

func chartHistogram(title, xLabel string, bins []chartBin) template.HTML {
	return standIn(title, len(bins), "bins")
}

func chartBars(title string, bars []chartBar) template.HTML {
	return standIn(title, len(bars), "bars")
}

func chartReliability(title string, bins []chartReliabilityBin) template.HTML {
	return standIn(title, len(bins), "bins")
}

func chartStackedBars(title string, categories []string, groups []chartGroup) template.HTML {
	return standIn(title, len(groups), "groups")
}

// standIn is a valid, labelled SVG box saying what a chart would show.
func standIn(title string, n int, what string) template.HTML {
	t := template.HTMLEscapeString(title)
	msg := "no data yet"
	if n > 0 {
		msg = fmt.Sprintf("%d %s", n, what)
	}
	return template.HTML(fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="%s: %s" viewBox="0 0 320 60" width="320" height="60"><title>%s</title><rect x="0.5" y="0.5" width="319" height="59" fill="none" stroke="#888"/><text x="10" y="24" font-size="13">%s</text><text x="10" y="46" font-size="12">%s</text></svg>`, t, msg, t, t, msg))
}
