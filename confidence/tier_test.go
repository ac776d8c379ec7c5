package confidence

import (
	"fmt"
	"testing"
	"time"
)

func TestTierOf(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		score float64
		want  Tier
	}{
		{1, TierCore}, {0.8, TierCore}, {0.7999, TierStrong}, {0.6, TierStrong}, {0.5999, TierModerate},
		{0.4, TierModerate}, {0.3999, TierTentative}, {0.2, TierTentative}, {0.1999, TierDeprecated}, {0, TierDeprecated},
	}
	for _, tt := range tests {
		if got := TierOf(tt.score, cfg); got != tt.want {
			t.Errorf("TierOf(%v) = %v, want %v", tt.score, got, tt.want)
		}
	}
}

func TestTier_Behaviour(t *testing.T) {
	tests := []struct {
		tier                                   Tier
		injectable, always, clearMatch, silent bool
	}{
		{TierCore, true, true, false, false},
		{TierStrong, true, false, false, false},
		{TierModerate, true, false, true, false},
		{TierTentative, false, false, false, true},
		{TierDeprecated, false, false, false, true},
		{Tier("bogus"), false, false, false, false},
	}
	for _, tt := range tests {
		if got := tt.tier.Injectable(); got != tt.injectable {
			t.Errorf("%s.Injectable() = %v, want %v", tt.tier, got, tt.injectable)
		}
		if got := tt.tier.AlwaysOnResonance(); got != tt.always {
			t.Errorf("%s.AlwaysOnResonance() = %v, want %v", tt.tier, got, tt.always)
		}
		if got := tt.tier.NeedsClearMatch(); got != tt.clearMatch {
			t.Errorf("%s.NeedsClearMatch() = %v, want %v", tt.tier, got, tt.clearMatch)
		}
		if got := tt.tier.Tracked(); got != tt.silent {
			t.Errorf("%s.Tracked() = %v, want %v", tt.tier, got, tt.silent)
		}
	}
	if got := len(AllTiers()); got != 5 {
		t.Errorf("AllTiers() has %d tiers, want 5", got)
	}
	for i, tier := range AllTiers() {
		if tier.Rank() != i || !tier.Valid() {
			t.Errorf("tier %s: rank %d valid %v, want rank %d", tier, tier.Rank(), tier.Valid(), i)
		}
	}
}

// TestTier_Transitions walks one lesson up through every tier with evidence
// and back down with failures, rejection and decay.
func TestTier_Transitions(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginImported, t0, "", cfg)
	if s.Tier != TierModerate {
		t.Fatalf("new imported lesson tier = %s (%.3f), want moderate", s.Tier, s.Composite)
	}
	seen := map[Tier]bool{s.Tier: true}
	at := t0
	for i := 0; i < 30 && s.Tier != TierCore; i++ {
		at = at.Add(time.Hour)
		sess := fmt.Sprintf("up-%d", i)
		s, _ = mustApply(t, s, Event{Kind: KindAppliedSuccess, At: at, Session: sess}, cfg)
		s, _ = mustApply(t, s, Event{Kind: KindObserved, At: at, Session: sess}, cfg)
		if i == 5 {
			s, _ = mustApply(t, s, Event{Kind: KindStrongApproved, At: at}, cfg)
		}
		seen[s.Tier] = true
	}
	if s.Tier != TierCore {
		t.Fatalf("after 30 successful sessions tier = %s (%.3f), want core", s.Tier, s.Composite)
	}
	s, _ = mustApply(t, s, Event{Kind: KindStrongRejected, At: at}, cfg)
	for i := 0; i < 60 && s.Tier != TierDeprecated; i++ {
		at = at.Add(time.Hour)
		s, _ = mustApply(t, s, Event{Kind: KindAppliedFailure, At: at}, cfg)
		s, _ = mustApply(t, s, Event{Kind: KindContradicted, At: at}, cfg)
		seen[s.Tier] = true
	}
	for _, tier := range AllTiers() {
		if !seen[tier] {
			t.Errorf("tier %s never reached; seen %v", tier, seen)
		}
	}
	if s.DeprecatedSince.IsZero() {
		t.Errorf("deprecated lesson has no DeprecatedSince")
	}
	if s.Lifecycle != Active {
		t.Errorf("deprecation must not archive at once: lifecycle %s", s.Lifecycle)
	}
}
