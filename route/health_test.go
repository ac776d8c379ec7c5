package route

import (
	"math"
	"testing"
)

func TestRange_Classify(t *testing.T) {
	r := HealthyRanges()
	cases := []struct {
		mode  Mode
		share float64
		want  Status
	}{
		{Respond, 0.60, StatusOK},
		{Respond, 0.80, StatusHigh},
		{Respond, 0.90, StatusRedHigh},
		{Respond, 0.45, StatusLow},
		{Respond, 0.30, StatusRedLow},
		{Clarify, 0.10, StatusOK},
		{Clarify, 0.35, StatusRedHigh},
		{Clarify, 0.01, StatusRedLow},
		{Gather, 0.01, StatusRedLow},
		{Gather, 0.30, StatusRedHigh},
		{Acknowledge, 0.005, StatusRedLow},
		{Acknowledge, 0.25, StatusRedHigh},
		{Ignore, 0.0, StatusOK},
		{Ignore, 0.03, StatusHigh},
		{Ignore, 0.06, StatusRedHigh},
	}
	for _, c := range cases {
		if got := r[c.mode].Classify(c.share); got != c.want {
			t.Errorf("%s share %v: %s, want %s", c.mode, c.share, got, c.want)
		}
	}
}

func TestCheckDistribution(t *testing.T) {
	if got := CheckDistribution(nil); got != nil {
		t.Errorf("CheckDistribution(nil) = %v, want nil", got)
	}
	// 90% respond: overconfident; nothing else asks or gathers.
	h := CheckDistribution(map[Mode]int{Respond: 90, Acknowledge: 10, "bogus": 50})
	if len(h) != len(Modes()) {
		t.Fatalf("got %d entries, want %d", len(h), len(Modes()))
	}
	want := map[Mode]Status{Respond: StatusRedHigh, Clarify: StatusRedLow, Gather: StatusRedLow, Acknowledge: StatusOK, Ignore: StatusOK}
	sum := 0.0
	for i, m := range h {
		if m.Mode != Modes()[i] {
			t.Errorf("entry %d is %s, want %s", i, m.Mode, Modes()[i])
		}
		if m.Status != want[m.Mode] {
			t.Errorf("%s: %s (share %v), want %s", m.Mode, m.Status, m.Share, want[m.Mode])
		}
		sum += m.Share
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Errorf("shares sum to %v", sum)
	}
	// A healthy mix raises no flag.
	for _, m := range CheckDistribution(map[Mode]int{Respond: 65, Clarify: 14, Gather: 10, Acknowledge: 10, Ignore: 1}) {
		if m.Status != StatusOK {
			t.Errorf("healthy mix: %s is %s", m.Mode, m.Status)
		}
	}
}
