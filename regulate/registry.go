package regulate

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Param describes one tunable parameter: a plain name, a default, hard bounds
// the regulator never crosses, and a scale: one day's largest move is
// Config.MaxStep × Scale (Scale 1 for weights on a 0–1 score scale, 100 for a
// 0–100 threshold, 10 for small counts). A plain value, safe to copy and to
// read concurrently.
type Param struct {
	Name    string  `json:"name"`
	Default float64 `json:"default"`
	Min     float64 `json:"min"`
	Max     float64 `json:"max"`
	Scale   float64 `json:"scale"`
	Doc     string  `json:"doc"`
}

// Errors about parameters, returned wrapped; compare with errors.Is.
// ErrUnknownParam: a name the registry lacks. ErrOutOfBounds: a value outside
// its hard bounds or not finite. ErrInvalidParam: a bad definition.
var (
	ErrUnknownParam = errors.New("unknown parameter")
	ErrOutOfBounds  = errors.New("parameter out of bounds")
	ErrInvalidParam = errors.New("invalid parameter definition")
)

// Registry is a validated, read-only set of parameters. Build it with
// NewRegistry; it is safe for concurrent use.
type Registry struct {
	byName map[string]Param
	order  []string
}

// NewRegistry checks and indexes params. It returns an error wrapping
// ErrInvalidParam for an empty or repeated name, bounds that are not finite
// or out of order, a default outside the bounds, or a non-positive scale.
// It is safe for concurrent use.
func NewRegistry(params ...Param) (*Registry, error) {
	r := &Registry{byName: make(map[string]Param, len(params))}
	for _, p := range params {
		switch {
		case p.Name == "":
			return nil, fmt.Errorf("register parameter: empty name: %w", ErrInvalidParam)
		case !finite(p.Min) || !finite(p.Max) || !finite(p.Default) || !finite(p.Scale):
			return nil, fmt.Errorf("register %s: non-finite number: %w", p.Name, ErrInvalidParam)
		case p.Min > p.Max || p.Default < p.Min || p.Default > p.Max:
			return nil, fmt.Errorf("register %s: default %v outside [%v, %v]: %w", p.Name, p.Default, p.Min, p.Max, ErrInvalidParam)
		case p.Scale <= 0:
			return nil, fmt.Errorf("register %s: scale %v not positive: %w", p.Name, p.Scale, ErrInvalidParam)
		}
		if _, dup := r.byName[p.Name]; dup {
			return nil, fmt.Errorf("register %s: name repeated: %w", p.Name, ErrInvalidParam)
		}
		r.byName[p.Name] = p
		r.order = append(r.order, p.Name)
	}
	return r, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Lookup returns the parameter called name; ok is false when there is none.
// It is safe for concurrent use.
func (r *Registry) Lookup(name string) (Param, bool) {
	p, ok := r.byName[name]
	return p, ok
}

// Params returns every parameter in registration order. The slice is fresh;
// it is safe for concurrent use.
func (r *Registry) Params() []Param {
	out := make([]Param, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.byName[n])
	}
	return out
}

// Defaults returns every parameter's default by name. The map is fresh; it
// is safe for concurrent use.
func (r *Registry) Defaults() map[string]float64 {
	out := make(map[string]float64, len(r.order))
	for _, n := range r.order {
		out[n] = r.byName[n].Default
	}
	return out
}

// Validate checks stored values against the registry. It returns nil, or
// every problem joined: ErrUnknownParam for a name the registry lacks,
// ErrOutOfBounds for a value outside its bounds or not finite. It is safe
// for concurrent use.
func (r *Registry) Validate(values map[string]float64) error {
	var errs []error
	names := make([]string, 0, len(values))
	for n := range values {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		v := values[n]
		p, ok := r.byName[n]
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("%s: %w", n, ErrUnknownParam))
		case !finite(v) || v < p.Min || v > p.Max:
			errs = append(errs, fmt.Errorf("%s = %v outside [%v, %v]: %w", n, v, p.Min, p.Max, ErrOutOfBounds))
		}
	}
	return errors.Join(errs...)
}

// Resolve returns the full parameter set: the defaults, overridden by the
// stored values that Validate accepts (unknown names and out-of-bounds values
// are dropped; call Validate to report them). The map is fresh; it is safe
// for concurrent use.
func (r *Registry) Resolve(stored map[string]float64) map[string]float64 {
	out := r.Defaults()
	for n, v := range stored {
		if p, ok := r.byName[n]; ok && finite(v) && v >= p.Min && v <= p.Max {
			out[n] = v
		}
	}
	return out
}

// value returns the current value of name: params[name] when present, else
// the default.
func (r *Registry) value(params map[string]float64, name string) float64 {
	if v, ok := params[name]; ok {
		return v
	}
	return r.byName[name].Default
}
