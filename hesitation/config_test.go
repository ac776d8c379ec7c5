package hesitation

import (
	"errors"
	"strings"
	"testing"
)

func TestConfig_Validate(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	tests := []struct {
		name  string
		edit  func(*Config)
		field string
	}{
		{"lower negative", func(c *Config) { c.HedgeThreshold = -1 }, "lower"},
		{"upper below lower", func(c *Config) { c.HoldThreshold = 10 }, "upper"},
		{"upper over 100", func(c *Config) { c.HoldThreshold = 101 }, "upper"},
		{"no draft size", func(c *Config) { c.MaxDraftBytes = 0 }, "max_draft_bytes"},
		{"no long reply", func(c *Config) { c.LongReplyRunes = 0 }, "long_reply_runes"},
		{"no conclusions", func(c *Config) { c.MinConclusions = 0 }, "min_conclusions"},
		{"no saturation", func(c *Config) { c.SpecificSaturation = 0 }, "specific_saturation"},
		{"no half life", func(c *Config) { c.PatternHalfLife = 0 }, "pattern_half_life"},
		{"coverage zero", func(c *Config) { c.PatternCoverage = 0 }, "pattern_coverage"},
		{"floor one", func(c *Config) { c.PatternFloor = 1 }, "pattern_floor"},
		{"negative weight", func(c *Config) { c.Weights.NoHedge = -1 }, "weights"},
	}
	for _, tt := range tests {
		c := DefaultConfig()
		tt.edit(&c)
		err := c.Validate()
		if !errors.Is(err, ErrInvalidConfig) || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: err=%v, want ErrInvalidConfig naming %s", tt.name, err, tt.field)
		}
		if _, err := Check("ok", nil, Situation{}, nil, c); !errors.Is(err, ErrInvalidConfig) {
			t.Errorf("%s: Check err=%v, want ErrInvalidConfig", tt.name, err)
		}
	}
}

func TestCheck_Disabled(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Enabled = false
	draft := "Clearly fixed; all tests pass in v1.2.3. Therefore done. Thus shipped. Hence merged."
	res := mustCheck(t, draft, []Action{ActionReply, ActionCommit, ActionRecordLesson}, Situation{}, nil, cfg)
	if res.Score != 0 || !res.Confident || len(res.Signals) != 0 || res.Reflection != "" {
		t.Errorf("disabled: %+v, want score 0, confident, no signals", res)
	}
	for _, st := range res.Plan {
		if st.Behaviour != Proceed {
			t.Errorf("disabled: %s -> %s, want proceed", st.Action, st.Behaviour)
		}
	}
	cfg.Enabled = true
	if on := mustCheck(t, draft, []Action{ActionCommit}, Situation{}, nil, cfg); on.Score < cfg.HedgeThreshold {
		t.Errorf("enabled score=%d, want >= %d (the draft is not harmless)", on.Score, cfg.HedgeThreshold)
	}
}

func TestCheck_DraftTooLarge(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxDraftBytes = 100
	if _, err := Check(strings.Repeat("a", 100), nil, Situation{}, nil, cfg); err != nil {
		t.Errorf("draft at the limit: %v", err)
	}
	_, err := Check(strings.Repeat("a", 101), nil, Situation{}, nil, cfg)
	if !errors.Is(err, ErrDraftTooLarge) || !strings.Contains(err.Error(), "101") {
		t.Errorf("err=%v, want ErrDraftTooLarge with the size", err)
	}
}

func TestCheck_ScoreCapped(t *testing.T) {
	cfg := DefaultConfig()
	draft := "Clearly fixed and all tests pass in v1.2.3 with --force, 30ms, 2024-01-01. As an AI I cannot verify. Therefore done. Thus shipped. Hence merged. " + strings.Repeat("The handler writes the response. ", 10)
	ps := []Pattern{{ID: "p", Keywords: []string{"--force", "shipped"}, Strength: 1}}
	res := mustCheck(t, draft, []Action{ActionReply}, Situation{Query: "see the attached screenshot"}, ps, cfg)
	if res.Score != 100 {
		t.Errorf("score=%d, want capped at 100 (signals %+v)", res.Score, res.Signals)
	}
	if res.Reflection == "" || !strings.HasSuffix(res.Reflection, ".") || strings.Count(res.Reflection, ". ") > 0 {
		t.Errorf("reflection %q, want one sentence", res.Reflection)
	}
	for i := 1; i < len(res.Signals); i++ {
		if res.Signals[i].Weight > res.Signals[i-1].Weight {
			t.Errorf("signals not ordered by weight: %+v", res.Signals)
		}
	}
}
