// Package tuning runs the regulator (package regulate) against a store and
// applies the tuned parameter values to a running knowledge base.
//
// The regulator is the only code that changes tuned parameters (router
// weights, hesitation thresholds, appraise floors). It runs on
// `innate-mcp regulate` and, when due, in the background of a server; the
// tuned values live in the store's meta table under 'params' and every
// change is logged.
package tuning

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
)

// MetricWindow is how far back the regulator reads the logs: shorter than
// its evaluation window, so that judging a change sees only data from after
// it.
const MetricWindow = 24 * time.Hour

// Store is what the regulator needs of a store: its metrics and parameters,
// and whether it may write.
type Store interface {
	kb.RegulatorStore
	// ReadOnly reports whether the store was opened read-only.
	ReadOnly() bool
}

// Regulator bundles the parameter registry and the regulator's
// configuration. It holds no mutable state: it is safe for concurrent use.
type Regulator struct {
	reg *regulate.Registry
	cfg regulate.Config
}

// New returns the regulator over the default registry and configuration.
func New() (*Regulator, error) {
	reg, err := regulate.DefaultRegistry()
	if err != nil {
		return nil, err
	}
	return &Regulator{reg: reg, cfg: regulate.DefaultConfig(reg)}, nil
}

// pressures reads the logs of the last MetricWindow as pressures.
func (r *Regulator) pressures(ctx context.Context, s Store, now time.Time) ([]regulate.Pressure, error) {
	since := now.Add(-MetricWindow)
	hm, err := s.HesitationMetrics(ctx, since)
	if err != nil {
		return nil, err
	}
	ps := regulate.HesitationPressures(hm)
	rm, err := s.RoutingMetrics(ctx, since)
	if err != nil {
		return nil, err
	}
	am, err := s.AppraiseMetrics(ctx, since)
	if err != nil {
		return nil, err
	}
	ps = append(ps, regulate.RoutingPressures(rm)...)
	return append(ps, regulate.AppraisePressures(am)...), nil
}

// Once plans one regulation step at now and, unless dry, applies and logs
// it in s and retunes k with the result.
func (r *Regulator) Once(ctx context.Context, s Store, k *kb.KB, now time.Time, dry bool) (regulate.Result, error) {
	ps, err := r.pressures(ctx, s, now)
	if err != nil {
		return regulate.Result{}, err
	}
	plan := func(params map[string]float64, hist []regulate.Change) regulate.Result {
		return regulate.Plan(now, r.reg.Resolve(params), ps, hist, r.cfg)
	}
	if dry {
		params, err := s.Params(ctx)
		if err != nil {
			return regulate.Result{}, err
		}
		hist, err := s.RegulatorHistory(ctx)
		if err != nil {
			return regulate.Result{}, err
		}
		return plan(params, hist), nil
	}
	res, err := s.Regulate(ctx, plan)
	if err != nil {
		return res, err
	}
	return res, r.Retune(ctx, s, k)
}

// Retune applies the tuned parameter values stored in s to k.
func (r *Regulator) Retune(ctx context.Context, s Store, k *kb.KB) error {
	stored, err := s.Params(ctx)
	if err != nil {
		return err
	}
	params := r.reg.Resolve(stored)
	h := k.HesitationConfig()
	h.HedgeThreshold = int(math.Round(params[regulate.ParamHesitationHedge]))
	h.HoldThreshold = int(math.Round(params[regulate.ParamHesitationHold]))
	if h.HoldThreshold < h.HedgeThreshold {
		h.HoldThreshold = h.HedgeThreshold
	}
	if err := k.SetHesitationConfig(h); err != nil {
		return fmt.Errorf("retune hesitation: %w", err)
	}
	ac, err := k.AppraiseConfig().WithParams(params)
	if err == nil {
		err = k.SetAppraiseConfig(ac)
	}
	if err != nil {
		return fmt.Errorf("retune appraise: %w", err)
	}
	rw, err := k.RouteWeights().WithParams(params)
	if err == nil {
		err = k.SetRouteWeights(rw)
	}
	if err != nil {
		return fmt.Errorf("retune route: %w", err)
	}
	return nil
}

