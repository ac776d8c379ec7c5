package confidence

import (
	"math"
	"testing"
)

func TestTrendOf(t *testing.T) {
	cfg := DefaultConfig()
	nan := math.NaN()
	tests := []struct {
		name string
		hist []float64
		want Trend
	}{
		{"empty", nil, TrendFlat},
		{"one point", []float64{0.5}, TrendFlat},
		{"rising", []float64{0.4, 0.45, 0.5, 0.55}, TrendRising},
		{"falling", []float64{0.7, 0.65, 0.6}, TrendFalling},
		{"noise around a level", []float64{0.5, 0.51, 0.49, 0.5, 0.51, 0.5}, TrendFlat},
		{"old rise, recent decline beyond the window", []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45, 0.4}, TrendFalling},
		{"the seed's chart W1-W8 is a rise", []float64{0.62, 0.66, 0.72, 0.78, 0.84, 0.88, 0.88, 0.88}, TrendRising},
		{"NaN skipped", []float64{0.4, nan, 0.5, nan, 0.6}, TrendRising},
		{"two points just under threshold", []float64{0.5, 0.515}, TrendFlat},
		{"two points over threshold", []float64{0.5, 0.53}, TrendRising},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TrendOf(tt.hist, cfg); got != tt.want {
				t.Errorf("TrendOf(%v) = %s, want %s", tt.hist, got, tt.want)
			}
		})
	}
}
