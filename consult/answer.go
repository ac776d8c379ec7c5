package consult

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/terms"
)

// What a line of a rule file is, as a consultant reads it.
const (
	IsRule         = "rule"
	IsDescription  = "description"
	IsMap          = "map"
	IsExample      = "example"
	IsNotForAgents = "not-for-agents"
)

// Polarity: whether a rule rules something out or asks for something.
const (
	Do   = "do"
	Dont = "dont"
)

// Answer is a consultant's answer for one prompt.
type Answer struct {
	// Model names the consultant ("claude-sonnet-4", "the user's agent").
	Model string       `json:"model,omitempty"`
	Rules []RuleAnswer `json:"rules"`
	// Other lists the lines that are not rules by what they are
	// (IsDescription, IsMap, IsExample, IsNotForAgents): the compact form
	// of a rules entry with only "id" and "is". Parse folds it into Rules.
	Other map[string][]string `json:"other,omitempty"`
}

// otherKinds are what a line that is not a rule may be: the keys of
// Answer.Other, in the order Parse folds them.
var otherKinds = []string{IsDescription, IsMap, IsExample, IsNotForAgents}

// RuleAnswer is what a consultant says of one rule.
type RuleAnswer struct {
	ID     string        `json:"id"`
	Is     string        `json:"is"`
	Do     string        `json:"do,omitempty"`
	Say    []string      `json:"say,omitempty"`
	Checks []CheckAnswer `json:"checks,omitempty"`
}

// CheckAnswer is a check in the check language (package check) with the
// tool calls it must and must not match.
type CheckAnswer struct {
	check.Check
	Bad  []Call `json:"bad"`
	Good []Call `json:"good,omitempty"`
}

// Call is an example tool call: a shell line, a file written with its new
// text, or a commit. Quoted marks an example the rule itself gives.
type Call struct {
	Run    string `json:"run,omitempty"`
	Write  string `json:"write,omitempty"`
	Text   string `json:"text,omitempty"`
	Commit string `json:"commit,omitempty"`
	Quoted bool   `json:"quoted,omitempty"`
}

// Action is the call as the hooks read it.
func (c Call) Action() (action.Action, error) {
	n := 0
	for _, v := range []string{c.Run, c.Write, c.Commit} {
		if v != "" {
			n++
		}
	}
	if n != 1 {
		return action.Action{}, errors.New("a tool call gives exactly one of run, write and commit")
	}
	switch {
	case c.Run != "":
		a := action.Shell(c.Run, action.Env{})
		if !a.Parsed {
			return a, fmt.Errorf("the shell line %q does not parse", c.Run)
		}
		return a, nil
	case c.Write != "":
		// The Write tool: the whole new text of a file, which may be new.
		return action.Action{Tool: "Write", Parsed: true, Writes: []action.Write{{Path: strings.TrimPrefix(c.Write, "./"), Text: c.Text, TextKnown: true, New: true, By: "Write"}}}, nil
	}
	a := action.Shell("git commit -m "+shellQuote(c.Commit), action.Env{})
	return a, nil
}

