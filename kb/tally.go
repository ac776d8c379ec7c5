package kb

import (
	"encoding/json"

	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// The stats report's figures are sums over a store's logs. When a store
// prunes old traces (see Retention) it folds the sums of the rows it
// deletes into a pruned tally, one JSON document per TallyKind, and the
// stats add them to the sums of the rows still held, so that a figure over
// all time means the same before and after a prune. The tallies below are
// those sums; every store computes them with the same Add and Merge
// methods, and keeps them as their JSON encoding, so that neither the
// stores nor the two ways of summing (over rows, over tallies) can drift.

// Kinds of pruned tally, as the stores key them.
const (
	TallyRecall     = "recall"
	TallyVerdicts   = "verdicts"
	TallyRouting    = "routing"
	TallyHesitation = "hesitation"
)

// RecallTally counts recall calls; a store keeps the selections per
// lesson beside it.
type RecallTally struct {
	Calls      int `json:"calls"`
	Empty      int `json:"empty"`
	Selections int `json:"selections"`
}

// Merge adds o to t.
func (t *RecallTally) Merge(o RecallTally) {
	t.Calls += o.Calls
	t.Empty += o.Empty
	t.Selections += o.Selections
}

// CalibrationBins is the number of confidence bins of AppraiseStats.ECE.
const CalibrationBins = 10

// VerdictTally holds the sums behind AppraiseStats.
type VerdictTally struct {
	Verdicts         int                      `json:"verdicts"`
	Abstained        int                      `json:"abstained"`
	KnownAbstentions int                      `json:"known_abstentions"`
	Justified        int                      `json:"justified"`
	Calibrated       int                      `json:"calibrated"`
	BinN             [CalibrationBins]int     `json:"bin_n"`
	BinConf          [CalibrationBins]float64 `json:"bin_conf"`
	BinHit           [CalibrationBins]float64 `json:"bin_hit"`
	Brier            float64                  `json:"brier"` // sum of squared errors
}

// Add counts one verdict-log row: whether it abstained, its directional
// call and valence, its confidence, its outcome ("" when none) and
// whether the outcome is censored.
func (t *VerdictTally) Add(abstained bool, directional, valence string, conf float64, outcome string, censored bool) {
	t.Verdicts++
	known := !censored && (outcome == "success" || outcome == "failure")
	hit := func(v string) bool {
		return (v == "affirm" && outcome == "success") || (v == "caution" && outcome == "failure")
	}
	if abstained {
		t.Abstained++
		if known {
			t.KnownAbstentions++
			if !hit(directional) {
				t.Justified++
			}
		}
		return
	}
	if !known || (valence != "affirm" && valence != "caution") {
		return
	}
	h := 0.0
	if hit(valence) {
		h = 1
	}
	b := min(max(int(conf*CalibrationBins), 0), CalibrationBins-1)
	t.BinN[b]++
	t.BinConf[b] += conf
	t.BinHit[b] += h
	t.Brier += (conf - h) * (conf - h)
	t.Calibrated++
}

// Merge adds o to t.
func (t *VerdictTally) Merge(o VerdictTally) {
	t.Verdicts += o.Verdicts
	t.Abstained += o.Abstained
	t.KnownAbstentions += o.KnownAbstentions
	t.Justified += o.Justified
	t.Calibrated += o.Calibrated
	for i := range CalibrationBins {
		t.BinN[i] += o.BinN[i]
		t.BinConf[i] += o.BinConf[i]
		t.BinHit[i] += o.BinHit[i]
	}
	t.Brier += o.Brier
}

// Stats computes the figures of AppraiseStats from the sums.
func (t *VerdictTally) Stats() AppraiseStats {
	st := AppraiseStats{Verdicts: t.Verdicts, Abstained: t.Abstained, KnownAbstentions: t.KnownAbstentions,
		Justified: t.Justified, Calibrated: t.Calibrated, AbstentionPrecision: -1, ECE: -1, Brier: -1}
	if st.Verdicts > 0 {
		st.AbstainRate = float64(st.Abstained) / float64(st.Verdicts)
	}
	if st.KnownAbstentions > 0 {
		st.AbstentionPrecision = float64(st.Justified) / float64(st.KnownAbstentions)
	}
	if st.Calibrated > 0 {
		st.Brier = t.Brier / float64(st.Calibrated)
		st.ECE = 0
		for i := range CalibrationBins {
			if n := t.BinN[i]; n > 0 {
				gap := t.BinConf[i]/float64(n) - t.BinHit[i]/float64(n)
				if gap < 0 {
					gap = -gap
				}
				st.ECE += float64(n) / float64(st.Calibrated) * gap
			}
		}
	}
	return st
}

// RoutingTally counts routing decisions by mode.
type RoutingTally map[string]int

// Merge adds o to t, making t when it is nil.
func (t *RoutingTally) Merge(o RoutingTally) {
	if *t == nil {
		*t = RoutingTally{}
	}
	for k, v := range o {
		(*t)[k] += v
	}
}

// HesitationTally holds the counts behind HesitationStats.
type HesitationTally struct {
	Calls     int            `json:"calls"`
	Triggered int            `json:"triggered"`
	Held      int            `json:"held"`
	Confirmed int            `json:"confirmed"`
	Rejected  int            `json:"rejected"`
	Signals   map[string]int `json:"signals"`
}

// Add counts one hesitation-log row: whether the call was confident,
// whether it held an action, its signals as logged (JSON; signals that do
// not decode count none) and its review ("" when not reviewed).
func (t *HesitationTally) Add(confident, held bool, signals, review string) {
	if t.Signals == nil {
		t.Signals = map[string]int{}
	}
	t.Calls++
	if !confident {
		t.Triggered++
	}
	if held {
		t.Held++
	}
	switch review {
	case "confirmed":
		t.Confirmed++
	case "rejected":
		t.Rejected++
	}
	var sigs []hesitation.Signal
	if json.Unmarshal([]byte(signals), &sigs) == nil {
		seen := map[string]bool{}
		for _, s := range sigs {
			if !seen[string(s.Type)] {
				seen[string(s.Type)] = true
				t.Signals[string(s.Type)]++
			}
		}
	}
}

// Merge adds o to t.
func (t *HesitationTally) Merge(o HesitationTally) {
	t.Calls += o.Calls
	t.Triggered += o.Triggered
	t.Held += o.Held
	t.Confirmed += o.Confirmed
	t.Rejected += o.Rejected
	if t.Signals == nil {
		t.Signals = map[string]int{}
	}
	for k, v := range o.Signals {
		t.Signals[k] += v
	}
}

// Stats computes the figures of HesitationStats from the counts, with the
// number of error patterns the store holds.
func (t *HesitationTally) Stats(patterns int) HesitationStats {
	st := HesitationStats{Calls: t.Calls, Triggered: t.Triggered, Held: t.Held, Confirmed: t.Confirmed,
		Rejected: t.Rejected, Signals: t.Signals, Patterns: patterns}
	if st.Signals == nil {
		st.Signals = map[string]int{}
	}
	if st.Calls > 0 {
		st.TriggerRate = float64(st.Triggered) / float64(st.Calls)
	}
	return st
}

// Stats computes the figures of RecallStats from the counts and the top
// lessons by selections (LessonID, Content and Count set, largest first):
// their share of the selections, and their content clipped to a line.
func (t RecallTally) Stats(top []Usage) RecallStats {
	st := RecallStats{Calls: t.Calls, Empty: t.Empty, Selections: t.Selections}
	if st.Calls > 0 {
		st.EmptyRate = float64(st.Empty) / float64(st.Calls)
	}
	for _, u := range top {
		u.Content = clip.Line(u.Content, 80)
		if st.Selections > 0 {
			u.Share = float64(u.Count) / float64(st.Selections)
		}
		st.Top = append(st.Top, u)
	}
	return st
}
