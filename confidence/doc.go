// Package confidence is the deterministic lifecycle core of a lesson's
// confidence: the composite score of frequency, effectiveness and human
// approval, its tiers, weekly decay computed from timestamps,
// deprecation and archiving, pending promotion, the rules against
// self-confirmation, contradiction detection and resolution, and trends.
//
// The package is pure computation: no I/O, no SQL, no clocks, no globals
// beyond read-only tables. Callers own storage. A lesson's [State] is a plain
// JSON-friendly struct of counters and timestamps; every function takes a
// State by value and returns a new one together with the [Change] records
// (before, after, reason) that belong in a history table.
//
// The usual call sequence for one lesson is:
//
//	s := confidence.New(confidence.OriginAgentInferred, now, session, cfg)
//	...
//	s, changes, err := confidence.Apply(s, event, cfg) // writes: record, approve, ...
//	s, changes = confidence.AsOf(s, now, cfg)            // reads: catch up decay
//
// Apply catches up decay to the event's time itself, so calling AsOf before
// Apply is never needed. AsOf is idempotent and composable: AsOf at t1 then
// at t2 gives the same State as AsOf at t2 alone, so a server that was off
// for a month ends where a weekly job would have left it.
//
// # Scores
//
// Frequency follows a step table over observations (and credited successes,
// [Config.FrequencySteps]) minus [Config.ContradictionPenalty] per
// contradiction. Effectiveness is the Wilson lower bound ([Config.WilsonZ])
// over positive and negative applications; it is held at the neutral value
// ([Config.EffectivenessNeutral]) until the bound overtakes it, and each
// failure shrinks that neutral hold, so a credited success never lowers
// effectiveness and a failure always does (see [Effectiveness]). Human is a
// Bayesian update ([Config.HumanPrior], [Config.HumanRate]) over in-session
// approvals and rejections (stating a lesson counts as
// [Config.UserStatedApprovals] approvals); an explicit user approval sets it
// to at least [Config.StrongApprovalHuman]. The composite weighs them by
// [Config.Weights] and is multiplied by [Config.LowDimensionFactor] when any
// dimension is below [Config.LowDimension]. [DefaultConfig] holds the
// values.
//
// # Decay
//
// A lesson not used for a full [Config.DecayPeriod] loses [Config.DecayRates]
// per dimension, never below [Config.Floors]. Decay is kept as a
// per-dimension debt on top of the counter-derived scores; fresh positive
// evidence repays it by that evidence's delta (and a credited success repays
// frequency like an observation). A lesson that stays deprecated (composite
// under [Config.TentativeAt]) for [Config.ArchiveAfter] is archived, never
// deleted; archived lessons are frozen until restored.
//
// # Deviations from the seed
//
// Each is deliberate and tested; the defaults can restore the seed where a
// knob exists.
//   - Effectiveness holds at the neutral value until the Wilson bound passes
//     it (the bare bound drops a lesson far below neutral on its first
//     success).
//   - A credited success counts as an observation and repays frequency
//     decay ([Config.SuccessIsObservation]); otherwise a lesson used
//     successfully forever stays at its first frequency step and never
//     reaches core.
//   - Stating a lesson counts as one approval ([Config.UserStatedApprovals]),
//     not as the explicit review that sets human to 0.95.
//   - Deprecated lessons are archived after [Config.ArchiveAfter], never deleted, and
//     decay runs from timestamps on read and write, not from a weekly job.
//   - Decay applies to pending and active lessons (the seed: active only).
//   - Neutral outcomes are counted but left out of the Wilson bound.
package confidence
