package storerow

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/route"
)

func TestBackfill(t *testing.T) {
	yes, no := true, false
	for _, c := range []struct {
		name         string
		prev         string
		prevHeeded   *bool
		o            kb.Outcome
		heeded       *bool
		want         string
		wantHeeded   *bool
		wantCensored bool
		wantChanged  bool
	}{
		{"first outcome", "", nil, kb.OutcomeSuccess, nil, "success", nil, false, true},
		{"same outcome", "success", nil, kb.OutcomeSuccess, nil, "success", nil, false, false},
		{"empty keeps", "failure", &no, "", nil, "failure", &no, false, false},
		{"new outcome", "success", nil, kb.OutcomeFailure, nil, "failure", nil, false, true},
		{"heeded censors", "success", nil, "", &yes, "success", &yes, true, true},
		{"heeded again", "success", &yes, "", &yes, "success", &yes, true, false},
		{"not heeded after all", "success", &yes, "", &no, "success", &no, false, true},
		{"heeded with no outcome", "", nil, "", &yes, "", &yes, true, true},
	} {
		got, h, censored, changed := Backfill(c.prev, c.prevHeeded, c.o, c.heeded)
		if got != c.want || (h == nil) != (c.wantHeeded == nil) || h != nil && *h != *c.wantHeeded ||
			censored != c.wantCensored || changed != c.wantChanged {
			t.Errorf("%s: %q %v censored=%v changed=%v; want %q %v %v %v", c.name, got, h, censored, changed,
				c.want, c.wantHeeded, c.wantCensored, c.wantChanged)
		}
		if c.heeded != nil && h == c.heeded {
			t.Errorf("%s: the heeded flag aliases the caller's", c.name)
		}
	}
}

func TestRouteState(t *testing.T) {
	if s := RouteState(`{"mode":"clarify","warmth":0.5}`); s == nil || s.Mode != route.Clarify || s.Warmth != 0.5 {
		t.Errorf("valid state: %+v", s)
	}
	if s := RouteState(`{"warmth":0.5}`); s == nil || s.Mode != "" {
		t.Errorf("a state with no mode: %+v", s)
	}
	for _, bad := range []string{`{"mode":"shout"}`, `not json`, ``} {
		if s := RouteState(bad); s != nil {
			t.Errorf("%q: %+v, want nil", bad, s)
		}
	}
}

func TestCalibrationPoint(t *testing.T) {
	// storage's partial index verdict_log_outcome is written with "= 0": the
	// condition must keep that form for SQLite.
	const want = `v.outcome IN ('success', 'failure') AND v.censored = 0 AND v.abstained = 0 AND v.valence IN ('affirm', 'caution')`
	if got := CalibrationPoint(func(c string) string { return c + " = 0" }); got != want {
		t.Errorf("got=%s\nwant %s", got, want)
	}
}