// readAs says how the hooks read a shell call's commands, when a runner or
// wrapper is taken off (`uvx lefthook run` runs lefthook), for a consultant to fix
// a check that names the wrapper; "" for other calls.
func readAs(a action.Action) string {
	var parts []string
	for _, c := range a.Commands {
		if len(c.Via) == 0 {
			continue
		}
		w := []string{c.Program}
		for _, arg := range c.Args {
			if len(w) == 3 {
				break
			}
			w = append(w, arg.Value)
		}
		parts = append(parts, fmt.Sprintf("`%s` runs as program %s via %s", clipped(c.Text), strings.Join(w, " "), strings.Join(c.Via, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ": name the program, not its runner)"
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// said is the text a call shows, to find it in the rule.
func (c Call) said() string {
	switch {
	case c.Run != "":
		return c.Run
	case c.Write != "":
		return c.Text
	}
	return c.Commit
}

// MaxAnswerBytes bounds an answer: a few kilobytes a rule at most.
const MaxAnswerBytes = 2 << 20

// Parse reads an answer: JSON of the schema, with no field the schema does
// not name. It says what to fix when it cannot.
func Parse(data []byte) (Answer, error) {
	var a Answer
	if len(data) > MaxAnswerBytes {
		return a, fmt.Errorf("the answer is %d bytes; the limit is %d", len(data), MaxAnswerBytes)
	}
	data = bytes.TrimSpace(data)
	// A model may fence its JSON as Markdown.
	if bytes.HasPrefix(data, []byte("```")) {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = bytes.TrimSuffix(bytes.TrimSpace(data[i+1:]), []byte("```"))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		return a, fmt.Errorf("the answer is not JSON of the schema: %w", err)
	}
	if dec.More() {
		return a, errors.New("the answer holds more than one JSON value: give one object")
	}
	if a.Rules == nil && a.Other == nil {
		return a, errors.New(`the answer has no "rules": give {"rules":[…]}`)
	}
	for kind := range a.Other {
		if !slices.Contains(otherKinds, kind) {
			return a, fmt.Errorf(`"other" has the kind %q: give %s`, kind, strings.Join(otherKinds, ", "))
		}
	}
	for _, kind := range otherKinds {
		for _, id := range a.Other[kind] {
			a.Rules = append(a.Rules, RuleAnswer{ID: id, Is: kind})
		}
	}
	if a.Rules == nil {
		a.Rules = []RuleAnswer{}
	}
	a.Other = nil
	return a, nil
}

// Options tune validation.
type Options struct {
	// Recorded are shell lines the user's sessions ran; a check that would
	// have fired on more than MaxShare of them is refused, once there are
	// at least MinRecorded.
	Recorded    []string
	MaxShare    float64
	MinRecorded int
}

// Defaults of Options.
const (
	DefaultMaxShare    = 0.05
	DefaultMinRecorded = 20
	// MinSay is how many phrasings a rule needs, once those reusing its
	// key words are dropped, for them to be kept. The prompt asks for
	// five: one that reuses a word costs the rule that phrasing, not the
	// other four.
	MinSay = 3
	// maxSay bounds the phrasings kept of a rule, and maxSayBytes one.
	maxSay      = 12
	maxSayBytes = 200
)

// Compiled is what is kept of a consultant's answer for one rule.
type Compiled struct {
	Rule   Rule          `json:"rule"`
	Is     string        `json:"is"`
	Do     string        `json:"do,omitempty"`
	Say    []string      `json:"say,omitempty"`
	Checks []check.Check `json:"checks,omitempty"`
}

// Refusal is a part of an answer that is not kept, and why.
type Refusal struct {
	Rule  string `json:"rule"`
	Check int    `json:"check,omitempty"` // 1-based; 0: not a check
	Why   string `json:"why"`
}

// Result is an answer validated against the rules it was asked about.
type Result struct {
	Model    string     `json:"model,omitempty"`
	Compiled []Compiled `json:"compiled"`
	Refused  []Refusal  `json:"refused,omitempty"`
	// Missing are rules asked about that the answer leaves out; Unknown
	// the rules it names that were not asked about (a rule edited since
	// the prompt was printed): they are skipped.
	Missing []string `json:"missing,omitempty"`
	Unknown []string `json:"unknown,omitempty"`
	// Named are the rules the answer names, as they were asked about.
	Named []Rule `json:"-"`
}

// Validate checks an answer against the rules it was asked about and keeps
// what may be enforced. An answer that names one rule twice, or names
// rules but none that was asked about, is an error (nothing of it is
// kept): the consultant answered another prompt.
func Validate(a Answer, rules []Rule, o Options) (Result, error) {
	if o.MaxShare <= 0 {
		o.MaxShare = DefaultMaxShare
	}
	if o.MinRecorded <= 0 {
		o.MinRecorded = DefaultMinRecorded
	}
	byID := make(map[string]Rule, 2*len(rules))
	for _, r := range rules {
		byID[r.ID] = r
	}
	// A prompt names a rule by a prefix of its id (ShortIDs over the
	// rules of one file); one that more rules asked about share names none.
	for id, short := range ShortIDs(rules) {
		byID[short] = byID[id]
	}
	res := Result{Model: strings.TrimSpace(a.Model), Compiled: []Compiled{}}
	seen := map[string]bool{}
	var recorded []action.Action
	for _, line := range o.Recorded {
		if act := action.Shell(line, action.Env{}); act.Parsed {
			recorded = append(recorded, act)
		}
	}
	for _, ra := range a.Rules {
		r, ok := byID[ra.ID]
		if !ok {
			res.Unknown = append(res.Unknown, ra.ID)
			continue
		}
		if seen[r.ID] {
			return Result{}, fmt.Errorf("the answer names rule %q twice: give each rule once", ra.ID)
		}
		seen[r.ID] = true
		res.Named = append(res.Named, r)
		ra.ID = r.ID
		c, refused := validateRule(r, ra, recorded, o)
		res.Refused = append(res.Refused, refused...)
		if c != nil {
			res.Compiled = append(res.Compiled, *c)
		}
	}
	if len(a.Rules) > 0 && len(res.Unknown) == len(a.Rules) {
		return Result{}, fmt.Errorf("the answer names none of the rules asked about (%d unknown ids): answer the prompt printed for these rules", len(res.Unknown))
	}
	for _, r := range rules {
		if !seen[r.ID] {
			res.Missing = append(res.Missing, r.ID)
		}
	}
	return res, nil
}

// validateRule keeps what may be kept of one rule's answer.
func validateRule(r Rule, ra RuleAnswer, recorded []action.Action, o Options) (*Compiled, []Refusal) {
	var refused []Refusal
	refuse := func(i int, format string, args ...any) {
		refused = append(refused, Refusal{Rule: r.ID, Check: i, Why: fmt.Sprintf(format, args...)})
	}
	if ra.Is == "" {
		ra.Is = IsRule // the prompt says to omit it for a rule
	}
	if ra.Is != IsRule && !slices.Contains(otherKinds, ra.Is) {
		refuse(0, "is %q is not one of %s, %s", ra.Is, IsRule, strings.Join(otherKinds, ", "))
		return nil, refused
	}
	c := &Compiled{Rule: r, Is: ra.Is}
	if ra.Is != IsRule {
		if len(ra.Checks) > 0 {
			refuse(0, "a %s has no checks: its %d checks are dropped", ra.Is, len(ra.Checks))
		}
		return c, refused
	}
	switch ra.Do {
	case Do, Dont:
		c.Do = ra.Do
	case "":
	default:
		refuse(0, "do %q is not do or dont: dropped", ra.Do)
	}
	c.Say, refused = keepSay(r, ra.Say, refused)
	for i, ca := range ra.Checks {
		if why := validateCheck(r, ca, recorded, o); why != "" {
			refuse(i+1, "%s", why)
			continue
		}
		ch := ca.Check
		ch.Rule, ch.Quote = "", ""
		ch.From = check.Provenance{By: check.ByConsultant}
		c.Checks = append(c.Checks, ch)
	}
	return c, refused
}

// keepSay keeps the phrasings that do not reuse the rule's key words, when
// at least MinSay are left. The key words are those of the rule as the
// prompt shows it (a long rule is cut there): a consultant cannot avoid
// words it was not shown.
func keepSay(r Rule, say []string, refused []Refusal) ([]string, []Refusal) {
	if len(say) == 0 {
		return nil, refused
	}
	ruleTerms := terms.Distinct(oneLine(r.Text, maxRuleBytes))
	var keep, dropped []string
	reused := 0
	for _, s := range say {
		s = strings.Join(strings.Fields(s), " ")
		if s == "" || len(s) > maxSayBytes || slices.Contains(keep, s) {
			continue
		}
		own, shared := 0, 0
		for t := range terms.Distinct(s) {
			own++
			if _, ok := ruleTerms[t]; ok {
				shared++
			}
		}
		if own == 0 || 2*shared > own {
			reused++
			dropped = append(dropped, fmt.Sprintf("%q", s))
			continue
		}
		keep = append(keep, s)
		if len(keep) == maxSay {
			break
		}
	}
	if len(keep) < MinSay {
		refused = append(refused, Refusal{Rule: r.ID, Why: fmt.Sprintf("%d phrasings left of %d (%d reuse the rule's own words, more than half of theirs, or have none of their own: %s); at least %d are needed: none kept", len(keep), len(say), reused, strings.Join(dropped, ", "), MinSay)})
		return nil, refused
	}
	if reused > 0 {
		refused = append(refused, Refusal{Rule: r.ID, Why: fmt.Sprintf("%d of %d phrasings reuse the rule's own words, more than half of theirs, or have none of their own (%s): dropped, the other %d kept", reused, len(say), strings.Join(dropped, ", "), len(keep))})
	}
	return keep, refused
}

// stepAmong returns the first of calls that runs a command the step
// pattern matches.
func stepAmong(step check.CommandPattern, calls []Call) (string, bool) {
	p, err := check.Prepare(check.Check{Kind: check.Forbid, Command: &step, From: check.Provenance{By: check.ByConsultant}})
	if err != nil {
		return "", false
	}
	for _, c := range calls {
		if c.Run == "" {
			continue
		}
		if act, err := c.Action(); err == nil {
			if _, hit := p.Match(act, check.History{}); hit {
				return c.Run, true
			}
		}
	}
	return "", false
}

// validateCheck says why a check may not be kept, or "".
func validateCheck(r Rule, ca CheckAnswer, recorded []action.Action, o Options) string {
	ca.Check.From = check.Provenance{By: check.ByConsultant}
	if _, err := check.Prepare(ca.Check); err != nil {
		return err.Error()
	}
	// The examples show the breach itself: one call cannot show what the
	// session touched before it, so the condition is left out of them.
	bare := ca.Check
	bare.When = nil
	p, err := check.Prepare(bare)
	if err != nil {
		return err.Error()
	}
	if len(ca.Bad) == 0 {
		return "it has no bad example: give at least one tool call that breaks the rule"
	}
	for i, calls := range [][]Call{ca.Bad, ca.Good} {
		for _, call := range calls {
			act, err := call.Action()
			if err != nil {
				return "an example: " + err.Error()
			}
			if call.Quoted && !strings.Contains(norm(r.Text), norm(call.said())) {
				return fmt.Sprintf("an example marked quoted, %q, is not in the rule", clipped(call.said()))
			}
			_, hit := p.Match(act, check.History{})
			switch {
			case i == 0 && !hit:
				return fmt.Sprintf("it does not match its bad example %q%s", clipped(call.said()), readAs(act))
			case i == 1 && hit:
				return fmt.Sprintf("it matches its good example %q", clipped(call.said()))
			}
		}
	}
	if b := p.Check.Before; p.Check.Kind == check.RequireBefore && len(b.Programs) > 0 && b.Programs[0] != "*" {
		// The step it asks for, run first, must satisfy it: else it would
		// fire on every such command, the step run or not.
		words := append(append([]string{b.Programs[0]}, b.Sub...), b.Flags...)
		for _, a := range b.Args {
			if !strings.ContainsAny(a, "*?[") {
				words = append(words, a) // the step as the user runs it: `./lint.sh api`
				break
			}
		}
		step := strings.Join(words, " ")
		if run, ok := stepAmong(*b, ca.Good); ok {
			// A good example that runs the step is the step as the rule
			// runs it (`mvn checkstyle:check@validate` for an argument
			// glob `checkstyle:check*`).
			step = run
		}
		h := check.History{Commands: action.Shell(step, action.Env{}).Commands}
		for _, call := range ca.Bad {
			if act, err := call.Action(); err == nil {
				if _, hit := p.Match(act, h); hit {
					return fmt.Sprintf("it still fires on %q after `%s` ran: its before does not recognise the step it asks for%s", clipped(call.said()), step, readAs(action.Shell(step, action.Env{})))
				}
			}
		}
	}
	if p.Check.Command != nil && len(recorded) >= o.MinRecorded {
		n := 0
		for _, act := range recorded {
			if _, hit := p.Match(act, check.History{}); hit {
				n++
			}
		}
		if share := float64(n) / float64(len(recorded)); share > o.MaxShare {
			return fmt.Sprintf("it would have fired on %d of the %d commands recorded (%.0f%%; at most %.0f%%)", n, len(recorded), 100*share, 100*o.MaxShare)
		}
	}
	return ""
}

// norm folds case and spaces, to find an example in a rule.
func norm(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// clipped shortens an example for a message.
func clipped(s string) string { return oneLine(s, 80) }
