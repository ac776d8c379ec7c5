// Package eval measures innate-mcp on the shared evaluation data: each
// function here builds what it measures through the same calls a user's
// agent makes (import, recall, appraise) and returns the figures as plain
// data for the command to print.
package eval

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/internal/split"
	"github.com/innate-mcp/innate-mcp/kb"
)

// RuleScenario is one line of the rules set's scenarios.jsonl: a situation
// in a project, a candidate plan, and whether the plan breaks the rule,
// follows it, or no rule of the project covers the situation.
type RuleScenario struct {
	ID          string `json:"id"`
	Project     string `json:"project"`
	Kind        string `json:"kind"` // violates, complies, unrelated
	Rule        string `json:"rule"` // verbatim text of the project's rule file ("" when unrelated)
	Query       string `json:"query"`
	Candidate   string `json:"candidate"`
	Paraphrased bool   `json:"paraphrased"`
}

// The kinds of rule scenarios.
const (
	KindViolates  = "violates"
	KindComplies  = "complies"
	KindUnrelated = "unrelated"
)

// RulesOptions configures Rules.
type RulesOptions struct {
	// Noise, when not empty, is imported as global lessons before the
	// projects' rule files (the cursorrules corpus in the README).
	Noise []kb.NewLesson
	// Dump, when not nil, receives one JSON line per scenario with what
	// recall and appraise returned, for analysis.
	Dump io.Writer
	// Progress, when not nil, is told how far the run is.
	Progress func(stage string, done, total int)
	// Consultant, when set, is a directory of recorded consultant answers,
	// <rule file's name>.json, applied after each file is imported.
	Consultant string
}

// RuleFigures are the figures of the rules set over a set of projects.
type RuleFigures struct {
	Projects  int `json:"projects"`
	Scenarios int `json:"scenarios"`
	Rules     int `json:"rules"` // distinct (project, rule, query) situations a rule covers

	RecallHit3            float64 `json:"recall_hit_at_3"`
	RecallHit3Paraphrased float64 `json:"recall_hit_at_3_paraphrased"`
	RecallHit3Literal     float64 `json:"recall_hit_at_3_literal"`
	RecallEmptyCovered    int     `json:"recall_empty_when_a_rule_covers"`
	RecallEmptyUnrelated  float64 `json:"recall_empty_rate_unrelated"`
	// RankHit3 is hit@3 of the fused ranking without recall's floor, for
	// diagnosis: what the floor costs.
	RankHit3 float64 `json:"rank_hit_at_3_no_floor"`

	CautionViolates  float64 `json:"appraise_caution_on_violates"`
	CautionComplies  float64 `json:"appraise_caution_on_complies"`
	AffirmComplies   float64 `json:"appraise_affirm_on_complies"`
	AbstainUnrelated float64 `json:"appraise_abstain_on_unrelated"`
	AbstainRules     float64 `json:"appraise_abstain_on_rule_scenarios"`
	// RuleCited is the share of cautions on violates whose flagged points
	// come from the scenario's rule.
	RuleCited float64 `json:"caution_cites_the_rule"`
	// ReadHit3 is, for diagnosis, the share of violates whose rule is among
	// the first three lessons of the ranking appraise reads (situation and
	// candidate); CautionWhenRead the caution on those violates.
	ReadHit3        float64 `json:"appraise_rule_in_first_3_on_violates"`
	CautionWhenRead float64 `json:"caution_on_violates_when_rule_in_first_3"`
}

// RulesReport holds the figures of the rules set: over every project, and
// over the two halves of the projects (split.Half of the project name), of
// which only Tune may be looked at when choosing a constant.
type RulesReport struct {
	RuleFigures
	Lessons int `json:"lessons"`
	Noise   int `json:"noise_lessons,omitempty"`
	// Missing counts scenario rules no imported lesson holds: the parser
	// lost them, and recall cannot find them.
	Missing int         `json:"rules_not_imported"`
	Tune    RuleFigures `json:"tune"`
	Check   RuleFigures `json:"check"`
	// Consultant counts the recorded consultant answers applied.
	Consultant *ConsultFigures `json:"consultant,omitempty"`
}

