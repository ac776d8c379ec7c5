package kb

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/innate-mcp/innate-mcp/route"
)

// validateMisroute checks record's misroute kind ("" is none).
func validateMisroute(kind string) error {
	if kind == "" {
		return nil
	}
	if _, err := route.ParseMisroute(kind); err != nil {
		return inputErrorf("misroute", "is %q; use missed_clarify, missed_gather, over_engagement or under_engagement", kind)
	}
	return nil
}

// backfillAppraisal applies record's feedback on an appraise trace: the
// outcome and heeding of its verdict (a heeded verdict is censored: its
// outcome no longer tests it) and misroute feedback on its routing
// decision. For other traces it refuses verdict_heeded and misroute.
func (k *KB) backfillAppraisal(ctx context.Context, tx Tx, req RecordRequest, t Trace, now time.Time, res *RecordResult) error {
	if t.Tool != "appraise" {
		if req.VerdictHeeded != nil || req.Misroute != "" {
			return inputErrorf("trace_id", "%q is a %s trace: verdict_heeded and misroute apply only to a trace that appraise returned", t.ID, t.Tool)
		}
		return nil
	}
	if t.Outcome != "" || req.VerdictHeeded != nil {
		err := tx.SetVerdictOutcome(ctx, t.ID, t.Outcome, req.VerdictHeeded, now)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		if err == nil {
			what := "verdict log"
			if t.Outcome != "" {
				what += " outcome " + string(t.Outcome)
			}
			if h := req.VerdictHeeded; h != nil {
				if *h {
					what += "; heeded: censored, left out of calibration"
				} else {
					what += "; not heeded"
				}
			}
			res.Changes = append(res.Changes, Change{What: what})
		}
	}
	if req.Misroute != "" {
		kind, _ := route.ParseMisroute(req.Misroute) // validated
		err := tx.SetMisroute(ctx, t.ID, kind, now)
		if errors.Is(err, ErrNotFound) {
			return inputErrorf("trace_id", "%q has no routing decision", t.ID)
		}
		if err != nil {
			return err
		}
		res.Changes = append(res.Changes, Change{What: fmt.Sprintf("routing log: misroute %s (should have been %s)", kind, kind.Expected())})
	}
	return nil
}
