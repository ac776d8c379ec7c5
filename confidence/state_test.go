package confidence

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"
)

// TestState_JSONRoundTrip: a State stored as JSON and read back is the same
// State and behaves the same afterwards.
func TestState_JSONRoundTrip(t *testing.T) {
	cfg := DefaultConfig()
	s := New(OriginAgentInferred, t0, "create", cfg)
	kinds := []Kind{KindAppliedSuccess, KindObserved, KindAppliedFailure, KindUserApproved, KindContradicted, KindAppraised}
	for i := range 40 {
		e := Event{Kind: kinds[i%len(kinds)], At: t0.Add(time.Duration(i) * 37 * time.Hour), Session: fmt.Sprint("s", i%7)}
		s, _ = mustApply(t, s, e, cfg)
	}
	s, _ = mustApply(t, s, Event{Kind: KindArchived, At: t0.Add(80 * 24 * time.Hour)}, cfg)
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s, back) {
		t.Fatalf("round trip changed the state:\n %+v\n %+v", s, back)
	}
	e := Event{Kind: KindRestored, At: t0.Add(90 * 24 * time.Hour)}
	a, ca := mustApply(t, s, e, cfg)
	b, cb := mustApply(t, back, e, cfg)
	if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(ca, cb) {
		t.Fatalf("restored states differ after round trip")
	}
}

func TestNew(t *testing.T) {
	cfg := DefaultConfig()
	tests := []struct {
		origin    Origin
		lifecycle Lifecycle
		tier      Tier
	}{
		{OriginUserStated, Active, TierModerate},
		{OriginImported, Active, TierModerate},
		{OriginAgentInferred, Pending, TierModerate},
		{"bogus", Pending, TierModerate},
	}
	for _, tt := range tests {
		s := New(tt.origin, t0, "s", cfg)
		if s.Lifecycle != tt.lifecycle || s.Tier != tt.tier || s.Observations != 1 || !s.DecayAnchor.Equal(t0) {
			t.Errorf("New(%s) = %+v", tt.origin, s)
		}
		if s.Composite != Composite(s, cfg) {
			t.Errorf("New(%s) cached composite %v, want %v", tt.origin, s.Composite, Composite(s, cfg))
		}
	}
	if u, i := New(OriginUserStated, t0, "", cfg), New(OriginImported, t0, "", cfg); u.Composite <= i.Composite {
		t.Errorf("user-stated %v should start above imported %v", u.Composite, i.Composite)
	}
}