// ReadRuleScenarios reads scenarios.jsonl.
func ReadRuleScenarios(path string) ([]RuleScenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []RuleScenario
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var s RuleScenario
		if err := json.Unmarshal([]byte(b), &s); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, line, err)
		}
		switch s.Kind {
		case KindViolates, KindComplies, KindUnrelated:
		default:
			return nil, fmt.Errorf("%s line %d: unknown kind %q", path, line, s.Kind)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// ruleOutcome is what recall and appraise did with one scenario.
type ruleOutcome struct {
	s RuleScenario
	// first is set on the first scenario of each (project, rule, query):
	// recall figures count situations, not scenarios.
	first              bool
	recallHit, rankHit bool
	recallEmpty        bool
	// readHit is set when the rule is among the first three lessons of the
	// ranking appraise reads (situation and candidate), for violates.
	readHit              bool
	valence              string
	abstained, citesRule bool
}

// Rules runs the rules set in dir (rules/<project>.md and scenarios.jsonl)
// against k, which should be a fresh knowledge base: it imports every rule
// file under its project (and opts.Noise globally first), then calls recall
// and appraise for every scenario as an agent would.
func Rules(ctx context.Context, k *kb.KB, dir string, opts RulesOptions) (RulesReport, error) {
	var rep RulesReport
	scenarios, err := ReadRuleScenarios(filepath.Join(dir, "scenarios.jsonl"))
	if err != nil {
		return rep, err
	}
	progress := opts.Progress
	if progress == nil {
		progress = func(string, int, int) {}
	}
	if len(opts.Noise) > 0 {
		r, err := k.Add(ctx, opts.Noise, func(done int) { progress("noise", done, len(opts.Noise)) })
		if err != nil {
			return rep, fmt.Errorf("import noise: %w", err)
		}
		rep.Noise = r.Added
	}
	files, err := filepath.Glob(filepath.Join(dir, "rules", "*.md"))
	if err != nil {
		return rep, err
	}
	if len(files) == 0 {
		return rep, fmt.Errorf("no rule files in %s", filepath.Join(dir, "rules"))
	}
	sort.Strings(files)
	for i, f := range files {
		project := strings.TrimSuffix(filepath.Base(f), ".md")
		data, err := os.ReadFile(f)
		if err != nil {
			return rep, err
		}
		r, err := k.ImportRuleFile(ctx, f, project, data)
		if err != nil {
			return rep, fmt.Errorf("import %s: %w", f, err)
		}
		rep.Lessons += r.Added
		if opts.Consultant != "" {
			if rep.Consultant == nil {
				rep.Consultant = &ConsultFigures{}
			}
			if err := applyConsultant(ctx, k, project, f, filepath.Join(opts.Consultant, filepath.Base(f)+".json"), rep.Consultant); err != nil {
				return rep, err
			}
		}
		progress("import", i+1, len(files))
	}
	texts := map[string][]string{} // project → its lessons' texts, normalised
	err = k.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
		if l.Project != "" {
			texts[l.Project] = append(texts[l.Project], norm(l.Content+"\n"+l.Trigger))
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	var enc *json.Encoder
	if opts.Dump != nil {
		enc = json.NewEncoder(opts.Dump)
		enc.SetEscapeHTML(false)
	}
	seen := map[string]bool{}
	missing := map[string]bool{}
	outcomes := make([]ruleOutcome, 0, len(scenarios))
	for i, s := range scenarios {
		progress("scenarios", i, len(scenarios))
		o, d, err := runScenario(ctx, k, s, opts.Dump != nil)
		if err != nil {
			return rep, fmt.Errorf("scenario %s: %w", s.ID, err)
		}
		if s.Kind != KindUnrelated {
			key := s.Project + "\x00" + s.Rule + "\x00" + s.Query
			o.first = !seen[key]
			seen[key] = true
			if o.first && !anyHolds(texts[s.Project], norm(s.Rule)) {
				missing[key] = true
			}
		}
		outcomes = append(outcomes, o)
		if enc != nil {
			if err := enc.Encode(d); err != nil {
				return rep, err
			}
		}
	}
	progress("scenarios", len(scenarios), len(scenarios))
	rep.RuleFigures = summariseRules(outcomes, func(string) bool { return true })
	rep.Tune = summariseRules(outcomes, func(p string) bool { return split.Half(p) == split.Tune })
	rep.Check = summariseRules(outcomes, func(p string) bool { return split.Half(p) == split.Check })
	rep.Missing = len(missing)
	return rep, nil
}

// runScenario recalls and appraises one scenario. With dump it also ranks
// the situation (and the situation with the candidate) without recall's
// floor and returns a record of everything for analysis.
func runScenario(ctx context.Context, k *kb.KB, s RuleScenario, dump bool) (ruleOutcome, map[string]any, error) {
	o := ruleOutcome{s: s}
	rule := norm(s.Rule)
	holds := func(content, trigger string) bool {
		return rule != "" && strings.Contains(norm(content+"\n"+trigger), rule)
	}
	rec, err := k.Recall(ctx, kb.RecallRequest{Query: s.Query, Project: s.Project})
	if err != nil {
		return o, nil, fmt.Errorf("recall: %w", err)
	}
	ap, err := k.Appraise(ctx, kb.AppraiseRequest{Query: s.Query, Candidate: s.Candidate, Project: s.Project, Session: s.ID})
	if err != nil {
		return o, nil, fmt.Errorf("appraise: %w", err)
	}
	found := -1
	for j, l := range rec.Lessons {
		if holds(l.Content, l.Trigger) {
			found = j
			break
		}
	}
	o.recallHit, o.recallEmpty = found >= 0 && found < 3, rec.Empty
	o.valence, o.abstained = string(ap.Valence), ap.Abstained
	for _, p := range ap.FlaggedPoints {
		if l, err := k.Lesson(ctx, p.LessonID); err == nil && holds(l.Content, l.Trigger) {
			o.citesRule = true
		}
	}
	rankPos, ranked, err := rankOf(ctx, k, kb.Situation{Query: s.Query, Project: s.Project}, holds)
	if err != nil {
		return o, nil, err
	}
	o.rankHit = rankPos >= 0 && rankPos < 3
	var apPos int
	var apRanked []kb.Scored
	if s.Kind == KindViolates || dump {
		if apPos, apRanked, err = rankOf(ctx, k, kb.Situation{Query: s.Query + "\n" + s.Candidate, Project: s.Project}, holds); err != nil {
			return o, nil, err
		}
		o.readHit = apPos >= 0 && apPos < 3
	}
	if !dump {
		return o, nil, nil
	}
	var top []map[string]any
	for j, sc := range ranked {
		if j == 5 {
			break
		}
		top = append(top, map[string]any{"id": sc.Lesson.ID, "resonance": metric.Round4(sc.Breakdown.Resonance),
			"score": metric.Round4(sc.Score), "lexical": metric.Round4(sc.Breakdown.Lexical), "content": metric.Round4(sc.Breakdown.Content),
			"trigger": metric.Round4(sc.Breakdown.Trigger), "holds_rule": holds(sc.Lesson.Content, sc.Lesson.Trigger),
			"project": sc.Lesson.Project, "text": clip.Line(sc.Lesson.Content, 120)})
	}
	finding, apRes := "", 0.0
	if apPos >= 0 {
		l := apRanked[apPos]
		apRes = metric.Round4(l.Breakdown.Resonance)
		if l.Lesson.Directive != nil {
			finding = string(directive.Check(*l.Lesson.Directive, s.Candidate).Result)
		}
	}
	var apTop []map[string]any
	for j, sc := range apRanked {
		if j == 3 {
			break
		}
		f := ""
		if sc.Lesson.Directive != nil {
			f = string(directive.Check(*sc.Lesson.Directive, s.Candidate).Result)
		}
		apTop = append(apTop, map[string]any{"resonance": metric.Round4(sc.Breakdown.Resonance), "score": metric.Round4(sc.Score),
			"finding": f, "holds_rule": holds(sc.Lesson.Content, sc.Lesson.Trigger), "text": clip.Line(sc.Lesson.Content, 80)})
	}
	var recalled []map[string]any
	for _, l := range rec.Lessons {
		recalled = append(recalled, map[string]any{"id": l.ID, "score": l.Score, "resonance": l.Breakdown.Resonance,
			"holds_rule": holds(l.Content, l.Trigger), "text": clip.Line(l.Content, 120)})
	}
	return o, map[string]any{
		"id": s.ID, "kind": s.Kind, "paraphrased": s.Paraphrased, "rule": s.Rule, "query": s.Query,
		"candidate": s.Candidate, "recall_found": found, "recall": recalled, "rank_pos": rankPos, "rank_top": top,
		"appraise_rank_pos": apPos, "appraise_rank_resonance": apRes, "target_finding": finding, "appraise_top": apTop,
		"valence": ap.Valence, "abstained": ap.Abstained, "abstain_reason": ap.AbstainReason,
		"strength": ap.Strength, "flagged": ap.FlaggedPoints, "contributors": ap.Contributors,
	}, nil
}

// rankOf ranks a situation without recall's floor (other projects'
// lessons only on a strong match, as recall has them) and returns the
// position of the first lesson that holds the rule (-1 when none does).
func rankOf(ctx context.Context, k *kb.KB, sit kb.Situation, holds func(content, trigger string) bool) (int, []kb.Scored, error) {
	all, err := k.Rank(ctx, sit)
	if err != nil {
		return -1, nil, err
	}
	strong := k.Weights().StrongMatch
	var ranked, others []kb.Scored
	for _, sc := range all {
		switch {
		case sc.OtherProject && sc.Breakdown.Resonance < strong:
		case sc.Lesson.Project == sit.Project || sc.Lesson.Project == "" && sc.Lesson.Origin == kb.OriginUserStated:
			ranked = append(ranked, sc) // the situation's own lessons come first, as in recall
		default:
			others = append(others, sc)
		}
	}
	ranked = append(ranked, others...)
	for j, sc := range ranked {
		if holds(sc.Lesson.Content, sc.Lesson.Trigger) {
			return j, ranked, nil
		}
	}
	return -1, ranked, nil
}

// summariseRules computes the figures over the scenarios of the projects in.
func summariseRules(os []ruleOutcome, in func(project string) bool) RuleFigures {
	var f RuleFigures
	var hit3, hitPara, hitLit, rank3, violates, unrelated, ruleScen, affirm, cautionComplies, emptyUnrelated, cited, read3, cautionRead counts
	projects := map[string]bool{}
	for _, o := range os {
		if !in(o.s.Project) {
			continue
		}
		projects[o.s.Project] = true
		f.Scenarios++
		caution := !o.abstained && o.valence == "caution"
		if o.s.Kind != KindUnrelated {
			if o.first {
				f.Rules++
				hit3.add(o.recallHit)
				if o.s.Paraphrased {
					hitPara.add(o.recallHit)
				} else {
					hitLit.add(o.recallHit)
				}
				rank3.add(o.rankHit)
				if o.recallEmpty {
					f.RecallEmptyCovered++
				}
			}
			ruleScen.add(o.abstained)
		}
		switch o.s.Kind {
		case KindViolates:
			violates.add(caution)
			if caution {
				cited.add(o.citesRule)
			}
			read3.add(o.readHit)
			if o.readHit {
				cautionRead.add(caution)
			}
		case KindComplies:
			cautionComplies.add(caution)
			affirm.add(!o.abstained && o.valence == "affirm")
		case KindUnrelated:
			unrelated.add(o.abstained)
			emptyUnrelated.add(o.recallEmpty)
		}
	}
	f.Projects = len(projects)
	f.RecallHit3, f.RecallHit3Paraphrased, f.RecallHit3Literal = hit3.share(), hitPara.share(), hitLit.share()
	f.RankHit3, f.RecallEmptyUnrelated = rank3.share(), emptyUnrelated.share()
	f.CautionViolates, f.CautionComplies, f.AffirmComplies = violates.share(), cautionComplies.share(), affirm.share()
	f.AbstainUnrelated, f.AbstainRules, f.RuleCited = unrelated.share(), ruleScen.share(), cited.share()
	f.ReadHit3, f.CautionWhenRead = read3.share(), cautionRead.share()
	return f
}

// counts is a share: how many of n hit.
type counts struct{ n, hit int }

func (c *counts) add(hit bool) {
	c.n++
	if hit {
		c.hit++
	}
}

func (c counts) share() float64 {
	if c.n == 0 {
		return 0
	}
	return metric.Round4(float64(c.hit) / float64(c.n))
}

func anyHolds(texts []string, rule string) bool {
	for _, t := range texts {
		if strings.Contains(t, rule) {
			return true
		}
	}
	return false
}

// norm lower-cases text, drops Markdown emphasis and collapses white space,
// so that a rule quoted from a file is found in the lesson parsed from it.
func norm(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("**", "", "__", "").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimRight(s, " .:;,")
}
