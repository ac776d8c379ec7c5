// Package consult is the contract between innate-mcp and a consultant: a
// model or the user's own agent that compiles, once, what the built-in
// reader (package directive) cannot read of a rule file.
//
// Prompt prints, for a list of rules, the instructions and the JSON schema
// of the answer; Parse reads an answer back and Validate refuses what must
// not be enforced: a check that does not parse, that misses one of its own
// bad examples or the rule's, that matches one of its good examples, or
// that would have fired on too many of the commands a user's sessions ran.
// Phrasings (how a user or an agent describes a moment where the rule
// applies) that reuse the rule's own key words are dropped, so that they
// add what lexical and dense matching of the rule's text cannot find.
//
// Everything here is a pure function of its input: reaching a consultant
// is package consultant's, storing an answer package kb's. A consultant
// is "a consultant, not an authority": its checks start as reminders, and
// a person's word wins.
package consult
