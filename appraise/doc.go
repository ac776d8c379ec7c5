// Package appraise is the critic of innate-mcp: it re-reads the fused score
// that recall ranks on as a verdict on a situation and, optionally, a
// candidate (the draft answer or plan under judgement). It never grows a
// second scorer and never produces an answer: a Verdict says how much footing
// the knowledge base gives (valence, strength, band of strength, calibrated confidence),
// which lessons it rests on, and what to watch out for — never what the
// answer is.
//
// Appraise takes the lessons the knowledge base scored for the situation
// (with the candidate folded into the query) and applies, in order, four
// abstention gates, all on by default:
//
//  1. weak_resonance: no lesson's raw resonance (similarity alone, not raised
//     by confidence or history) clears Config.ResonanceFloor;
//  2. false_resonance: lessons resonate, but none of them shares distinctive
//     terms with the situation (lexical relevance below
//     Config.SignatureFloor) or matches by its trigger;
//  3. sparse_evidence: the resonating lessons carry too little evidence
//     (observed outcomes, people's judgements, a user-stated or imported
//     origin): their resonance-weighted evidence is below
//     Config.EvidenceFloor; or the candidate only reads and reports, and
//     nothing but the situation's own lessons resonates, none with a
//     valence (no rule can rule on a plan that changes nothing);
//  4. conflicted: the resonating lessons disagree — a strong affirming lesson
//     against a strong caution of about the same strength, or lessons with
//     opposed outcome histories.
//
// An abstention is a correct answer of the critic, not a failure: the verdict
// then has valence neutral, band weak, confidence 0 and no flagged points,
// while strength, dispersion and contributors stay visible for the logs.
//
// Strength is the best fused score among the resonating lessons; with a
// candidate it is multiplied by the candidate's support (Support): the share
// of the candidate's content terms that the most resonant lessons hold,
// decayed by Config.SupportMissDecay for every term they do not hold (the
// count saturating at Config.SupportMissCap), so that a candidate the
// knowledge backs has more footing than one padded with claims it does not
// back. Valence comes from the lessons: caution from a lesson learned from a
// failure or a correction, an anti-trigger hit, a negative outcome balance
// in similar situations, or a candidate that does what a resonating lesson
// says not to do (its "don't" directive, read by package confidence, against
// the candidate's "do"); affirm from a trigger match backed by positive
// evidence (a user-stated or imported origin, successes, approvals) — and
// not for a candidate the lessons do not back (Config.SupportAffirm).
// Confidence maps
// strength through a monotone (isotonic) fit of the verdict log's observed
// hit rates (Fit, Calibration); it is the identity until the log has enough
// outcomes.
//
// Flagged points follow the hand-raise rule: each caution carries a will,
// a weighted sum of its relevance, novelty and confidence (WillRelevance,
// WillNovelty, WillConfidence); novelty falls for a lesson already raised
// in the session and recovers over Config.RaiseCooldown later calls; a
// lesson that raised its hand on most recent calls is damped; only points
// whose will clears the mode's threshold are raised, the others are
// returned as skipped for the log.
//
// Every number is a named parameter of Config with a documented default and
// hard bounds (ParamSpecs); the regulator tunes the "appraise.floor.*" ones.
// Everything here is pure computation: no I/O, no globals beyond read-only
// tables, and every function is safe for concurrent use.
package appraise
