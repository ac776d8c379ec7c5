package consult

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Rule is one line of a rule file a consultant is asked about.
type Rule struct {
	// ID names the rule in the prompt and the answer: RuleID of its text,
	// so that it is the same wherever the file is checked out.
	ID string `json:"id"`
	// Text is the rule verbatim; When its context (the heading path, the
	// file's globs), empty when there is none.
	Text string `json:"text"`
	When string `json:"when,omitempty"`
}

// RuleID is the identity of a rule's text and context: "r" and 8 hex
// digits of their hash. A changed rule gets a new id, and so is compiled
// again; an unchanged one keeps its id and its compile.
func RuleID(text, when string) string {
	h := sha256.Sum256([]byte(strings.TrimSpace(text) + "\x00" + strings.TrimSpace(when)))
	return "r" + hex.EncodeToString(h[:4])
}

// maxRuleBytes bounds the text of one rule in the prompt; a longer rule is
// clipped (its checks come from what the prompt shows).
const maxRuleBytes = 400

// instructions open every prompt and say what is asked. A leaner text (in
// eval/testdata/consultant/round3) was tried on 2026-11-29: consultants
// answered it with 70% more checks, the compile cost more in all, and recall
// found fewer rules (one more breach of real actions was caught), so this
// one, under which the recorded answers were made, stays.
const instructions = `You compile a project's rules for innate-mcp, a hook that checks a coding agent's tool calls (shell commands, file writes, commit messages) against them, with no model. Answer once, JSON only, in the shape at the end.

For each rule ("id | text", under "## when:" its context; "…" starts as the one before):
- A line that does not direct a coding agent goes in "other", by what it is: "description", "map" (a list of commands, files or names), "example" or "not-for-agents".
- do: "dont" if it rules something out, "do" if it asks for something.
- say (rules only): 5 phrasings, 3 to 6 words each, of moments where it applies, as a user or agent would say the task, sharing no key word with the rule ("Keep SQL out of handlers" -> "add a lookup to an endpoint").
- checks: wherever a tool call can visibly break the rule: a program, subcommand or flag; a path written; a pattern of the new text (an API, type, construct or missing header in given files); a commit message; a step missing before a commit or push. A check first only reminds the agent, once a session, until the user approves it, so give one whenever it is precise; never one that fires on compliant work. Each check has bad and good tool calls, one short one of each unless the rule gives more: it must match every bad one and no good one. Copy examples the rule gives, with "quoted":true.

A check: kind forbid | require (the write's text or the message must match) | require-before (the command needs "before" earlier in the session, as the user runs that step) | prefer-instead (forbid, plus "instead"); one target: command {programs or classes [test,build,format,lint,typecheck], sub (leading words, in order), flags (all required; a flag's value is not an arg), args (globs of other words), pipe_to, not_via, except [command]} | write {paths (.gitignore globs, "!" excludes), text (RE2), new, delete} | message {must (RE2 on the first line) or must_not (unanchored: anywhere), name}; optional before (the step, a command target's fields), instead, when {touched [globs]}. Lists are JSON arrays.
Tool call: {"run":"shell line"} | {"write":"path","text":"new text"} | {"commit":"message"}.
E.g. {"kind":"forbid","write":{"paths":["handlers/"],"text":"(?i)\\bselect\\s.+\\sfrom\\b"},"bad":[{"write":"handlers/user.go","text":"db.Query(\"SELECT id FROM users\")"}],"good":[{"write":"store/user.go","text":"db.Query(\"SELECT id FROM users\")"}]}
`

// Shape is the answer's shape as the prompt ends with it: what Schema says,
// in the fewest tokens (the prompt's words say what each field holds).
const Shape = `{"model":"you","rules":[{"id":"r…","do":"…","say":["…"],"checks":[{"kind":"…","command":{…},"bad":[…],"good":[…]}]}],"other":{"map":["r…"]}}`