// Loop runs the regulator in the background of a server until ctx ends:
// tuned values are re-read every minute (another process may have changed
// them), and a regulation step runs whenever one is due (never on a
// read-only store). Failures are logged to log.
func (r *Regulator) Loop(ctx context.Context, s Store, k *kb.KB, log *slog.Logger) {
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		r.step(ctx, s, k, log)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// step is one turn of Loop: retune, then regulate when due.
func (r *Regulator) step(ctx context.Context, s Store, k *kb.KB, log *slog.Logger) {
	if err := r.Retune(ctx, s, k); err != nil && !errors.Is(err, context.Canceled) {
		log.Warn("retune", "err", err)
	}
	hist, err := s.RegulatorHistory(ctx)
	// A read-only store keeps the tuned values it has.
	if err != nil || s.ReadOnly() || time.Now().Before(regulate.NextDue(hist, r.cfg)) {
		return
	}
	res, err := r.Once(ctx, s, k, time.Now(), false)
	switch {
	case err != nil && !errors.Is(err, context.Canceled):
		log.Warn("regulate", "err", err)
	case res.Moved():
		for _, c := range res.Changes {
			log.Info("regulator", "kind", c.Kind, "param", c.Param, "before", c.Before, "after", c.After, "reason", c.Reason)
		}
	}
}

// Revert puts back, at now, the change to param that the regulator made at
// at (a person's decision: the dashboard's revert button). It logs a
// KindRevert entry restoring the change's before value, which also closes
// the change's evaluation, and retunes k. It refuses, writing nothing, a
// change that is not in the log, one already reverted, and one whose
// parameter has moved since (its current value is not the change's after
// value); such errors wrap ErrNotRevertible.
func (r *Regulator) Revert(ctx context.Context, s Store, k *kb.KB, param string, at, now time.Time, why string) (regulate.Change, error) {
	if s.ReadOnly() {
		return regulate.Change{}, fmt.Errorf("revert %s: %w", param, kb.ErrReadOnly)
	}
	var refused error
	var done regulate.Change
	plan := func(params map[string]float64, hist []regulate.Change) regulate.Result {
		var c *regulate.Change
		for i := range hist {
			h := &hist[i]
			if h.Kind == regulate.KindChange && h.Param == param && h.At.Equal(at) {
				c = h
			}
		}
		if c == nil {
			refused = fmt.Errorf("no change of %s at %s in the regulator's log: %w", param, at.Format(time.RFC3339Nano), ErrNotRevertible)
			return regulate.Result{}
		}
		for _, h := range hist {
			if h.Kind == regulate.KindRevert && h.Param == param && h.Ref.Equal(at) {
				refused = fmt.Errorf("the change of %s at %s was reverted already (%s): %w", param, at.Format(time.RFC3339), h.At.Format(time.RFC3339), ErrNotRevertible)
				return regulate.Result{}
			}
		}
		cur := r.reg.Resolve(params)[param]
		if math.Abs(cur-c.After) > 1e-9 {
			refused = fmt.Errorf("%s is %.4g now, not the %.4g that change set; it moved since, so reverting it would undo a later change: %w",
				param, cur, c.After, ErrNotRevertible)
			return regulate.Result{}
		}
		if why == "" {
			why = "by a person"
		}
		done = regulate.Change{Kind: regulate.KindRevert, Param: param, Before: cur, After: c.Before, Metric: c.Metric,
			MetricValue: c.MetricValue, Severity: c.Severity, At: now, Ref: c.At,
			Reason: fmt.Sprintf("revert %s %.4g→%.4g: %s", param, c.After, c.Before, why)}
		return regulate.Result{Changes: []regulate.Change{done}}
	}
	if _, err := s.Regulate(ctx, plan); err != nil {
		return regulate.Change{}, fmt.Errorf("revert %s: %w", param, err)
	}
	if refused != nil {
		return regulate.Change{}, refused
	}
	return done, r.Retune(ctx, s, k)
}

// ErrNotRevertible is wrapped by Revert's refusals.
var ErrNotRevertible = errors.New("not revertible")
