package regulate

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// Kind says what a Change does. A plain value, safe for concurrent use.
type Kind string

// The change kinds (constants).
const (
	// KindChange moves a parameter one step to relieve a pressure.
	KindChange Kind = "change"
	// KindRevert puts back a change whose metric did not improve.
	KindRevert Kind = "revert"
	// KindKeep records that a change's metric improved; it moves nothing
	// (Before == After) and closes the change's evaluation.
	KindKeep Kind = "keep"
)

// Change is one entry of the regulator's change log: what Plan decided, with
// everything needed to evaluate it later. The caller stores every Change it
// applies and passes them back as history. A plain value, safe to copy and
// to read concurrently.
type Change struct {
	Kind   Kind    `json:"kind"`
	Param  string  `json:"param"`
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Metric is the pressure that motivated the change (for a revert or keep,
	// the evaluated change's metric); MetricValue and Severity are its
	// reading when this entry was made.
	Metric      string  `json:"metric"`
	MetricValue float64 `json:"metric_value"`
	Severity    float64 `json:"severity"`
	// Want is the direction the change wanted the metric to move (-1 lower,
	// +1 higher); set on KindChange.
	Want   int       `json:"want,omitempty"`
	Reason string    `json:"reason"`
	At     time.Time `json:"at"`
	// Ref is, for a revert or keep, the At of the change it evaluates.
	Ref time.Time `json:"ref,omitzero"`
	// Degraded marks a revert whose metric got significantly worse (beyond
	// DegradeZ standard errors), not merely failed to improve; only such a
	// revert blocks its lever (see Config.RevertBlock).
	Degraded bool `json:"degraded,omitempty"`
}

// DegradeZ is how many standard errors of the difference between two
// readings (each a proportion of its N observations) a metric must move the
// wrong way for a change to count as degrading it: the one-sided 95% level
// (a constant).
const DegradeZ = 1.645

// Config holds the regulator's bounds; DefaultConfig gives the seed's. A
// plain value (the Registry it points to is read-only), safe to share between
// goroutines.
type Config struct {
	// Registry lists the parameters the regulator may change, with bounds.
	Registry *Registry
	// MaxStep is the largest move of one change, in units of the parameter's
	// Scale (the seed's ±0.02 a day).
	MaxStep float64
	// Interval is the least time between two moves (change or revert) of any
	// parameter: one move a day.
	Interval time.Duration
	// Cooldown is the least time between two moves of one parameter (48 h).
	Cooldown time.Duration
	// EvalWindow is how long a change runs before its metric is compared with
	// the reading that motivated it. Metrics should cover a window no longer
	// than this, so the comparison sees only data from after the change.
	EvalWindow time.Duration
	// MinSamples is the least number of observations a pressure needs to be
	// acted on or to evaluate a change.
	MinSamples int
	// RevertBlock is how long a lever is not tried again in the direction of
	// a change that degraded its metric and was reverted; it doubles with
	// each further such revert of the same lever and direction. A change that
	// merely did not improve (under noise, a good step can look useless) is
	// reverted without blocking.
	RevertBlock time.Duration
}

// DefaultConfig returns the seed's bounds over reg: steps of 0.02, one move a
// day, 48 h cooldown per parameter, evaluation after 48 h, at least 30
// observations, a degrading lever blocked for a week. It is safe for
// concurrent use.
func DefaultConfig(reg *Registry) Config {
	return Config{
		Registry: reg, MaxStep: 0.02, Interval: 24 * time.Hour, Cooldown: 48 * time.Hour,
		EvalWindow: 48 * time.Hour, MinSamples: 30, RevertBlock: 7 * 24 * time.Hour,
	}
}

// Result is what one regulator run decided. A plain value, safe to read
// concurrently.
type Result struct {
	// Changes are the entries to apply and log, in order: keeps, then at
	// most one move (a change or a revert).
	Changes []Change `json:"changes"`
	// Pressures are every pressure, worst first.
	Pressures []Ranked `json:"pressures"`
	// Notes say why something was not done (not due, cooldown, bounds,
	// waiting for data), for the dry run and the log.
	Notes []string `json:"notes,omitempty"`
}

// Moved reports whether the result changes any parameter value. It is safe
// for concurrent use.
func (r Result) Moved() bool {
	for _, c := range r.Changes {
		if c.Kind != KindKeep {
			return true
		}
	}
	return false
}

// Plan runs the regulator once at now over the current parameter values,
// the current pressures and the change history, and returns what to do; it
// changes none of its arguments (a dry run shows the Result instead of
// applying it). In order:
//
//  1. Every change older than EvalWindow and not yet evaluated is compared
//     with its metric now: improved (moved the wanted way, or back inside the
//     band) → a keep entry; not improved → a revert to its Before value.
//  2. If no move happened within Interval and step 1 did not revert, the
//     worst pressure with enough samples and a usable lever gets one change:
//     its first lever whose parameter is registered, outside Cooldown, not
//     awaiting an evaluation, not blocked by a recent revert in that
//     direction and not at its bound
//     moves by MaxStep × Scale (less at a bound), toward relieving the
//     pressure.
//
// Plan never fails; problems (no registry, unknown parameters) become Notes.
// It is safe for concurrent use.
func Plan(now time.Time, params map[string]float64, pressures []Pressure, history []Change, cfg Config) Result {
	res := Result{Pressures: Rank(pressures, cfg.MinSamples)}
	if cfg.Registry == nil {
		res.Notes = append(res.Notes, "no parameter registry: nothing to regulate")
		return res
	}
	hist := append([]Change(nil), history...)
	sort.SliceStable(hist, func(i, j int) bool { return hist[i].At.Before(hist[j].At) })
	current := make(map[string]Ranked, len(res.Pressures))
	for _, r := range res.Pressures {
		current[r.Metric] = r
	}

	moved := false
	next := NextDue(hist, cfg)
	due := !now.Before(next)
	if !due {
		res.Notes = append(res.Notes, fmt.Sprintf("not due: next move after %s", next.Format(time.RFC3339)))
	}

	// 1. Evaluate changes whose window has passed.
	for _, c := range pending(hist) {
		if now.Sub(c.At) < cfg.EvalWindow {
			continue
		}
		p, ok := current[c.Metric]
		if !ok || !p.Enough {
			res.Notes = append(res.Notes, fmt.Sprintf("evaluation of %s (%s) waits for %s data", c.Param, c.At.Format(time.RFC3339), c.Metric))
			continue
		}
		cur := cfg.Registry.value(params, c.Param)
		switch {
		case improved(c, p):
			res.Changes = append(res.Changes, Change{Kind: KindKeep, Param: c.Param, Before: cur, After: cur,
				Metric: c.Metric, MetricValue: p.Value, Severity: p.Severity, At: now, Ref: c.At,
				Reason: fmt.Sprintf("keep %s %.4g→%.4g: %s %.4g → %.4g", c.Param, c.Before, c.After, c.Metric, c.MetricValue, p.Value)})
		case math.Abs(cur-c.After) > 1e-9:
			res.Changes = append(res.Changes, Change{Kind: KindKeep, Param: c.Param, Before: cur, After: cur,
				Metric: c.Metric, MetricValue: p.Value, Severity: p.Severity, At: now, Ref: c.At,
				Reason: fmt.Sprintf("cannot revert %s: now %.4g, not the %.4g the change set; left as is", c.Param, cur, c.After)})
		case moved || !due:
			res.Notes = append(res.Notes, fmt.Sprintf("revert of %s (%s) waits for the next run", c.Param, c.At.Format(time.RFC3339)))
		default:
			deg := degraded(c, p)
			what := "did not improve"
			if deg {
				what = "got worse"
			}
			res.Changes = append(res.Changes, Change{Kind: KindRevert, Param: c.Param, Before: cur, After: c.Before,
				Metric: c.Metric, MetricValue: p.Value, Severity: p.Severity, At: now, Ref: c.At, Degraded: deg,
				Reason: fmt.Sprintf("revert %s %.4g→%.4g: %s %s (%.4g → %.4g)", c.Param, c.After, c.Before, c.Metric, what, c.MetricValue, p.Value)})
			moved = true
		}
	}
	if moved || !due {
		return res
	}
	hist = append(hist, res.Changes...) // this run's keeps close their changes

	// 2. One change for the worst pressure that can take one.
	for _, p := range res.Pressures {
		if !p.Enough || p.Score <= 0 {
			continue
		}
		want := p.Want()
		for _, lv := range p.Levers {
			c, why := planLever(now, params, hist, cfg, p, want, lv)
			if why != "" {
				res.Notes = append(res.Notes, why)
				continue
			}
			res.Changes = append(res.Changes, c)
			return res
		}
	}
	if len(res.Changes) == 0 && len(res.Notes) == 0 {
		res.Notes = append(res.Notes, "every pressure is inside its band")
	}
	return res
}

// NextDue returns when the regulator may next move a parameter (change or
// revert): the latest move in history plus cfg.Interval, or the zero time
// when history holds no move. The server's background loop can sleep until
// then; keeps need no slot. It is safe for concurrent use.
func NextDue(history []Change, cfg Config) time.Time {
	var last time.Time
	for _, c := range history {
		if c.Kind != KindKeep && c.At.After(last) {
			last = c.At
		}
	}
	if last.IsZero() {
		return last
	}
	return last.Add(cfg.Interval)
}

// planLever builds the change moving lv for pressure p, or says why it cannot.
func planLever(now time.Time, params map[string]float64, hist []Change, cfg Config, p Ranked, want int, lv Lever) (Change, string) {
	par, ok := cfg.Registry.Lookup(lv.Param)
	if !ok {
		return Change{}, fmt.Sprintf("%s: lever %s is not a registered parameter", p.Metric, lv.Param)
	}
	if lv.Effect == 0 || !finite(lv.Effect) {
		return Change{}, fmt.Sprintf("%s: lever %s has no effect sign", p.Metric, lv.Param)
	}
	cur := cfg.Registry.value(params, lv.Param)
	if !finite(cur) || cur < par.Min || cur > par.Max {
		return Change{}, fmt.Sprintf("%s: %s = %v outside its bounds [%v, %v]; fix the stored value", p.Metric, lv.Param, cur, par.Min, par.Max)
	}
	sign := float64(want)
	if lv.Effect < 0 {
		sign = -sign
	}
	for i := len(hist) - 1; i >= 0; i-- {
		c := hist[i]
		if c.Param != lv.Param || c.Kind == KindKeep {
			continue
		}
		if now.Sub(c.At) < cfg.Cooldown {
			return Change{}, fmt.Sprintf("%s: %s in cooldown until %s", p.Metric, lv.Param, c.At.Add(cfg.Cooldown).Format(time.RFC3339))
		}
		break
	}
	for _, c := range pending(hist) {
		if c.Param == lv.Param {
			return Change{}, fmt.Sprintf("%s: %s awaits the evaluation of its change at %s", p.Metric, lv.Param, c.At.Format(time.RFC3339))
		}
	}
	if blockedUntil, ok := blocked(hist, lv.Param, sign, now, cfg.RevertBlock); ok {
		return Change{}, fmt.Sprintf("%s: moving %s that way was reverted; blocked until %s", p.Metric, lv.Param, blockedUntil.Format(time.RFC3339))
	}
	step := cfg.MaxStep * par.Scale
	after := math.Min(par.Max, math.Max(par.Min, cur+sign*step))
	if math.Abs(after-cur) < 1e-12 {
		return Change{}, fmt.Sprintf("%s: %s at its bound %v", p.Metric, lv.Param, cur)
	}
	return Change{
		Kind: KindChange, Param: lv.Param, Before: cur, After: after,
		Metric: p.Metric, MetricValue: p.Value, Severity: p.Severity, Want: want, At: now,
		Reason: fmt.Sprintf("%s = %.4g outside [%.4g, %.4g] (severity %.2f, n=%d): %s %.4g→%.4g",
			p.Metric, p.Value, p.Low, p.High, p.Severity, p.N, lv.Param, cur, after),
	}, ""
}

// pending returns the changes not yet closed by a keep or revert, oldest
// first. hist must be sorted by At.
func pending(hist []Change) []Change {
	closed := make(map[string]bool)
	for _, c := range hist {
		if c.Kind == KindKeep || c.Kind == KindRevert {
			closed[key(c.Param, c.Ref)] = true
		}
	}
	var out []Change
	for _, c := range hist {
		if c.Kind == KindChange && !closed[key(c.Param, c.At)] {
			out = append(out, c)
		}
	}
	return out
}

func key(param string, at time.Time) string { return param + "@" + at.UTC().Format(time.RFC3339Nano) }

// improved reports whether the metric moved the way change c wanted, or is
// back inside its band.
func improved(c Change, now Ranked) bool {
	if now.Severity == 0 {
		return true
	}
	switch {
	case c.Want < 0:
		return now.Value < c.MetricValue
	case c.Want > 0:
		return now.Value > c.MetricValue
	}
	return now.Severity < c.Severity
}

// degraded reports whether the metric moved against change c's wish by more
// than DegradeZ standard errors of the difference, treating each reading as
// a proportion of its N observations (the pressures here are all rates).
func degraded(c Change, now Ranked) bool {
	worse := (now.Value - c.MetricValue) * float64(-c.Want)
	if c.Want == 0 || worse <= 0 || now.N <= 0 {
		return false
	}
	v := func(p float64) float64 { p = math.Min(1, math.Max(0, p)); return p * (1 - p) / float64(now.N) }
	se := math.Sqrt(v(now.Value) + v(c.MetricValue))
	return worse > DegradeZ*se
}

// blocked reports whether degrading reverts undid moves of param in
// direction sign recently enough to block the lever, and until when: the
// latest such revert blocks for window × 2^(k-1), k being how many there
// have been.
func blocked(hist []Change, param string, sign float64, now time.Time, window time.Duration) (time.Time, bool) {
	k := 0
	var last time.Time
	for _, r := range hist {
		// The reverted change moved from r.After to r.Before.
		if r.Kind == KindRevert && r.Degraded && r.Param == param && (r.Before-r.After)*sign > 0 {
			k++
			last = r.At
		}
	}
	if k == 0 {
		return time.Time{}, false
	}
	until := last.Add(window << min(k-1, 10))
	return until, now.Before(until)
}

// Apply returns params with changes applied (keeps move nothing); params is
// not modified. It is safe for concurrent use.
func Apply(params map[string]float64, changes []Change) map[string]float64 {
	out := make(map[string]float64, len(params)+len(changes))
	for k, v := range params {
		out[k] = v
	}
	for _, c := range changes {
		if c.Kind == KindChange || c.Kind == KindRevert {
			out[c.Param] = c.After
		}
	}
	return out
}
