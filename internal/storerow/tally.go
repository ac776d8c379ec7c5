package storerow

import (
	"encoding/json"
	"fmt"

	"github.com/innate-mcp/innate-mcp/kb"
)

// The stats report's figures are sums over the logs. Pruning folds the sums
// of the rows it deletes into the pruned_tally table, one JSON tally per
// kind (kb.TallyRecall and the others, kb's tally types), and the stats add
// them to the sums of the rows still held, so that a figure over all time
// means the same before and after a prune. The same Add methods compute
// both, so the two cannot drift.

// Select runs, in a store's dialect, the query head + the store's
// condition (with its arguments) + tail, and calls fn with each row. Each
// store makes one from its condition (selectWhere); the queries of this
// package are valid in both dialects.
type Select func(head, tail string, fn func(scan Scan) error) error

// TallyReader returns the stored pruned tally of kind (JSON text); ok is
// false when nothing of that kind was pruned yet.
type TallyReader func(kind string) (stored string, ok bool, err error)

// TallyWriter stores the pruned tally of kind (JSON text).
type TallyWriter func(kind, stored string) error

// ReadTally decodes the pruned tally of kind into v, leaving v as it is
// when nothing of that kind was pruned yet.
func ReadTally(read TallyReader, kind string, v any) error {
	s, ok, err := read(kind)
	if err != nil {
		return fmt.Errorf("read pruned %s tally: %w", kind, err)
	}
	if !ok {
		return nil
	}
	if err := json.Unmarshal([]byte(s), v); err != nil {
		return fmt.Errorf("read pruned %s tally: %w", kind, err)
	}
	return nil
}

// AddTally merges add into the pruned tally of kind.
func AddTally[T any](read TallyReader, write TallyWriter, kind string, merge func(*T, T), add T) error {
	var t T
	if err := ReadTally(read, kind, &t); err != nil {
		return err
	}
	merge(&t, add)
	s, err := encode(t)
	if err != nil {
		return fmt.Errorf("encode pruned %s tally: %w", kind, err)
	}
	if err := write(kind, s); err != nil {
		return fmt.Errorf("write pruned %s tally: %w", kind, err)
	}
	return nil
}

// AddVerdicts adds the verdict_log rows sel selects to t.
func AddVerdicts(sel Select, t *kb.VerdictTally) error {
	err := sel(`SELECT abstained, directional, valence, confidence, coalesce(outcome, ''), censored
		FROM verdict_log WHERE `, ``, func(scan Scan) error {
		var abstained, censored bool
		var directional, valence, outcome string
		var conf float64
		if err := scan(&abstained, &directional, &valence, &conf, &outcome, &censored); err != nil {
			return err
		}
		t.Add(abstained, directional, valence, conf, outcome, censored)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read verdict log: %w", err)
	}
	return nil
}

// AddModes adds the routing_log rows sel selects to t.
func AddModes(sel Select, t kb.RoutingTally) error {
	err := sel(`SELECT mode, count(*) FROM routing_log WHERE `, ` GROUP BY mode`, func(scan Scan) error {
		var mode string
		var n int
		if err := scan(&mode, &n); err != nil {
			return err
		}
		t[mode] += n
		return nil
	})
	if err != nil {
		return fmt.Errorf("read routing log: %w", err)
	}
	return nil
}

// AddHesitations adds the hesitation_log rows sel selects to t.
func AddHesitations(sel Select, t *kb.HesitationTally) error {
	err := sel(`SELECT confident, held, signals, coalesce(review, '') FROM hesitation_log WHERE `, ``, func(scan Scan) error {
		var confident, held bool
		var signals, review string
		if err := scan(&confident, &held, &signals, &review); err != nil {
			return err
		}
		t.Add(confident, held, signals, review)
		return nil
	})
	if err != nil {
		return fmt.Errorf("read hesitation log: %w", err)
	}
	return nil
}

// FoldLogs adds the verdict, routing and hesitation log rows sel selects
// (those of the traces a prune deletes) to their pruned tallies.
func FoldLogs(sel Select, read TallyReader, write TallyWriter) error {
	var vt kb.VerdictTally
	if err := AddVerdicts(sel, &vt); err != nil {
		return err
	}
	if vt.Verdicts > 0 {
		if err := AddTally(read, write, kb.TallyVerdicts, (*kb.VerdictTally).Merge, vt); err != nil {
			return err
		}
	}
	mt := kb.RoutingTally{}
	if err := AddModes(sel, mt); err != nil {
		return err
	}
	if len(mt) > 0 {
		if err := AddTally(read, write, kb.TallyRouting, (*kb.RoutingTally).Merge, mt); err != nil {
			return err
		}
	}
	var ht kb.HesitationTally
	if err := AddHesitations(sel, &ht); err != nil {
		return err
	}
	if ht.Calls > 0 {
		if err := AddTally(read, write, kb.TallyHesitation, (*kb.HesitationTally).Merge, ht); err != nil {
			return err
		}
	}
	return nil
}

// Usage reads one row of (lesson id, content, times selected).
func Usage(scan Scan) (kb.Usage, error) {
	var u kb.Usage
	err := scan(&u.LessonID, &u.Content, &u.Count)
	return u, err
}

// Contradiction reads one row of (lesson a, lesson b, resolved).
func Contradiction(scan Scan) (kb.Contradiction, error) {
	var c kb.Contradiction
	err := scan(&c.A, &c.B, &c.Resolved)
	return c, err
}
