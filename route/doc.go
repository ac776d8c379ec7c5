// Package route is the deterministic engagement router: from the
// user's latest message and the context warmth the knowledge base reports, it
// chooses what the agent should do next — respond, clarify, gather (look
// things up first: recall more, read the code, run the tests), acknowledge or
// ignore — without a model.
//
// Extract reads the message's signals in English, Chinese (Simplified and
// Traditional) and Japanese with the term lists in lexicon/*.txt (embedded at
// build time): question form, interrogatives, greeting, explicit feedback,
// information density, implicit references to earlier work, imperative coding
// requests, and concrete code handles. Route scores every mode with a table
// of a base, boosters and penalties per mode (every number a named field of
// Weights), applies the per-request anti-oscillation guards and the
// low-confidence hysteresis, and reports the winner with the router
// confidence, the margin to the runner-up and the effective tie margin, which
// narrows as warmth grows. There is no LLM tie-breaker: when the top two are
// within the margin the Decision says Ambiguous and names the RunnerUp; the
// agent decides.
//
// The package also defines the misroute feedback kinds the regulator consumes
// (Misroute, DetectMisroute) and the healthy mode-distribution ranges
// (HealthyRanges, CheckDistribution). Weights are never changed here: the
// regulate package is the single authority that tunes them, through the
// parameter names of WeightSpecs.
//
// Everything is pure computation: no I/O, no globals beyond the read-only
// term tables parsed once, and every function is safe for concurrent use.
package route
