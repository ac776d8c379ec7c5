// Package regulate is the single authority that changes tuned parameters:
// the router's weights (route.*), hesitation thresholds and weights
// (hesitation.*) and appraise floors (appraise.*). Every other component
// only reads parameters and writes logs; the regulator reads metrics from
// those logs as pressures and, at most once a day, changes one parameter.
//
// It is a routing-stability regulator: Plan ranks the pressures
// (each a metric against its healthy band, scaled so 1 is the red flag),
// takes the worst one that has a usable lever, and moves that lever's
// parameter by at most Config.MaxStep (times the parameter's Scale) within
// its hard bounds, never touching a parameter changed less than
// Config.Cooldown ago. It closes the loop: once Config.EvalWindow has
// passed, a change whose metric improved is kept and one whose metric did not
// improve is reverted, and the reverted lever is not tried again in that
// direction for Config.RevertBlock.
//
// Everything here is pure computation over values the caller loads: Plan
// returns the changes and the caller applies and logs them (Apply), so a dry
// run is a call to Plan whose result is shown instead of applied. No I/O, no
// globals; every function is safe for concurrent use.
package regulate
