package kb

import (
	"cmp"
	"context"
	"slices"
	"sync"

	"github.com/innate-mcp/innate-mcp/action"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/directive"
)

// CheckHit is a check an action breaks.
type CheckHit struct {
	Stored StoredCheck `json:"check"`
	Hit    check.Hit   `json:"hit"`
}

// Enforcement is what a project's checks say of one action: the breaches
// to ask about (active checks that match structurally) and those that
// only remind (checks the reader was not sure of, or that the user
// overrode twice). Both empty: say nothing.
type Enforcement struct {
	Ask    []CheckHit `json:"ask,omitempty"`
	Remind []CheckHit `json:"remind,omitempty"`
	// Checked is how many checks were matched.
	Checked int `json:"checked"`
}

// Asks reports whether a check asks of a breach: it is active and either
// a person approved it, or the reader was sure of it and, for a check
// learned from a correction, the agent has already been reminded of it
// once (it repeats the corrected mistake).
func (c StoredCheck) Asks() bool {
	switch {
	case c.State != CheckActive:
		return false
	case c.Approved:
		return true
	case c.Check.RemindOnly:
		return false
	case c.Check.Escalate:
		return c.Fired > 0
	}
	return true
}

// Enforce matches an action, and the session before it, against the
// checks of a project's active lessons and the global ones (CheckFilter):
// a project's answer depends on its own rules and global ones only, and
// on no path outside the project (act's paths are relative to its root).
// Hits are ordered by who made the check (a person first, then a
// consultant, then the reader), then as stored.
func (k *KB) Enforce(ctx context.Context, project string, act action.Action, h check.History) (Enforcement, error) {
	var e Enforcement
	if act.Empty() {
		return e, nil
	}
	stored, err := k.Checks(ctx, CheckFilter{Project: project})
	if err != nil {
		return e, err
	}
	return k.enforce(readAsRules(Enforced(stored), k.notRulesOf(ctx, project)), act, h), nil
}

// notRulesOf is notRuleFor with a failure logged: the hooks and appraise
// then go on as if the consultant had read no line as no rule.
func (k *KB) notRulesOf(ctx context.Context, project string) map[string]bool {
	notRule, err := k.notRuleFor(ctx, project)
	if err != nil {
		k.log.Warn("read the consultant's compiles", "project", project, "err", err)
	}
	return notRule
}

// readAsRules drops the built-in reader's checks of the lines a consultant
// read as no rule (notRule; a description, a map, an example): the
// reader's check of such a line is a misreading, and would ask on work that
// breaks nothing. A person's and a consultant's checks stay.
func readAsRules(cs []StoredCheck, notRule map[string]bool) []StoredCheck {
	if len(notRule) == 0 {
		return cs
	}
	return slices.DeleteFunc(slices.Clone(cs), func(c StoredCheck) bool {
		return c.Check.From.By == check.ByReader && notRule[c.LessonID]
	})
}

// EnforceOn is Enforce over checks already read (Checks, then Enforced),
// for a caller that matches several actions against the same checks.
func (k *KB) EnforceOn(cs []StoredCheck, act action.Action, h check.History) Enforcement {
	return k.enforce(cs, act, h)
}

func (k *KB) enforce(cs []StoredCheck, act action.Action, h check.History) Enforcement {
	var e Enforcement
	if act.Empty() {
		return e
	}
	for _, sc := range cs {
		p, err := k.prepared.get(sc)
		if err != nil {
			k.log.Debug("a stored check does not prepare", "check", sc.ID, "err", err)
			continue
		}
		e.Checked++
		hit, ok := p.Match(act, h)
		if !ok {
			continue
		}
		ch := CheckHit{Stored: sc, Hit: hit}
		if sc.Asks() {
			e.Ask = append(e.Ask, ch)
		} else if sc.State != CheckDisabled {
			e.Remind = append(e.Remind, ch)
		}
	}
	// A person's checks first, then a consultant's; among them, the one
	// that names what the call does (its option, its argument, the text it
	// writes) before one that asks for a form or a step: it is the rule the
	// call breaks most plainly, the one the ask quotes.
	order := func(a, b CheckHit) int {
		return cmp.Or(cmp.Compare(originRank(a.Stored), originRank(b.Stored)), cmp.Compare(specificity(a.Stored.Check), specificity(b.Stored.Check)))
	}
	slices.SortStableFunc(e.Ask, order)
	slices.SortStableFunc(e.Remind, order)
	return e
}

