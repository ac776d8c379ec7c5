package kb

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/route"
)

// MetaStore is the part of a store that keeps the knowledge base's settings
// and small records of its own (the meta table: keys and values, the
// values redacted as every stored text is).
type MetaStore interface {
	// Meta returns the value stored under key; ok is false when there is
	// none.
	Meta(ctx context.Context, key string) (value string, ok bool, err error)
	// SetMeta stores value under key, replacing what was there. It fails
	// with ErrReadOnly on a read-only store.
	SetMeta(ctx context.Context, key, value string) error
	// MetaPrefixed returns every key beginning with prefix and its value
	// (the comparison is of bytes: no pattern characters).
	MetaPrefixed(ctx context.Context, prefix string) (map[string]string, error)
	// SetMetaDefault stores value under key unless a value is already
	// there, and returns the value in force. On a read-only store it
	// stores nothing and returns the stored value, or value when there is
	// none.
	SetMetaDefault(ctx context.Context, key, value string) (string, error)
}

// Settings are the knowledge base's stored settings: the fused-score
// weights, the critic's parameters, the router's weights and the hesitation
// configuration, as Config takes them.
type Settings struct {
	Weights    Weights
	Appraise   appraise.Config
	Route      route.Weights
	Hesitation hesitation.Config
}

// LoadSettings reads the settings from the meta table, storing the
// documented defaults on first use; keys missing from a stored value keep
// their defaults. hesitationEnabled, when not nil, overrides whether
// hesitation is on (INNATE_HESITATION). The regulator changes the stored
// critic and router parameters; nothing else writes them.
func LoadSettings(ctx context.Context, m MetaStore, hesitationEnabled *bool) (Settings, error) {
	var s Settings
	var err error
	if s.Weights, err = loadWeights(ctx, m); err != nil {
		return Settings{}, err
	}
	if s.Appraise, s.Route, err = loadAppraiseParams(ctx, m); err != nil {
		return Settings{}, err
	}
	if s.Hesitation, err = loadHesitation(ctx, m, hesitationEnabled); err != nil {
		return Settings{}, err
	}
	return s, nil
}

// loadWeights reads the fused-score weights (meta key "weights").
func loadWeights(ctx context.Context, m MetaStore) (Weights, error) {
	def := DefaultWeights()
	b, err := json.Marshal(def)
	if err != nil {
		return Weights{}, fmt.Errorf("meta weights: %w", err)
	}
	v, err := m.SetMetaDefault(ctx, "weights", string(b))
	if err != nil {
		return Weights{}, err
	}
	w := def
	if err := json.Unmarshal([]byte(v), &w); err != nil {
		return Weights{}, fmt.Errorf("meta weights: %w", err)
	}
	if err := w.Validate(); err != nil {
		return Weights{}, fmt.Errorf("meta weights: %w", err)
	}
	return w, nil
}

// loadAppraiseParams reads the critic's parameters (meta key "appraise")
// and the router's weights (meta key "route"), each a JSON object of
// parameter name → value.
func loadAppraiseParams(ctx context.Context, m MetaStore) (appraise.Config, route.Weights, error) {
	ac := appraise.DefaultConfig()
	p, err := loadParams(ctx, m, "appraise", ac.Params())
	if err != nil {
		return appraise.Config{}, route.Weights{}, err
	}
	if ac, err = ac.WithParams(p); err == nil {
		err = ac.Validate()
	}
	if err != nil {
		return appraise.Config{}, route.Weights{}, fmt.Errorf("meta appraise: %w", err)
	}
	rw := route.DefaultWeights()
	p, err = loadParams(ctx, m, "route", rw.Params())
	if err != nil {
		return appraise.Config{}, route.Weights{}, err
	}
	if rw, err = rw.WithParams(p); err == nil {
		err = rw.Validate()
	}
	if err != nil {
		return appraise.Config{}, route.Weights{}, fmt.Errorf("meta route: %w", err)
	}
	return ac, rw, nil
}

// loadParams returns the parameter object stored under a meta key, storing
// defaults there when the key is unset.
func loadParams(ctx context.Context, m MetaStore, key string, defaults map[string]float64) (map[string]float64, error) {
	b, err := json.Marshal(defaults)
	if err != nil {
		return nil, err
	}
	v, err := m.SetMetaDefault(ctx, key, string(b))
	if err != nil {
		return nil, err
	}
	var p map[string]float64
	if err := json.Unmarshal([]byte(v), &p); err != nil {
		return nil, fmt.Errorf("meta %s: %w", key, err)
	}
	return p, nil
}

// loadHesitation reads the hesitation configuration (meta key
// "hesitation"); enabled, when not nil, overrides whether it is on.
func loadHesitation(ctx context.Context, m MetaStore, enabled *bool) (hesitation.Config, error) {
	def := hesitation.DefaultConfig()
	b, err := json.Marshal(def)
	if err != nil {
		return hesitation.Config{}, fmt.Errorf("meta hesitation: %w", err)
	}
	v, err := m.SetMetaDefault(ctx, "hesitation", string(b))
	if err != nil {
		return hesitation.Config{}, err
	}
	cfg := def
	if err := json.Unmarshal([]byte(v), &cfg); err != nil {
		return hesitation.Config{}, fmt.Errorf("meta hesitation: %w", err)
	}
	if enabled != nil {
		cfg.Enabled = *enabled
	}
	if err := cfg.Validate(); err != nil {
		return hesitation.Config{}, fmt.Errorf("meta hesitation: %w", err)
	}
	return cfg, nil
}
