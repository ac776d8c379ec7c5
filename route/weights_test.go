package route

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestWeights_TableCoversEveryField(t *testing.T) {
	// Every float64 field of Weights has exactly one spec, and every spec
	// points at a distinct field.
	var w Weights
	fields := reflect.TypeOf(w).NumField()
	if fields != len(weightTable) {
		t.Fatalf("Weights has %d fields, weightTable %d specs", fields, len(weightTable))
	}
	seenPtr := map[*float64]string{}
	seenName := map[string]bool{}
	for _, s := range weightTable {
		p := s.field(&w)
		if other, dup := seenPtr[p]; dup {
			t.Errorf("%s and %s address the same field", s.Name, other)
		}
		seenPtr[p] = s.Name
		if seenName[s.Name] {
			t.Errorf("%s listed twice", s.Name)
		}
		seenName[s.Name] = true
		if !strings.HasPrefix(s.Name, ParamPrefix) {
			t.Errorf("%s lacks prefix %q", s.Name, ParamPrefix)
		}
		if !(s.Min <= s.Default && s.Default <= s.Max) || s.Scale <= 0 || s.Doc == "" {
			t.Errorf("%s: default %v outside [%v, %v], scale %v, doc %q", s.Name, s.Default, s.Min, s.Max, s.Scale, s.Doc)
		}
	}
}

func TestDefaultWeights_Valid(t *testing.T) {
	if err := DefaultWeights().Validate(); err != nil {
		t.Fatalf("DefaultWeights().Validate() = %v", err)
	}
	w := DefaultWeights()
	// The seed's numbers where it gives them.
	for name, want := range map[string]float64{
		"RespondBase": 0.50, "ClarifyBase": 0.30, "GatherBase": 0.20, "AckBase": 0.10, "IgnoreBase": -0.50,
		"AckGreeting": 0.60, "AckPositive": 0.40, "AckQuestion": 0.30, "IgnoreEmpty": 1.0,
		"GatherUnproductive": 0.15, "RespondAfterClarify": 0.05, "MarginBase": 0.20, "MarginMin": 0.08,
		"MarginImplicitRef": 0.05, "MarginLowDensity": 0.03, "MarginInterrogativeNoMark": 0.03,
		"MarginHysteresis": 0.05, "HysteresisBelow": 0.15, "HysteresisStreak": 3, "WarmAbove": 0.6,
	} {
		if got := reflect.ValueOf(w).FieldByName(name).Float(); got != want {
			t.Errorf("%s = %v, want the seed's %v", name, got, want)
		}
	}
}

func TestWeights_ParamsRoundTrip(t *testing.T) {
	w := DefaultWeights()
	p := w.Params()
	if len(p) != len(weightTable) {
		t.Fatalf("Params has %d entries, want %d", len(p), len(weightTable))
	}
	p["route.clarify.base"] = 0.42
	p["hesitation.threshold"] = 30 // another component's: skipped
	got, err := w.WithParams(p)
	if err != nil {
		t.Fatalf("WithParams: %v", err)
	}
	if got.ClarifyBase != 0.42 {
		t.Errorf("ClarifyBase = %v, want 0.42", got.ClarifyBase)
	}
	if w.ClarifyBase != 0.30 {
		t.Errorf("WithParams changed its receiver: %v", w.ClarifyBase)
	}
	if back := got.Params(); back["route.clarify.base"] != 0.42 || back["route.respond.base"] != 0.50 {
		t.Errorf("Params after WithParams: %v", back)
	}
}

func TestWeights_WithParamsErrors(t *testing.T) {
	w := DefaultWeights()
	cases := []struct {
		name string
		p    map[string]float64
		want error
	}{
		{"unknown", map[string]float64{"route.nope": 1}, ErrUnknownWeight},
		{"above max", map[string]float64{"route.respond.base": 0.9}, ErrOutOfBounds},
		{"below min", map[string]float64{"route.clarify.base": 0}, ErrOutOfBounds},
		{"nan", map[string]float64{"route.gather.base": math.NaN()}, ErrOutOfBounds},
		{"inf", map[string]float64{"route.gather.base": math.Inf(1)}, ErrOutOfBounds},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := w.WithParams(c.p)
			if !errors.Is(err, c.want) {
				t.Fatalf("WithParams(%v) error = %v, want %v", c.p, err, c.want)
			}
			if got != w {
				t.Errorf("WithParams returned changed weights on error")
			}
		})
	}
}

func TestWeights_ValidateOrder(t *testing.T) {
	w := DefaultWeights()
	w.VeryColdBelow, w.ColdBelow = 0.3, 0.2
	if err := w.Validate(); !errors.Is(err, ErrOutOfBounds) {
		t.Errorf("very_cold above cold: Validate() = %v, want ErrOutOfBounds", err)
	}
	w = DefaultWeights()
	w.MarginMin, w.MarginBase = 0.2, 0.1
	if err := w.Validate(); !errors.Is(err, ErrOutOfBounds) {
		t.Errorf("margin min above base: Validate() = %v, want ErrOutOfBounds", err)
	}
}

func TestWeightSpecs_Copy(t *testing.T) {
	a := WeightSpecs()
	a[0].Default = 99
	if WeightSpecs()[0].Default == 99 {
		t.Error("WeightSpecs returned the shared table")
	}
}
