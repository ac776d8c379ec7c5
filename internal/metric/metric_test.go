package metric

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRound4(t *testing.T) {
	tests := []struct {
		name string
		x    float64
		want float64
	}{
		{"zero", 0, 0},
		{"exact", 0.25, 0.25},
		{"down", 0.12344, 0.1234},
		{"up", 0.12346, 0.1235},
		{"half up", 0.00005, 0.0001},
		{"half away from zero when negative", -0.00005, -0.0001},
		{"negative down", -0.12344, -0.1234},
		{"negative up", -0.12346, -0.1235},
		{"negative three tenths", -0.3, -0.3},
		{"tiny negative is plain zero", -0.00001, 0},
		{"large", 12345.67891, 12345.6789},
		{"NaN", math.NaN(), 0},
		{"+Inf", math.Inf(1), math.Inf(1)},
		{"-Inf", math.Inf(-1), math.Inf(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Round4(tt.x)
			if got != tt.want || math.Signbit(got) != math.Signbit(tt.want) {
				t.Errorf("Round4(%v): got=%v, want %v", tt.x, got, tt.want)
			}
		})
	}
}

func TestAUROC(t *testing.T) {
	tests := []struct {
		name     string
		pos, neg []float64
		want     float64
	}{
		{"separated", []float64{3, 4}, []float64{1, 2}, 1},
		{"reversed", []float64{1, 2}, []float64{3, 4}, 0},
		{"all tied", []float64{5, 5}, []float64{5, 5}, 0.5},
		{"one tie across classes", []float64{2, 3}, []float64{1, 2}, 0.875},
		{"mixed", []float64{0.35, 0.8}, []float64{0.1, 0.4}, 0.75},
		{"unsorted input", []float64{0.8, 0.35}, []float64{0.4, 0.1}, 0.75},
		{"one each, tied", []float64{1}, []float64{1}, 0.5},
		{"unequal sizes", []float64{2}, []float64{1, 2, 3}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AUROC(tt.pos, tt.neg); got != tt.want {
				t.Errorf("AUROC(%v, %v): got=%v, want %v", tt.pos, tt.neg, got, tt.want)
			}
		})
	}
	for _, c := range [][2][]float64{{nil, {1}}, {{1}, nil}, {nil, nil}} {
		if got := AUROC(c[0], c[1]); !math.IsNaN(got) {
			t.Errorf("AUROC(%v, %v): got=%v, want NaN", c[0], c[1], got)
		}
	}
}

// TestAUROC_PairwiseDefinition checks AUROC against counting every pair on
// random scores with many ties, and that it leaves its arguments alone.
func TestAUROC_PairwiseDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		pos := make([]float64, 1+rng.IntN(30))
		neg := make([]float64, 1+rng.IntN(30))
		for i := range pos {
			pos[i] = float64(rng.IntN(8))
		}
		for i := range neg {
			neg[i] = float64(rng.IntN(8))
		}
		var wins float64
		for _, p := range pos {
			for _, n := range neg {
				switch {
				case p > n:
					wins++
				case p == n:
					wins += 0.5
				}
			}
		}
		want := wins / float64(len(pos)*len(neg))
		before := slices.Clone(neg)
		if got := AUROC(pos, neg); got != want {
			t.Fatalf("AUROC(%v, %v): got=%v, want %v", pos, neg, got, want)
		}
		if !slices.Equal(neg, before) {
			t.Fatalf("AUROC modified its argument")
		}
	}
}

func TestQuantile(t *testing.T) {
	s := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct {
		q    float64
		want int
	}{{0, 1}, {0.5, 5}, {0.95, 9}, {1, 10}, {2, 10}} {
		if got := Quantile(s, c.q); got != c.want {
			t.Errorf("Quantile(%v) = %d, want %d", c.q, got, c.want)
		}
	}
	if Quantile([]int(nil), 0.5) != 0 {
		t.Error("empty slice")
	}
}
