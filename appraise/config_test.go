package appraise

import (
	"errors"
	"strings"
	"testing"
)

func TestConfig_params(t *testing.T) {
	def := DefaultConfig()
	if err := def.Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
	specs := ParamSpecs()
	p := def.Params()
	if len(p) != len(specs) {
		t.Fatalf("%d params for %d specs", len(p), len(specs))
	}
	for _, s := range specs {
		if !strings.HasPrefix(s.Name, ParamPrefix) || s.Doc == "" || s.Default < s.Min || s.Default > s.Max || s.Scale <= 0 {
			t.Errorf("bad spec %+v", s)
		}
		if p[s.Name] != s.Default {
			t.Errorf("%s = %v, want default %v", s.Name, p[s.Name], s.Default)
		}
	}
	// The regulator steers these three by name.
	for _, name := range []string{"appraise.floor.resonance", "appraise.floor.signature", "appraise.floor.evidence"} {
		if _, ok := p[name]; !ok {
			t.Errorf("parameter %s missing", name)
		}
	}
	c, err := def.WithParams(map[string]float64{"appraise.floor.resonance": 0.4, "route.respond.base": 9})
	if err != nil || c.ResonanceFloor != 0.4 || c.Params()["appraise.floor.resonance"] != 0.4 {
		t.Fatalf("WithParams: %v %+v", err, c)
	}
	if _, err := def.WithParams(map[string]float64{"appraise.nope": 1}); !errors.Is(err, ErrUnknownParam) {
		t.Fatalf("unknown param err = %v", err)
	}
	if _, err := def.WithParams(map[string]float64{"appraise.floor.resonance": 0.99}); !errors.Is(err, ErrOutOfBounds) {
		t.Fatalf("out-of-bounds err = %v", err)
	}
	bad := def
	bad.BandMedium, bad.BandStrong = 0.5, 0.4
	if err := bad.Validate(); !errors.Is(err, ErrOutOfBounds) {
		t.Fatalf("band order err = %v", err)
	}
}
