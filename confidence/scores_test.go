package confidence

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

func TestFrequency_SeedTable(t *testing.T) {
	cfg := DefaultConfig()
	// The seed's table: 1-2 → 0.30, 3-5 → 0.50, 6-10 → 0.70, 11-20 → 0.85, 21+ → 0.95.
	tests := []struct {
		obs, contra int
		want        float64
	}{
		{1, 0, 0.30}, {2, 0, 0.30}, {3, 0, 0.50}, {5, 0, 0.50}, {6, 0, 0.70}, {10, 0, 0.70},
		{11, 0, 0.85}, {20, 0, 0.85}, {21, 0, 0.95}, {500, 0, 0.95},
		{0, 0, 0}, {6, 1, 0.60}, {6, 3, 0.40}, {1, 5, 0}, {21, 2, 0.75},
	}
	for _, tt := range tests {
		s := State{Observations: tt.obs, Contradictions: tt.contra}
		if got := Frequency(s, cfg); !near(got, tt.want) {
			t.Errorf("Frequency(obs=%d, contra=%d) = %v, want %v", tt.obs, tt.contra, got, tt.want)
		}
	}
}

// seedWilson is the seed's TypeScript formula transcribed literally.
func seedWilson(pos, total float64) float64 {
	z := 1.96
	p := pos / total
	den := 1 + z*z/total
	center := (p + z*z/(2*total)) / den
	margin := z * math.Sqrt((p*(1-p)+z*z/(4*total))/total) / den
	return math.Max(0, math.Min(1, center-margin))
}

func TestWilson(t *testing.T) {
	tests := []struct {
		pos, n, want float64
	}{
		{1, 1, 0.2065}, {0, 10, 0}, {10, 10, 0.7225}, {8, 10, 0.4902}, {2, 10, 0.0567}, {0, 0, 0},
	}
	for _, tt := range tests {
		if got := Wilson(tt.pos, tt.n, 1.96); math.Abs(got-tt.want) > 5e-4 {
			t.Errorf("Wilson(%v, %v) = %.4f, want %.4f", tt.pos, tt.n, got, tt.want)
		}
	}
	for n := 1; n < 60; n++ {
		for pos := 0; pos <= n; pos++ {
			if got, want := Wilson(float64(pos), float64(n), 1.96), seedWilson(float64(pos), float64(n)); !near(got, want) {
				t.Fatalf("Wilson(%d, %d) = %v, seed formula %v", pos, n, got, want)
			}
		}
	}
}

func TestEffectiveness(t *testing.T) {
	cfg := DefaultConfig()
	if got := Effectiveness(State{}, cfg); got != 0.5 {
		t.Errorf("no evidence: got %v, want 0.5", got)
	}
	// Established evidence is the seed's Wilson bound.
	if got, want := Effectiveness(State{Successes: 16, Failures: 4}, cfg), seedWilson(16, 20); !near(got, want) {
		t.Errorf("16+ 4-: got %v, want seed Wilson %v", got, want)
	}
	// The neutral hold: the first success does not drop 0.5 to 0.21.
	if got := Effectiveness(State{Successes: 1}, cfg); got != 0.5 {
		t.Errorf("one success: got %v, want 0.5 (held)", got)
	}
	if got := Effectiveness(State{Failures: 1}, cfg); !near(got, 0.5*2/3) {
		t.Errorf("one failure: got %v, want %v", got, 0.5*2/3)
	}
	// Monotone over a grid: a success never lowers, a failure always lowers
	// (until zero).
	for s := 0; s < 40; s++ {
		for f := 0; f < 40; f++ {
			e := Effectiveness(State{Successes: s, Failures: f}, cfg)
			if up := Effectiveness(State{Successes: s + 1, Failures: f}, cfg); up < e {
				t.Fatalf("success lowered effectiveness at %d+ %d-: %v → %v", s, f, e, up)
			}
			if dn := Effectiveness(State{Successes: s, Failures: f + 1}, cfg); dn >= e && e > 0 {
				t.Fatalf("failure did not lower effectiveness at %d+ %d-: %v → %v", s, f, e, dn)
			}
		}
	}
}

// seedHuman is the seed's calculateHumanScore loop transcribed literally.
func seedHuman(approvals, rejections int, reflect bool) float64 {
	if reflect {
		return 0.95
	}
	if approvals+rejections == 0 {
		return 0.5
	}
	score := 0.5
	for range approvals {
		score += 0.15 * (1 - score)
	}
	for range rejections {
		score -= 0.15 * score
	}
	return score
}

