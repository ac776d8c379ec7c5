package appraise

import (
	"math/rand/v2"
	"testing"
)

// bandRate is the true hit rate of a verdict by its raw strength: an
// over-confident critic at the top, an under-confident one at the bottom.
func bandRate(s float64) float64 {
	switch {
	case s < 0.25:
		return 0.30
	case s < 0.5:
		return 0.45
	case s < 0.75:
		return 0.55
	}
	return 0.70
}

// draw returns n outcomes with strengths uniform in [0, 1] and hits drawn
// with the band's rate.
func draw(r *rand.Rand, n int) []Point {
	ps := make([]Point, n)
	for i := range ps {
		s := r.Float64()
		ps[i] = Point{Strength: s, Hit: r.Float64() < bandRate(s)}
	}
	return ps
}

func ece(c Calibration, ps []Point) float64 {
	conf := make([]float64, len(ps))
	hit := make([]bool, len(ps))
	for i, p := range ps {
		conf[i], hit[i] = c.Map(p.Strength), p.Hit
	}
	return ECE(conf, hit, 10)
}

// TestCalibration_replay300 replays 300 recorded outcomes with known hit
// rates per strength band: afterwards the expected calibration error of
// confidence on fresh verdicts is at most 0.08 (it is far above that for
// raw strength). Several seeds guard against a lucky draw.
func TestCalibration_replay300(t *testing.T) {
	cfg := DefaultConfig()
	for seed := uint64(1); seed <= 5; seed++ {
		r := rand.New(rand.NewPCG(seed, 42))
		c := Fit(draw(r, 300), int(cfg.CalibrationMinBin), int(cfg.CalibrationMinPoints))
		if c.Identity() {
			t.Fatalf("seed %d: 300 outcomes left the identity", seed)
		}
		test := draw(r, 20000)
		before, after := ece(Calibration{}, test), ece(c, test)
		t.Logf("seed %d: ECE raw strength %.3f, calibrated confidence %.3f (%d knots)", seed, before, after, len(c.Knots))
		if after > 0.08 {
			t.Errorf("seed %d: ECE after calibration = %.3f, want ≤ 0.08 (before %.3f)", seed, after, before)
		}
		if before < 0.1 {
			t.Fatalf("seed %d: raw strength already calibrated (ECE %.3f): the test would not show anything", seed, before)
		}
	}
}

func TestFit(t *testing.T) {
	t.Run("identity below the minimum", func(t *testing.T) {
		c := Fit([]Point{{0.9, false}, {0.1, true}}, 1, 3)
		if !c.Identity() || c.Map(0.42) != 0.42 || c.Map(1.5) != 1 || c.Map(-1) != 0 {
			t.Fatalf("fit of 2 points with minimum 3 = %+v", c)
		}
	})
	t.Run("monotone with minimum bin size", func(t *testing.T) {
		r := rand.New(rand.NewPCG(7, 7))
		ps := draw(r, 500)
		c := Fit(ps, 25, 10)
		total := 0
		for i, k := range c.Knots {
			total += k.N
			if k.N < 25 {
				t.Errorf("knot %d has %d points, want ≥ 25", i, k.N)
			}
			if i > 0 && (k.Rate < c.Knots[i-1].Rate || k.Strength <= c.Knots[i-1].Strength) {
				t.Errorf("knots not increasing: %+v then %+v", c.Knots[i-1], k)
			}
		}
		if total != len(ps) {
			t.Fatalf("knots hold %d points, want %d", total, len(ps))
		}
		for x := 0.0; x < 1; x += 0.01 {
			if c.Map(x) > c.Map(x+0.01)+1e-12 {
				t.Fatalf("Map decreases at %.2f", x)
			}
		}
	})
	t.Run("pools violators", func(t *testing.T) {
		ps := []Point{{0.1, true}, {0.2, false}, {0.3, false}, {0.4, true}}
		c := Fit(ps, 1, 1)
		want := []Knot{{Strength: 0.2, Rate: 1.0 / 3, N: 3}, {Strength: 0.4, Rate: 1, N: 1}}
		if len(c.Knots) != 2 || c.Knots[0].N != 3 || c.Knots[1] != want[1] || c.Knots[0].Rate != want[0].Rate {
			t.Fatalf("knots = %+v, want %+v", c.Knots, want)
		}
		if got := c.Map(0.3); got < 1.0/3 || got > 1 {
			t.Fatalf("Map(0.3) = %v, want between the knots", got)
		}
	})
}

func TestECE(t *testing.T) {
	if got := ECE([]float64{0.8, 0.8, 0.8, 0.8, 0.8}, []bool{true, true, true, true, false}, 10); got > 1e-9 {
		t.Fatalf("ECE of a calibrated bin = %v, want 0", got)
	}
	if got := ECE([]float64{1, 1}, []bool{false, false}, 10); got != 1 {
		t.Fatalf("ECE of a confident miss = %v, want 1", got)
	}
	if got := ECE(nil, nil, 10); got != 0 {
		t.Fatalf("ECE of nothing = %v", got)
	}
}
