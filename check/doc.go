// Package check holds the checks a rule compiles to, as data, and matches
// them against an agent's parsed actions (package action).
//
// A Check is a value a person can read back (Describe says it in words)
// and a test can build in one line. It has a kind (forbid, require,
// require-before, prefer-instead), one target (a shell command pattern, a
// file written, or a commit message or pull-request title), an optional
// condition on the paths the session touched, the rule it enforces (the
// lesson's id and its verbatim quote) and its provenance: the built-in
// reader and its version, a person, or a consultant.
//
// Matching is a pure function of a prepared check, an action and the
// session's history; no English is read at match time. A check matches
// only structurally: a program run, a flag given, a path written, a
// message that fails a pattern. Everything here is deterministic and safe
// for concurrent use.
package check
