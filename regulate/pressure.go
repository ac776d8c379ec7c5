package regulate

import "sort"

// Lever is one parameter that moves a metric. Effect is +1 when raising the
// parameter raises the metric and -1 when it lowers it; the regulator moves
// the parameter in whichever direction brings the metric back into its band.
// A plain value, safe for concurrent use.
type Lever struct {
	Param  string  `json:"param"`
	Effect float64 `json:"effect"`
}

// Pressure is one metric read from the logs, against its healthy band. Red
// flags lie beyond the band: Severity is 0 inside the band and 1 at a red
// flag. Levers are tried in order. A plain value; its methods are safe for
// concurrent use.
type Pressure struct {
	// Metric names the measurement ("route.misroute.missed_clarify").
	Metric string `json:"metric"`
	// Value is the measured value; N the number of observations behind it.
	Value float64 `json:"value"`
	N     int     `json:"n"`
	// Low..High is the healthy band; RedLow and RedHigh the red flags. A side
	// whose red flag equals its band edge is scaled by DefaultRedSpan.
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	RedLow  float64 `json:"red_low"`
	RedHigh float64 `json:"red_high"`
	// Weight scales severity when ranking (0 means 1): evidence that a route
	// was wrong weighs more than a mode share outside its range.
	Weight float64 `json:"weight,omitempty"`
	Levers []Lever `json:"levers,omitempty"`
}

// DefaultRedSpan is the distance from band edge to red flag assumed when a
// pressure gives none (a constant).
const DefaultRedSpan = 0.1

// Severity is how far Value lies outside the band, in units of the distance
// from band edge to red flag: 0 inside, 1 at the red flag, more beyond; 0
// for a non-finite Value. It is safe for concurrent use.
func (p Pressure) Severity() float64 {
	if !finite(p.Value) {
		return 0
	}
	switch {
	case p.Value > p.High:
		return (p.Value - p.High) / span(p.RedHigh-p.High)
	case p.Value < p.Low:
		return (p.Low - p.Value) / span(p.Low-p.RedLow)
	}
	return 0
}

func span(d float64) float64 {
	if !(d > 0) {
		return DefaultRedSpan
	}
	return d
}

// Want is the direction the metric should move: -1 when above the band, +1
// when below, 0 inside. It is safe for concurrent use.
func (p Pressure) Want() int {
	switch {
	case p.Value > p.High:
		return -1
	case p.Value < p.Low:
		return 1
	}
	return 0
}

// Ranked is a pressure with its severity and ranking score (severity ×
// weight). A plain value, safe to copy and to read concurrently.
type Ranked struct {
	Pressure
	Severity float64 `json:"severity"`
	Score    float64 `json:"score"`
	// Enough is false when N is below the minimum sample count: the pressure
	// is shown but never acted on.
	Enough bool `json:"enough"`
}

// Rank scores every pressure and sorts them worst first (score, then metric
// name). Pressures with fewer than minSamples observations are kept, marked
// Enough false, after all others. The slice is fresh; Rank is safe for
// concurrent use.
func Rank(ps []Pressure, minSamples int) []Ranked {
	out := make([]Ranked, 0, len(ps))
	for _, p := range ps {
		w := p.Weight
		if w <= 0 || !finite(w) {
			w = 1
		}
		s := p.Severity()
		out = append(out, Ranked{Pressure: p, Severity: s, Score: s * w, Enough: p.N >= minSamples})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Enough != b.Enough {
			return a.Enough
		}
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.Metric < b.Metric
	})
	return out
}

// rate returns num/den, or 0 when den is 0 (such a pressure has N 0 and is
// never acted on).
func rate(num, den int) float64 {
	if den <= 0 {
		return 0
	}
	return float64(num) / float64(den)
}
