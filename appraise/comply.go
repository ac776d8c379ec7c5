package appraise

import (
	"cmp"
	"slices"
	"strings"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/clip"
)

// ruling is what the applicable rule says of the candidate: the lesson that
// decides, what the candidate does with it, and the valence that follows.
type ruling struct {
	lesson  Lesson
	finding directive.Finding
	valence Valence
	// readOnly is set for a candidate that only reads and reports: no rule
	// can rule on it.
	readOnly bool
}

// decided reports whether a rule ruled on the candidate.
func (r ruling) decided() bool { return r.valence == Affirm || r.valence == Caution }

// applicableRule finds the rule that applies to the candidate and what the
// candidate does with it. The situation's own lessons that direct (package
// directive; Lesson.Own) are read best score first, among those that
// resonate at least Config.RuleFloor (Config.BreachFloor for one the
// candidate breaks by naming what it rules out): the first whose objects the candidate
// does or breaks decides, except that a compliance gives way to one of the
// first breachRules rules whose ruled-out object the candidate names
// outright (namedBreach; a plan that follows one rule and breaks another
// breaks a rule), one of the first
// skipRules whose step the candidate says it goes ahead without
// (directive.Skips) decides as a breach does, and the best of
// them decides by absence ("the plan does not run `make gen`", "it uses
// none of the forbidden tools") when it resonates at least
// Config.RuleApplies and Config.RuleStandout times the next. Another
// project's or an imported global corpus's rules never decide. A rule that only describes
// (directive.Context) never decides.
func applicableRule(in Input, cfg Config) ruling {
	if in.Candidate == "" {
		return ruling{valence: Neutral}
	}
	reading := directive.Read(in.Candidate, in.Patterns).In(in.Situation)
	if !reading.Acts() {
		return ruling{valence: Neutral, readOnly: reading.Looks()}
	}
	var rules []Lesson
	var breached []Lesson
	for _, l := range in.Lessons {
		if !l.Own || l.Directive == nil {
			continue
		}
		if in.Outright[l.ID] {
			breached = append(breached, l)
		}
		if l.Directive.Directs() && l.Resonance >= min(cfg.RuleFloor, cfg.BreachFloor) {
			rules = append(rules, l)
		}
	}
	if len(breached) > 0 {
		// One judgement: a plan that breaks one of the project's checks
		// structurally is a breach however its rule ranks, as the hooks
		// ask before such a call whatever recall would find. A step missing
		// before a command is not: the plan does not show what ran.
		l := slices.MaxFunc(breached, func(a, b Lesson) int { return cmp.Compare(a.Score, b.Score) })
		ev := in.Breaches[l.ID]
		return ruling{lesson: l, finding: directive.Finding{Result: directive.Violates,
			Object: directive.Object{Text: ev, Kind: directive.KindCode}, Evidence: ev}, valence: Caution}
	}
	slices.SortStableFunc(rules, func(a, b Lesson) int {
		if a.Own != b.Own {
			if a.Own {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmpTie(a, b)
	})
	rules = rules[:min(len(rules), count(cfg.RuleCandidates))]
	if len(rules) == 0 {
		return ruling{valence: Neutral}
	}
	var first *ruling
	for i, l := range rules {
		if ev, ok := in.Breaches[l.ID]; ok {
			// One judgement: a check the hooks enforce decides here too.
			return ruling{lesson: l, finding: directive.Finding{Result: directive.Violates,
				Object: directive.Object{Text: ev, Kind: directive.KindCode}, Evidence: ev}, valence: Caution}
		}
		f := reading.Check(*l.Directive)
		if l.Resonance < cfg.RuleFloor && (f.Result != directive.Violates || !namesObject(f)) {
			// A rule that barely resonates decides only on a breach the
			// candidate names outright (`:param x:` against "Google-style
			// docstrings, not reST"): a compliance or an absence there is
			// more likely chance than footing.
			continue
		}
		switch f.Result {
		case directive.Violates:
			return ruling{lesson: l, finding: f, valence: Caution}
		case directive.Complies:
			if v, ok := namedBreach(rules, i, reading); ok {
				return v
			}
			return ruling{lesson: l, finding: f, valence: Affirm}
		case directive.Skips:
			// The plan declines the step the rule requires: the best rules
			// that require a step decide, as a violation does.
			if i < skipRules {
				return ruling{lesson: l, finding: f, valence: Caution}
			}
		case directive.Lacks, directive.Avoids:
			if f.Rival != "" && !describes(l) && i < breachRules {
				// The plan does the rule's job with another thing of the
				// same kind (`LegacyBrowserHarness` where the rule asks for
				// `PageTestHarness`): among the best rules, that is a
				// breach, as a rival tool is.
				return ruling{lesson: l, finding: f, valence: Caution}
			}
			// Absence decides only for a line that is a rule: a map entry
			// or a description (directive.NotARule) asks for nothing.
			if i == 0 && l.Resonance >= cfg.RuleApplies && standsOut(rules, cfg.RuleStandout) && !describes(l) {
				v := Caution
				if f.Result == directive.Avoids {
					v = Affirm
				}
				first = &ruling{lesson: l, finding: f, valence: v}
			}
		}
	}
	if first != nil {
		return *first
	}
	return ruling{valence: Neutral}
}

// describes reports whether a rule's line describes rather than asks: as a
// consultant read it (Lesson.NotRule), or else as the reader reads it, a
// map entry, pasted output or a description (directive.NotARule). A list
// of names under a rule's heading ("Types: `feat`, `fix`") may still be
// what the rule asks for.
func describes(l Lesson) bool {
	if l.NotRule {
		return true
	}
	switch directive.NotARule(l.Content) {
	case "", "list of names":
		return false
	}
	return true
}

// skipRules is how many of the best rules a plan that skips a step is read
// against: the rule that applies is among the first, and a plan that goes
// ahead "right away" is not held to a neighbour's step.
const skipRules = 3

// standsOut reports whether the best rule resonates at least ratio times
// as much as the next one: what a plan leaves out matters only for the rule
// that clearly applies.
func standsOut(rules []Lesson, ratio float64) bool {
	if len(rules) < 2 {
		return true
	}
	return rules[0].Resonance >= ratio*rules[1].Resonance
}

// ruleSummary says which rule the candidate goes against, in the rule's
// own words, and what in the candidate goes against it; it never carries
// the candidate beyond the object in question.
func ruleSummary(r ruling, candidate string) string {
	quote := clip.Bytes(oneLine(ruleText(r.lesson.Content)), maxSummaryBytes)
	obj := clip.Bytes(oneLine(r.finding.Object.Text), 60)
	var s string
	switch r.finding.Result {
	case directive.Lacks:
		s = "Watch out: the rule \"" + quote + "\" asks for `" + obj + "`, which this does not do"
	case directive.Skips:
		s = "Watch out: the rule \"" + quote + "\" asks for `" + obj + "`, and this goes ahead without it (" + clip.Bytes(oneLine(r.finding.Evidence), 40) + ")"
	case directive.Violates:
		if r.finding.Object.Verb == directive.ExtendVerb {
			s = "Watch out: this goes against the rule \"" + quote + "\": a class here extends another base than `" + obj + "`"
			break
		}
		fallthrough
	default:
		if r.finding.Object.Kind == directive.KindPhrase {
			s = "Watch out: this goes against the rule \"" + quote + "\" (" + obj + ")"
		} else {
			s = "Watch out: this goes against the rule \"" + quote + "\": it uses `" + obj + "`"
		}
		for _, o := range r.lesson.Directive.Do {
			if o.Text == r.finding.Object.Text {
				s = "Watch out: this goes against the rule \"" + quote + "\": it declines `" + obj + "`"
			}
		}
	}
	return scrub(s, candidate)
}

// ruleText is the statement of a rule: its first line, without list or
// emphasis marks.
func ruleText(content string) string {
	s := strings.TrimSpace(content)
	if i := strings.Index(s, "```"); i > 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '\n'); i > 0 {
		s = s[:i]
	}
	return strings.TrimSpace(strings.NewReplacer("**", "", "__", "").Replace(s))
}

// namedBreach looks past the complying rule at index i for one of the first
// breachRules rules whose ruled-out object the candidate names outright
// ("test_spill.test" against "Slow tests use `.test_slow` instead of
// `.test`" when "Tests use `.test` files" complies): a plan that follows
// one rule and breaks another breaks a rule. Breaches read from a construct
// the rule names in words, a rival tool or a missing step do not count: they
// are weaker than the compliance in front of them.
func namedBreach(rules []Lesson, i int, reading *directive.Reading) (ruling, bool) {
	for j := i + 1; j < min(len(rules), breachRules); j++ {
		l := rules[j]
		f := reading.Check(*l.Directive)
		if f.Result == directive.Violates && slices.Contains(l.Directive.Dont, f.Object) && namesObject(f) {
			return ruling{lesson: l, finding: f, valence: Caution}, true
		}
	}
	return ruling{}, false
}

// breachRules is how many of the best rules a named breach is looked for
// in.
const breachRules = 3

// namesObject reports whether a finding's evidence holds its object's own
// text, not a construct or a rival read for it.
func namesObject(f directive.Finding) bool {
	o := strings.ToLower(strings.Trim(f.Object.Text, "`*. "))
	return o != "" && strings.Contains(strings.ToLower(f.Evidence), o)
}
