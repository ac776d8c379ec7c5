package confidence

import "math"

// Trend is a short label for the recent direction of a lesson's composite,
// for `lessons show`. Values are plain data, safe for concurrent use.
type Trend string

// The trend labels.
const (
	TrendRising  Trend = "rising"
	TrendFalling Trend = "falling"
	TrendFlat    Trend = "flat"
)

// TrendOf labels the direction of history, a lesson's composites oldest
// first (e.g. the After.Composite of its history rows). It fits a
// least-squares line through the last [Config.TrendWindow] values and
// compares the fitted change across them with [Config.TrendFlat]: above is
// rising, below its negative falling, otherwise (and with fewer than two
// values) flat. NaN values are skipped. Safe for concurrent use.
func TrendOf(history []float64, cfg Config) Trend {
	ys := make([]float64, 0, cfg.TrendWindow)
	for i := len(history) - 1; i >= 0 && len(ys) < cfg.TrendWindow; i-- {
		if !math.IsNaN(history[i]) {
			ys = append(ys, history[i])
		}
	}
	n := len(ys)
	if n < 2 {
		return TrendFlat
	}
	// ys is newest first; x runs from n-1 (oldest) down to 0 (newest)
	// so flip the sign of the slope at the end.
	var sx, sy, sxx, sxy float64
	for i, y := range ys {
		x := float64(i)
		sx += x
		sy += y
		sxx += x * x
		sxy += x * y
	}
	fn := float64(n)
	slope := -(fn*sxy - sx*sy) / (fn*sxx - sx*sx)
	change := slope * (fn - 1)
	switch {
	case change > cfg.TrendFlat:
		return TrendRising
	case change < -cfg.TrendFlat:
		return TrendFalling
	}
	return TrendFlat
}
