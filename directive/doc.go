// Package directive reads a rule written for a coding agent into what it
// prescribes and forbids, and checks a candidate plan or answer against it.
//
// Parse turns a rule ("Use `pnpm`, not npm or yarn", "Never push directly
// to main", "Prefer `select` over `include` in Prisma queries", "Run `make
// gen` after changing queries") into a Directive: its polarity (require,
// forbid, prefer, or context for rules that describe rather than direct),
// the objects it asks for (Do) and rules out (Dont) — backticked code,
// commands, flags, paths, tool names or short noun phrases — the condition
// it applies under ("when adding docs", "before committing"), its exception
// ("unless explicitly asked") and the file globs of its scope. Headings
// count: an item under "Don't" forbids what it names.
//
// Check reads a candidate against a Directive: it does a forbidden object
// or skips a required one (Violates), does what the rule asks (Complies),
// or names none of the rule's objects (Unknown, or Lacks when the rule
// requires something concrete that the candidate does not do). Mentions in
// a negated clause ("I won't push to main", "without running the
// formatter", "instead of `npm`") count as not doing. Placeholders in a
// rule's objects (`<name>`, `{package}`, `...`, `type(scope): message`,
// `XxxParser`) match any text of their shape.
//
// Reading is by form, not by meaning: "never use raw pointers" is not
// matched against `Buffer *buf`. English is read fully; Chinese and
// Japanese negation and requirement markers give the polarity of rules in
// those languages. Everything here is pure, deterministic and safe for
// concurrent use.
package directive
