package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/regulate"
)

// The regulator is the only code that changes tuned parameters (router
// weights, hesitation thresholds, appraise floors). It runs on
// `innate-mcp regulate` and, when due, in the background of a server; the
// tuned values live in meta under 'params' and every change is logged.

// metricWindow is how far back the regulator reads the logs: shorter than
// its evaluation window, so that judging a change sees only data from after it.
const metricWindow = 24 * time.Hour

// regulator bundles the registry and configuration.
type regulator struct {
	reg *regulate.Registry
	cfg regulate.Config
}

func newRegulator() (*regulator, error) {
	reg, err := regulate.DefaultRegistry()
	if err != nil {
		return nil, err
	}
	return &regulator{reg: reg, cfg: regulate.DefaultConfig(reg)}, nil
}

// pressures reads the logs of the last metricWindow as pressures.
func (r *regulator) pressures(ctx context.Context, a *app, now time.Time) ([]regulate.Pressure, error) {
	since := now.Add(-metricWindow)
	hm, err := a.db.HesitationMetrics(ctx, since)
	if err != nil {
		return nil, err
	}
	ps := regulate.HesitationPressures(hm)
	more, err := extraPressures(ctx, a, since)
	if err != nil {
		return nil, err
	}
	return append(ps, more...), nil
}

// once plans (and unless dry, applies and logs) one regulation step.
func (r *regulator) once(ctx context.Context, a *app, now time.Time, dry bool) (regulate.Result, error) {
	ps, err := r.pressures(ctx, a, now)
	if err != nil {
		return regulate.Result{}, err
	}
	plan := func(params map[string]float64, hist []regulate.Change) regulate.Result {
		return regulate.Plan(now, r.reg.Resolve(params), ps, hist, r.cfg)
	}
	if dry {
		params, err := a.db.Params(ctx)
		if err != nil {
			return regulate.Result{}, err
		}
		hist, err := a.db.RegulatorHistory(ctx)
		if err != nil {
			return regulate.Result{}, err
		}
		return plan(params, hist), nil
	}
	res, err := a.db.Regulate(ctx, plan)
	if err != nil {
		return res, err
	}
	return res, r.retune(ctx, a)
}

// retune applies the tuned parameter values to the running knowledge base.
func (r *regulator) retune(ctx context.Context, a *app) error {
	stored, err := a.db.Params(ctx)
	if err != nil {
		return err
	}
	params := r.reg.Resolve(stored)
	h := a.kb.HesitationConfig()
	h.HedgeThreshold = int(math.Round(params[regulate.ParamHesitationHedge]))
	h.HoldThreshold = int(math.Round(params[regulate.ParamHesitationHold]))
	if h.HoldThreshold < h.HedgeThreshold {
		h.HoldThreshold = h.HedgeThreshold
	}
	if err := a.kb.SetHesitationConfig(h); err != nil {
		return fmt.Errorf("retune hesitation: %w", err)
	}
	return retuneExtra(a, params)
}

// loop runs the regulator in the background of a server until ctx ends:
// tuned values are re-read every minute (another process may have changed
// them), and a regulation step runs whenever one is due (never on a
// read-only database).
func (r *regulator) loop(ctx context.Context, a *app, log *slog.Logger) {
	tick := time.NewTicker(time.Minute)
	defer tick.Stop()
	for {
		if err := r.retune(ctx, a); err != nil && !errors.Is(err, context.Canceled) {
			log.Warn("retune", "err", err)
		}
		hist, err := a.db.RegulatorHistory(ctx)
		// A read-only database keeps the tuned values it has.
		if err == nil && !a.db.ReadOnly() && !time.Now().Before(regulate.NextDue(hist, r.cfg)) {
			res, err := r.once(ctx, a, time.Now(), false)
			switch {
			case err != nil && !errors.Is(err, context.Canceled):
				log.Warn("regulate", "err", err)
			case res.Moved():
				for _, c := range res.Changes {
					log.Info("regulator", "kind", c.Kind, "param", c.Param, "before", c.Before, "after", c.After, "reason", c.Reason)
				}
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (m *Main) runRegulate(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var dry bool
	fs := newFlagSet("regulate", g, stderr, "[--dry-run]")
	fs.BoolVar(&dry, "dry-run", false, "show what the regulator would change, change nothing")
	if err := fs.Parse(args); err != nil {
		return err
	}
	acc := writeAccess
	if dry {
		acc = readAccess
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), acc)
	if err != nil {
		return err
	}
	defer a.close()
	r, err := newRegulator()
	if err != nil {
		return err
	}
	res, err := r.once(ctx, a, time.Now().UTC(), dry)
	if err != nil {
		return err
	}
	out := struct {
		DryRun bool `json:"dry_run"`
		regulate.Result
	}{dry, res}
	if out.Changes == nil {
		out.Changes = []regulate.Change{}
	}
	return writeJSON(stdout, out)
}

// regulatorEnabled reports whether the server runs the regulator in the
// background (INNATE_REGULATE=off switches it off).
func regulatorEnabled(getenv func(string) string) bool {
	switch strings.ToLower(getenv("INNATE_REGULATE")) {
	case "off", "0", "false", "no":
		return false
	}
	return true
}

// extraPressures reads the routing and appraise logs as pressures.
func extraPressures(ctx context.Context, a *app, since time.Time) ([]regulate.Pressure, error) {
	rm, err := a.db.RoutingMetrics(ctx, since)
	if err != nil {
		return nil, err
	}
	am, err := a.db.AppraiseMetrics(ctx, since)
	if err != nil {
		return nil, err
	}
	return append(regulate.RoutingPressures(rm), regulate.AppraisePressures(am)...), nil
}

// retuneExtra applies the router's and appraise's tuned parameters.
func retuneExtra(a *app, params map[string]float64) error {
	ac, err := a.kb.AppraiseConfig().WithParams(params)
	if err == nil {
		err = a.kb.SetAppraiseConfig(ac)
	}
	if err != nil {
		return fmt.Errorf("retune appraise: %w", err)
	}
	rw, err := a.kb.RouteWeights().WithParams(params)
	if err == nil {
		err = a.kb.SetRouteWeights(rw)
	}
	if err != nil {
		return fmt.Errorf("retune route: %w", err)
	}
	return nil
}
