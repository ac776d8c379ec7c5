package route

// Range is the healthy band of one mode's share of decisions, with the red
// flags beyond it (shares in [0, 1]). A side whose red edge equals its
// healthy edge has no red flag (IGNORE has no lower one). A plain value, safe
// for concurrent use.
type Range struct {
	Low     float64 `json:"low"`
	High    float64 `json:"high"`
	RedLow  float64 `json:"red_low"`
	RedHigh float64 `json:"red_high"`
}

// Status places a share against its Range. A plain value, safe for
// concurrent use.
type Status string

// The statuses CheckDistribution reports.
const (
	StatusOK      Status = "ok"
	StatusLow     Status = "low"      // below the healthy band
	StatusHigh    Status = "high"     // above the healthy band
	StatusRedLow  Status = "red_low"  // below the red flag
	StatusRedHigh Status = "red_high" // above the red flag
)

// healthy is the seed's mode-entropy table. Read-only literal data.
var healthy = map[Mode]Range{
	Respond:     {Low: 0.50, High: 0.75, RedLow: 0.40, RedHigh: 0.85}, // >85% overconfident, <40% under-committing
	Clarify:     {Low: 0.08, High: 0.20, RedLow: 0.03, RedHigh: 0.30}, // >30% over-questioning, <3% never clarifying
	Gather:      {Low: 0.05, High: 0.15, RedLow: 0.02, RedHigh: 0.25}, // <2% ACT death, >25% over-processing
	Acknowledge: {Low: 0.03, High: 0.12, RedLow: 0.01, RedHigh: 0.20}, // <1% ignoring social cues, >20% trivializing
	Ignore:      {Low: 0.00, High: 0.02, RedLow: 0.00, RedHigh: 0.05}, // >5% dropping messages
}

// HealthyRanges returns the seed's healthy mode-distribution ranges. The map
// is fresh; it is safe for concurrent use.
func HealthyRanges() map[Mode]Range {
	out := make(map[Mode]Range, len(healthy))
	for m, r := range healthy {
		out[m] = r
	}
	return out
}

// Classify places share against r. It is safe for concurrent use.
func (r Range) Classify(share float64) Status {
	switch {
	case share > r.RedHigh && r.RedHigh > r.High:
		return StatusRedHigh
	case share > r.High:
		return StatusHigh
	case share < r.RedLow && r.RedLow < r.Low:
		return StatusRedLow
	case share < r.Low:
		return StatusLow
	}
	return StatusOK
}

// ModeHealth is one mode's share of decisions against its healthy range. A
// plain value, safe to copy and to read concurrently.
type ModeHealth struct {
	Mode   Mode    `json:"mode"`
	Count  int     `json:"count"`
	Share  float64 `json:"share"`
	Range  Range   `json:"range"`
	Status Status  `json:"status"`
}

// CheckDistribution compares a mode distribution (decisions per mode) with
// the healthy ranges and flags each mode outside them. It returns one entry
// per mode in Modes() order, or nil when there are no decisions; counts for
// unknown modes are ignored. It is safe for concurrent use.
func CheckDistribution(counts map[Mode]int) []ModeHealth {
	total := 0
	for _, m := range modes {
		total += max(counts[m], 0)
	}
	if total == 0 {
		return nil
	}
	out := make([]ModeHealth, 0, len(modes))
	for _, m := range modes {
		n := max(counts[m], 0)
		share := float64(n) / float64(total)
		r := healthy[m]
		out = append(out, ModeHealth{Mode: m, Count: n, Share: share, Range: r, Status: r.Classify(share)})
	}
	return out
}