// specificity ranks how plainly a check's match names what a call did: 0
// for an option, an argument or text written, 1 for a program or a path,
// 2 for a form a message lacks or a step missing before.
func specificity(c check.Check) int {
	switch {
	case c.Kind == check.RequireBefore || c.Kind == check.Require:
		return 2
	case c.Command != nil && (len(c.Command.Flags) > 0 || len(c.Command.Lacks) > 0 || len(c.Command.Args) > 0 || len(c.Command.PipeTo) > 0):
		return 0
	case c.Write != nil && c.Write.ReadsText(), c.Message != nil:
		return 0
	}
	return 1
}

func originRank(c StoredCheck) int {
	switch c.Check.From.By {
	case check.ByPerson:
		return 0
	case check.ByConsultant:
		return 1
	}
	return 2
}

// preparedCache keeps stored checks prepared (their regular expressions
// compiled), by id and what they match. Safe for concurrent
// use.
type preparedCache struct {
	mu sync.Mutex
	m  map[string]*check.Prepared
}

// maxPrepared bounds the cache; past it, it starts again.
const maxPrepared = 8192

func (pc *preparedCache) get(sc StoredCheck) (*check.Prepared, error) {
	key := sc.ID + "@" + check.Key(sc.Check)
	pc.mu.Lock()
	p, ok := pc.m[key]
	pc.mu.Unlock()
	if ok {
		return p, nil
	}
	p, err := check.Prepare(sc.Check)
	if err != nil {
		return nil, err
	}
	pc.mu.Lock()
	if pc.m == nil || len(pc.m) >= maxPrepared {
		pc.m = map[string]*check.Prepared{}
	}
	pc.m[key] = p
	pc.mu.Unlock()
	return p, nil
}

// planBreaches matches what a plan says it will run (directive.PlanAction)
// against the project's checks, as the hooks match a tool call: the
// lessons whose checks it breaks, with the breaking command. notRule are
// the lessons a consultant read as no rule (readAsRules). A failure to
// read the checks is logged: appraise goes on with the prose reading.
func (k *KB) planBreaches(ctx context.Context, project, plan, situation string, notRule map[string]bool) (breaches map[string]string, outright map[string]bool) {
	act := directive.PlanActionIn(plan, situation)
	if act.Empty() {
		return nil, nil
	}
	// The code a plan shows is read as the new text of the files it names
	// (directive.PlanWrite): only a check of a write's text reads it, for
	// a plan names files it only reads.
	ran, shown := act, action.Action{Tool: "Write", Parsed: true}
	ran.Writes = nil
	for _, w := range act.Writes {
		if w.By == directive.PlanWrite {
			shown.Writes = append(shown.Writes, w)
		} else {
			ran.Writes = append(ran.Writes, w)
		}
	}
	stored, err := k.Checks(ctx, CheckFilter{Project: project})
	if err != nil {
		k.log.Warn("read the checks for appraise", "err", err)
		return nil, nil
	}
	cs := readAsRules(Enforced(stored), notRule)
	var hits []CheckHit
	// A consultant's check that only reminds still tells appraise that
	// the plan breaks its rule: appraise cautions, it does not interrupt.
	keep := func(e Enforcement, ok func(CheckHit) bool) {
		for _, h := range append(e.Ask, e.Remind...) {
			if (h.Stored.Asks() || h.Stored.Check.From.By == check.ByConsultant) && ok(h) {
				hits = append(hits, h)
			}
		}
	}
	keep(k.enforce(cs, ran, check.History{}), func(CheckHit) bool { return true })
	if len(shown.Writes) > 0 {
		keep(k.enforce(cs, shown, check.History{}), func(h CheckHit) bool {
			return h.Hit.Check.Write != nil && h.Hit.Check.Write.ReadsText()
		})
	}
	for _, h := range hits {
		if breaches == nil {
			breaches, outright = map[string]string{}, map[string]bool{}
		}
		if _, ok := breaches[h.Stored.LessonID]; !ok {
			breaches[h.Stored.LessonID] = h.Hit.Evidence
		}
		// Outright: a breach of what the plan itself does (not a step
		// missing before it), by a check that asks or a consultant's.
		if h.Hit.Check.Kind != check.RequireBefore {
			outright[h.Stored.LessonID] = true
		}
	}
	return breaches, outright
}