func TestHuman(t *testing.T) {
	cfg := DefaultConfig()
	for a := 0; a < 12; a++ {
		for r := 0; r < 12; r++ {
			got := Human(State{Approvals: a, Rejections: r}, cfg)
			if want := seedHuman(a, r, false); !near(got, want) {
				t.Fatalf("Human(%d approvals, %d rejections) = %v, seed %v", a, r, got, want)
			}
			if got := Human(State{Approvals: a, Rejections: r, Verdict: VerdictApproved}, cfg); got < 0.95 {
				t.Fatalf("explicit approval: Human = %v, want ≥ 0.95", got)
			}
			rej := Human(State{Approvals: a, Rejections: r, Verdict: VerdictRejected}, cfg)
			if want := math.Max(0, seedHuman(a, r, false)-0.30); !near(rej, want) {
				t.Fatalf("explicit rejection: Human = %v, want %v", rej, want)
			}
		}
	}
}

func TestComposite(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		name    string
		f, e, h float64
		want    float64
	}{
		{"seed weights", 0.7, 0.6, 0.5, 0.7*0.35 + 0.6*0.40 + 0.5*0.25},
		{"all high", 0.95, 0.9, 0.95, 0.95*0.35 + 0.9*0.40 + 0.95*0.25},
		{"one dimension below 0.2 is penalised 30%", 0.95, 0.1, 0.95, (0.95*0.35 + 0.1*0.40 + 0.95*0.25) * 0.7},
		{"exactly 0.2 is not penalised", 0.2, 0.5, 0.5, 0.2*0.35 + 0.5*0.40 + 0.5*0.25},
		{"all zero", 0, 0, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := composite(tt.f, tt.e, tt.h, cfg); !near(got, tt.want) {
				t.Errorf("composite(%v, %v, %v) = %v, want %v", tt.f, tt.e, tt.h, got, tt.want)
			}
		})
	}
	// Configurable weights.
	cfg.Weights = Dims{Frequency: 0.2, Effectiveness: 0.6, Human: 0.2}
	if got := composite(0.5, 1, 0.5, cfg); !near(got, 0.8) {
		t.Errorf("custom weights: got %v, want 0.8", got)
	}
}

func TestComposite_State(t *testing.T) {
	cfg := DefaultConfig()
	rng := rand.New(rand.NewPCG(1, 2))
	for range 500 {
		s := randomState(rng, cfg)
		want := composite(Frequency(s, cfg), Effectiveness(s, cfg), Human(s, cfg), cfg)
		if got := Composite(s, cfg); got != want || s.Composite != want {
			t.Fatalf("Composite = %v, cached %v, want %v", got, s.Composite, want)
		}
		if got := s.Scores(cfg); got.Tier != TierOf(want, cfg) {
			t.Fatalf("Scores tier = %v, want %v", got.Tier, TierOf(want, cfg))
		}
	}
}

func TestConfig_Validate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("DefaultConfig invalid: %v", err)
	}
	tests := []struct {
		name string
		mod  func(*Config)
	}{
		{"weights do not sum to 1", func(c *Config) { c.Weights.Human = 0.5 }},
		{"negative weight", func(c *Config) { c.Weights = Dims{Frequency: -0.1, Effectiveness: 0.6, Human: 0.5} }},
		{"tiers out of order", func(c *Config) { c.StrongAt = 0.9 }},
		{"frequency steps without unbounded row", func(c *Config) { c.FrequencySteps = c.FrequencySteps[:2] }},
		{"frequency steps descending", func(c *Config) { c.FrequencySteps[1].MaxObservations = 1 }},
		{"zero decay period", func(c *Config) { c.DecayPeriod = 0 }},
		{"NaN z", func(c *Config) { c.WilsonZ = math.NaN() }},
		{"unknown recovery kind", func(c *Config) { c.Recovery["nope"] = Dims{} }},
		{"promotion beyond recent list", func(c *Config) { c.PromoteAfterSessions = c.RecentSessions + 1 }},
		{"trend window 1", func(c *Config) { c.TrendWindow = 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.mod(&c)
			if err := c.Validate(); !errors.Is(err, ErrInvalidConfig) {
				t.Errorf("Validate() = %v, want ErrInvalidConfig", err)
			}
		})
	}
}