// Schema is the JSON schema of an answer, minified, for a consultant that
// takes one apart from its prompt (a structured-output option): `rules
// compile --print-prompt --json` gives it; the prompt ends with Shape.
const Schema = `{"type":"object","required":["rules"],"properties":{"model":{"type":"string"},"other":{"type":"object","properties":{"description":{"$ref":"#/$defs/ids"},"map":{"$ref":"#/$defs/ids"},"example":{"$ref":"#/$defs/ids"},"not-for-agents":{"$ref":"#/$defs/ids"}},"additionalProperties":false},"rules":{"type":"array","items":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},"is":{"enum":["rule","description","map","example","not-for-agents"]},"do":{"enum":["do","dont"]},"say":{"type":"array","items":{"type":"string"}},"checks":{"type":"array","items":{"type":"object","required":["kind","bad"],"properties":{"kind":{"enum":["forbid","require","require-before","prefer-instead"]},"command":{"$ref":"#/$defs/cmd"},"write":{"type":"object"},"message":{"type":"object"},"before":{"$ref":"#/$defs/cmd"},"instead":{"type":"string"},"when":{"type":"object"},"bad":{"$ref":"#/$defs/calls"},"good":{"$ref":"#/$defs/calls"}}}}}}}},"$defs":{"ids":{"type":"array","items":{"type":"string"}},"cmd":{"type":"object"},"calls":{"type":"array","items":{"type":"object","properties":{"run":{"type":"string"},"write":{"type":"string"},"text":{"type":"string"},"commit":{"type":"string"},"quoted":{"type":"boolean"}}}}}}`

// Prompt is what a consultant is given for the rules of one file: the
// instructions, the rules, and the schema of the answer.
func Prompt(file string, rules []Rule) string {
	var b strings.Builder
	b.WriteString(instructions)
	fmt.Fprintf(&b, "\nRules of %s:\n", file)
	short := ShortIDs(rules)
	when, shown := "", ""
	for _, r := range rules {
		if w := oneLine(r.When, maxRuleBytes/2); w != when {
			when = w
			shown = shortWhen(when, shown)
			if when == "" {
				shown = "-"
			}
			fmt.Fprintf(&b, "## when: %s\n", shown)
			shown = when
		}
		b.WriteString(short[r.ID])
		b.WriteString(" | ")
		b.WriteString(oneLine(r.Text, maxRuleBytes))
		b.WriteByte('\n')
	}
	b.WriteString("\nAnswer: ")
	b.WriteString(Shape)
	b.WriteByte('\n')
	return b.String()
}

// whenSep parts a heading path ("Guide > Testing").
const whenSep = " > "

// shortWhen is when as the prompt shows it after prev: the leading
// headings the two share are shown as "…", as the instructions say.
func shortWhen(when, prev string) string {
	w, p := strings.Split(when, whenSep), strings.Split(prev, whenSep)
	n := 0
	for n < len(w)-1 && n < len(p) && w[n] == p[n] {
		n++
	}
	if n == 0 {
		return when
	}
	return "…" + whenSep + strings.Join(w[n:], whenSep)
}

// shortIDLen is the length of a rule's id in a prompt: "r" and 6 hex
// digits, unless two rules asked about share them.
const shortIDLen = 7

// ShortIDs maps the id of each rule to the id a prompt names it by: the
// first shortIDLen characters, or the whole id where two rules share
// those. Validate takes either.
func ShortIDs(rules []Rule) map[string]string {
	n := map[string]int{}
	for _, r := range rules {
		n[shortID(r.ID)]++
	}
	out := make(map[string]string, len(rules))
	for _, r := range rules {
		out[r.ID] = r.ID
		if s := shortID(r.ID); n[s] == 1 {
			out[r.ID] = s
		}
	}
	return out
}

func shortID(id string) string {
	if len(id) > shortIDLen {
		return id[:shortIDLen]
	}
	return id
}

// oneLine folds a text onto one line, clipped to n bytes at a rune
// boundary.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
