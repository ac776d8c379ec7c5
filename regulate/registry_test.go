package regulate

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/route"
)

func TestNewRegistry_Invalid(t *testing.T) {
	ok := Param{Name: "a", Default: 0.5, Min: 0, Max: 1, Scale: 1}
	cases := []struct {
		name string
		ps   []Param
	}{
		{"empty name", []Param{{Default: 0, Min: 0, Max: 1, Scale: 1}}},
		{"repeated", []Param{ok, ok}},
		{"min above max", []Param{{Name: "b", Default: 0.5, Min: 1, Max: 0, Scale: 1}}},
		{"default outside", []Param{{Name: "b", Default: 2, Min: 0, Max: 1, Scale: 1}}},
		{"nan", []Param{{Name: "b", Default: math.NaN(), Min: 0, Max: 1, Scale: 1}}},
		{"zero scale", []Param{{Name: "b", Default: 0.5, Min: 0, Max: 1}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := NewRegistry(c.ps...); !errors.Is(err, ErrInvalidParam) {
				t.Errorf("NewRegistry error = %v, want ErrInvalidParam", err)
			}
		})
	}
}

func TestDefaultRegistry(t *testing.T) {
	reg, err := DefaultRegistry()
	if err != nil {
		t.Fatalf("DefaultRegistry: %v", err)
	}
	// Every router weight is registered with the router's own bounds.
	for _, s := range route.WeightSpecs() {
		p, ok := reg.Lookup(s.Name)
		if !ok || p.Min != s.Min || p.Max != s.Max || p.Default != s.Default {
			t.Errorf("%s: registered %+v, router spec %+v", s.Name, p, s)
		}
	}
	// Every lever any pressure names is registered.
	var ps []Pressure
	ps = append(ps, RoutingPressures(RoutingMetrics{})...)
	ps = append(ps, HesitationPressures(HesitationMetrics{})...)
	ps = append(ps, AppraisePressures(AppraiseMetrics{})...)
	for _, p := range ps {
		for _, lv := range p.Levers {
			if _, ok := reg.Lookup(lv.Param); !ok {
				t.Errorf("pressure %s: lever %s not registered", p.Metric, lv.Param)
			}
			if lv.Effect != 1 && lv.Effect != -1 {
				t.Errorf("pressure %s: lever %s effect %v", p.Metric, lv.Param, lv.Effect)
			}
		}
	}
	// Defaults are valid router weights.
	w, err := route.DefaultWeights().WithParams(reg.Defaults())
	if err != nil || w != route.DefaultWeights() {
		t.Errorf("registry defaults are not the router defaults: %v", err)
	}
}

func TestRegistry_ValidateResolve(t *testing.T) {
	reg, err := NewRegistry(Param{Name: "a", Default: 0.5, Min: 0, Max: 1, Scale: 1}, Param{Name: "b", Default: 3, Min: 1, Max: 5, Scale: 10})
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]float64{"a": 0.7, "b": 9, "gone": 1}
	err = reg.Validate(stored)
	if !errors.Is(err, ErrUnknownParam) || !errors.Is(err, ErrOutOfBounds) {
		t.Errorf("Validate error = %v, want both ErrUnknownParam and ErrOutOfBounds", err)
	}
	if !strings.Contains(err.Error(), "gone") || !strings.Contains(err.Error(), "b = 9") {
		t.Errorf("Validate error does not name the problems: %v", err)
	}
	got := reg.Resolve(stored)
	if got["a"] != 0.7 || got["b"] != 3 || len(got) != 2 {
		t.Errorf("Resolve = %v, want a=0.7 (stored), b=3 (default), nothing else", got)
	}
	if err := reg.Validate(map[string]float64{"a": 1, "b": 1}); err != nil {
		t.Errorf("Validate of good values = %v", err)
	}
}
