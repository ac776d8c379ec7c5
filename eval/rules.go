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
}

// RulesReport holds the figures of the rules set (see the issue "rules
// that bite" and the README's measured figures).
type RulesReport struct {
	Projects  int `json:"projects"`
	Lessons   int `json:"lessons"`
	Noise     int `json:"noise_lessons,omitempty"`
	Scenarios int `json:"scenarios"`
	Rules     int `json:"rules"` // distinct (project, rule, query) situations a rule covers
	// Missing counts scenario rules no imported lesson holds: the parser
	// lost them, and recall cannot find them.
	Missing int `json:"rules_not_imported"`

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
	// quote the scenario's rule.
	RuleCited float64 `json:"caution_quotes_the_rule"`
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
	texts := map[string][]string{} // project → its lessons' texts, normalised
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
		progress("import", i+1, len(files))
	}
	rep.Projects = len(files)
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
	var hit3, hitPara, hitLit, rank3 counts
	var violates, unrelated, ruleScen counts
	var affirm, cautionComplies, recallEmptyUnrelated, cited counts
	seen := map[string]bool{}
	missing := map[string]bool{}
	for i, s := range scenarios {
		progress("scenarios", i, len(scenarios))
		rule := norm(s.Rule)
		holds := func(content, trigger string) bool {
			return rule != "" && strings.Contains(norm(content+"\n"+trigger), rule)
		}
		rec, err := k.Recall(ctx, kb.RecallRequest{Query: s.Query, Project: s.Project})
		if err != nil {
			return rep, fmt.Errorf("scenario %s: recall: %w", s.ID, err)
		}
		ap, err := k.Appraise(ctx, kb.AppraiseRequest{Query: s.Query, Candidate: s.Candidate, Project: s.Project, Session: s.ID})
		if err != nil {
			return rep, fmt.Errorf("scenario %s: appraise: %w", s.ID, err)
		}
		found := -1
		for j, l := range rec.Lessons {
			if holds(l.Content, l.Trigger) {
				found = j
				break
			}
		}
		rankPos := -1
		var rankTop []map[string]any
		if opts.Dump != nil {
			ranked, err := k.Rank(ctx, kb.Situation{Query: s.Query, Project: s.Project})
			if err != nil {
				return rep, err
			}
			for j, sc := range ranked {
				if j == 5 {
					break
				}
				rankTop = append(rankTop, map[string]any{"id": sc.Lesson.ID, "resonance": round4(sc.Breakdown.Resonance),
					"score": round4(sc.Score), "lexical": round4(sc.Breakdown.Lexical), "content": round4(sc.Breakdown.Content),
					"trigger": round4(sc.Breakdown.Trigger), "holds_rule": holds(sc.Lesson.Content, sc.Lesson.Trigger),
					"project": sc.Lesson.Project, "tier": sc.Lesson.Tier})
			}
		}
		apPos, apRes, apFinding := -1, 0.0, ""
		if opts.Dump != nil && s.Kind != KindUnrelated {
			ranked, err := k.Rank(ctx, kb.Situation{Query: s.Query + "\n" + s.Candidate, Project: s.Project})
			if err != nil {
				return rep, err
			}
			for j, sc := range ranked {
				if holds(sc.Lesson.Content, sc.Lesson.Trigger) {
					apPos, apRes = j, round4(sc.Breakdown.Resonance)
					if sc.Lesson.Directive != nil {
						apFinding = string(directive.Check(*sc.Lesson.Directive, s.Candidate).Result)
					}
					break
				}
			}
		}
		if s.Kind != KindUnrelated {
			key := s.Project + "\x00" + s.Rule + "\x00" + s.Query
			if !seen[key] {
				seen[key] = true
				rep.Rules++
				imported := false
				for _, t := range texts[s.Project] {
					if strings.Contains(t, rule) {
						imported = true
						break
					}
				}
				if !imported {
					missing[key] = true
				}
				ranked, err := k.Rank(ctx, kb.Situation{Query: s.Query, Project: s.Project})
				if err != nil {
					return rep, err
				}
				for j, sc := range ranked {
					if holds(sc.Lesson.Content, sc.Lesson.Trigger) {
						rankPos = j
						break
					}
				}
				hit := found >= 0 && found < 3
				add(&hit3, hit)
				if s.Paraphrased {
					add(&hitPara, hit)
				} else {
					add(&hitLit, hit)
				}
				add(&rank3, rankPos >= 0 && rankPos < 3)
				if rec.Empty {
					rep.RecallEmptyCovered++
				}
			}
			add(&ruleScen, ap.Abstained)
		}
		caution := !ap.Abstained && ap.Valence == "caution"
		switch s.Kind {
		case KindViolates:
			add(&violates, caution)
			if caution {
				q := false
				for _, p := range ap.FlaggedPoints {
					q = q || strings.Contains(norm(p.Summary), rule) || holdsID(ctx, k, p.LessonID, holds)
				}
				add(&cited, q)
			}
		case KindComplies:
			add(&cautionComplies, caution)
			add(&affirm, !ap.Abstained && ap.Valence == "affirm")
		case KindUnrelated:
			add(&unrelated, ap.Abstained)
			add(&recallEmptyUnrelated, rec.Empty)
		}
		if enc != nil {
			type lesson struct {
				ID      string  `json:"id"`
				Score   float64 `json:"score"`
				Res     float64 `json:"resonance"`
				Holds   bool    `json:"holds_rule,omitempty"`
				Content string  `json:"content"`
			}
			var ls []lesson
			for _, l := range rec.Lessons {
				ls = append(ls, lesson{l.ID, l.Score, l.Breakdown.Resonance, holds(l.Content, l.Trigger), clipText(l.Content, 160)})
			}
			if err := enc.Encode(map[string]any{
				"id": s.ID, "kind": s.Kind, "paraphrased": s.Paraphrased, "rule": s.Rule, "query": s.Query,
				"candidate": s.Candidate, "recall_found": found, "rank_pos": rankPos, "recall": ls, "rank_top": rankTop, "appraise_rank_pos": apPos, "appraise_rank_resonance": apRes, "target_finding": apFinding,
				"valence": ap.Valence, "abstained": ap.Abstained, "abstain_reason": ap.AbstainReason,
				"strength": ap.Strength, "flagged": ap.FlaggedPoints, "contributors": ap.Contributors,
			}); err != nil {
				return rep, err
			}
		}
	}
	progress("scenarios", len(scenarios), len(scenarios))
	rep.Scenarios = len(scenarios)
	rep.Missing = len(missing)
	rep.RecallHit3 = share(hit3)
	rep.RecallHit3Paraphrased = share(hitPara)
	rep.RecallHit3Literal = share(hitLit)
	rep.RankHit3 = share(rank3)
	rep.RecallEmptyUnrelated = share(recallEmptyUnrelated)
	rep.CautionViolates = share(violates)
	rep.CautionComplies = share(cautionComplies)
	rep.AffirmComplies = share(affirm)
	rep.AbstainUnrelated = share(unrelated)
	rep.AbstainRules = share(ruleScen)
	rep.RuleCited = share(cited)
	return rep, nil
}

// holdsID reports whether the lesson with id holds the rule.
func holdsID(ctx context.Context, k *kb.KB, id string, holds func(content, trigger string) bool) bool {
	l, err := k.Lesson(ctx, id)
	return err == nil && holds(l.Content, l.Trigger)
}

// counts is a share: how many of n hit.
type counts struct{ n, hit int }

func add(c *counts, hit bool) {
	c.n++
	if hit {
		c.hit++
	}
}

func share(c counts) float64 {
	if c.n == 0 {
		return 0
	}
	return round4(float64(c.hit) / float64(c.n))
}

// norm lower-cases text, drops Markdown emphasis and collapses white space,
// so that a rule quoted from a file is found in the lesson parsed from it.
func norm(s string) string {
	s = strings.ToLower(s)
	s = strings.NewReplacer("**", "", "__", "").Replace(s)
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimRight(s, " .:;,")
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && (s[n]&0xC0) == 0x80 {
		n--
	}
	return s[:n] + "…"
}

// round4 rounds to four decimal places.
func round4(x float64) float64 { return float64(int64(x*10000+0.5)) / 10000 }
