// Package hesitation is a deterministic "System 1" hesitation check: before
// an agent acts on a draft (replies, writes a lesson to memory, commits,
// pushes, deletes, deploys, migrates) Check scores how much the draft
// should make it pause, from 0 (go ahead) to 100 (do not act), and says
// what to do per intended action: proceed, hedge, hold or needs_review.
//
// The score is the sum of weighted signals (see SignalType): absolute
// claims without a source, specific details (numbers, versions, dates, API
// and flag names) that nothing in the Situation backs, a long reply with no
// hedging, conclusions outnumbering reasoning, claims of success with no
// test run, an admitted capability gap ("I couldn't run the tests"), a
// query that refers to material the agent has not seen, and a match to a
// learned error Pattern. Thresholds and weights live in Config; with
// Config.Enabled false, Check lets everything proceed.
//
// Error patterns are learned from corrections: IsCorrection recognises a
// corrective user message ("不是有說…", "為何還是…", "I told you",
// "that's wrong", "言ったよね"), NewPattern extracts keywords from the
// correction and the draft it corrected (ExtractKeywords), Strengthen and
// Triggered update a pattern, and Decayed weakens it with time since it
// last triggered. Hedges and Uncertain detect uncertainty cues (hedges,
// weasel words, peacock terms after the CoNLL-2010 shared task classes) on
// their own; EvalHedging and EvalHesitation measure the detectors on JSONL
// data.
//
// Term lists for English, Chinese (Traditional and Simplified) and
// Japanese, and success claims with their negations in Spanish,
// Portuguese, German and French, are embedded JSON files under terms/, compiled once into a
// single Aho-Corasick automaton, so a check is one linear pass over the
// draft plus a token pass. Everything here is a pure function of its
// arguments: no I/O (the eval functions read only the io.Reader they are
// given), no clock (Situation.Now carries the time), no global mutable
// state. All functions are safe for concurrent use.
package hesitation
