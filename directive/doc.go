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
// or declines a required one (Violates), does what the rule asks
// (Complies), says it goes ahead without the step the rule requires ("right
// away", "without running anything", "by hand": Skips), or names none of
// the rule's objects (Unknown, or Lacks when the rule requires something
// concrete that the candidate does not do, once the candidate gets to the
// point the rule's "before X" names). Constructs that rules name in words
// ("avoid enums", "favor named exports", "never use raw pointers", "do not
// add dependencies") are found in the candidate's code (`enum Role {`,
// `export default`, `Buffer *b = new Buffer()`, `npm install x`), only to
// find a violation. Mentions in a negated clause ("I won't push to main",
// "without running the formatter", "instead of `npm`") count as not doing,
// and what an investigative verb asks about ("summarize how tasks are
// planned and split") is not a step. Placeholders in a
// rule's objects (`<name>`, `{package}`, `...`, `type(scope): message`,
// `XxxParser`) match any text of their shape.
//
// Reading is by form, not by meaning: beyond the constructs it knows, a
// rule that needs code understanding ("prefer file-scoped namespaces") is
// not matched against the code that breaks it. English is read fully;
// Chinese and Japanese negation and requirement markers give the polarity
// of rules in those languages. Everything here is pure, deterministic and safe for
// concurrent use.
package directive
