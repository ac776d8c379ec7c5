package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/innate-mcp/innate-mcp/hesitation"
)

// The stats report's figures are sums over the logs. Pruning folds the sums
// of the rows it deletes into the pruned_tally table, one JSON tally per
// kind below, and the stats add them to the sums of the rows still held, so
// that a figure over all time means the same before and after a prune. The
// same add methods compute both, so the two cannot drift.

// Kinds of pruned_tally rows.
const (
	tallyRecall     = "recall"
	tallyVerdicts   = "verdicts"
	tallyRouting    = "routing"
	tallyHesitation = "hesitation"
)

// recallTally counts recall calls; the selections per lesson are kept in
// pruned_selections.
type recallTally struct {
	Calls      int `json:"calls"`
	Empty      int `json:"empty"`
	Selections int `json:"selections"`
}

func (t *recallTally) merge(o recallTally) {
	t.Calls += o.Calls
	t.Empty += o.Empty
	t.Selections += o.Selections
}

// calibrationBins is the number of confidence bins of the ECE.
const calibrationBins = 10

// verdictTally holds the sums behind AppraiseStats.
type verdictTally struct {
	Verdicts         int                      `json:"verdicts"`
	Abstained        int                      `json:"abstained"`
	KnownAbstentions int                      `json:"known_abstentions"`
	Justified        int                      `json:"justified"`
	Calibrated       int                      `json:"calibrated"`
	BinN             [calibrationBins]int     `json:"bin_n"`
	BinConf          [calibrationBins]float64 `json:"bin_conf"`
	BinHit           [calibrationBins]float64 `json:"bin_hit"`
	Brier            float64                  `json:"brier"` // sum of squared errors
}

// add counts one verdict_log row.
func (t *verdictTally) add(abstained bool, directional, valence string, conf float64, outcome string, censored bool) {
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
	b := min(max(int(conf*calibrationBins), 0), calibrationBins-1)
	t.BinN[b]++
	t.BinConf[b] += conf
	t.BinHit[b] += h
	t.Brier += (conf - h) * (conf - h)
	t.Calibrated++
}

func (t *verdictTally) merge(o verdictTally) {
	t.Verdicts += o.Verdicts
	t.Abstained += o.Abstained
	t.KnownAbstentions += o.KnownAbstentions
	t.Justified += o.Justified
	t.Calibrated += o.Calibrated
	for i := range calibrationBins {
		t.BinN[i] += o.BinN[i]
		t.BinConf[i] += o.BinConf[i]
		t.BinHit[i] += o.BinHit[i]
	}
	t.Brier += o.Brier
}

// stats computes the figures of AppraiseStats from the sums.
func (t *verdictTally) stats() AppraiseStats {
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
		for i := range calibrationBins {
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

// routingTally counts routing decisions by mode.
type routingTally map[string]int

func (t *routingTally) merge(o routingTally) {
	if *t == nil {
		*t = routingTally{}
	}
	for k, v := range o {
		(*t)[k] += v
	}
}

// hesitationTally holds the counts behind HesitationStats.
type hesitationTally struct {
	Calls     int            `json:"calls"`
	Triggered int            `json:"triggered"`
	Held      int            `json:"held"`
	Confirmed int            `json:"confirmed"`
	Rejected  int            `json:"rejected"`
	Signals   map[string]int `json:"signals"`
}

// add counts one hesitation_log row.
func (t *hesitationTally) add(confident, held bool, signals string, review sql.NullString) {
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
	switch review.String {
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

func (t *hesitationTally) merge(o hesitationTally) {
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

// readTally decodes the pruned tally of a kind into v, leaving v as it is
// when nothing of that kind was pruned yet.
func readTally(ctx context.Context, q queryer, kind string, v any) error {
	var s string
	err := q.QueryRowContext(ctx, `SELECT tally FROM pruned_tally WHERE kind = ?`, kind).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read pruned %s tally: %w", kind, err)
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("read pruned %s tally: %w", kind, err)
	}
	return nil
}

// addTally merges add into the pruned tally of a kind.
func addTally[T any](ctx context.Context, tx *redactTx, kind string, merge func(*T, T), add T) error {
	var t T
	if err := readTally(ctx, tx, kind, &t); err != nil {
		return err
	}
	merge(&t, add)
	return writeTally(ctx, tx, kind, t)
}

// writeTally stores the pruned tally of a kind.
func writeTally(ctx context.Context, tx *redactTx, kind string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode pruned %s tally: %w", kind, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO pruned_tally (kind, tally) VALUES (?, ?)
		ON CONFLICT (kind) DO UPDATE SET tally = excluded.tally`, kind, string(b)); err != nil {
		return fmt.Errorf("write pruned %s tally: %w", kind, err)
	}
	return nil
}
