package eval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
)

// ConsultFigures count what recorded consultant answers added to an
// evaluation, and what the compiles cost.
type ConsultFigures struct {
	// Files are the rule files with a recorded answer, of Asked.
	Files int `json:"files"`
	Asked int `json:"rule_files"`
	// Rules compiled (is "rule" or not), checks and phrasings kept, and
	// parts refused by validation.
	Rules     int `json:"rules"`
	Checks    int `json:"checks"`
	Phrasings int `json:"phrasings"`
	Refused   int `json:"refused"`
	// Tokens of the prompts (what `rules compile --print-prompt` prints
	// for each file) and of the answers, about 4 bytes a token; Max is the
	// largest file's, with its rule count.
	PromptTokens  int `json:"prompt_tokens"`
	AnswerTokens  int `json:"answer_tokens"`
	MaxFileTokens int `json:"max_file_tokens"`
	MaxFileRules  int `json:"max_file_rules"`
	Per50RuleFile int `json:"tokens_per_50_rules"` // total tokens scaled to a 50-rule file
	// PerFile is each compile's cost.
	PerFile        []FileTokens `json:"per_file"`
	totalRuleLines int
}

// FileTokens is the cost of one file's compile.
type FileTokens struct {
	File         string `json:"file"`
	Rules        int    `json:"rules"`
	PromptTokens int    `json:"prompt_tokens"`
	AnswerTokens int    `json:"answer_tokens"`
}

// applyConsultant applies the recorded answer for one rule file (its path
// in the answers' directory is answer) to project, when there is one.
// prompt is the rule file as the evaluation imported it, for the prompt's
// size.
func applyConsultant(ctx context.Context, k *kb.KB, project, ruleFile, answer string, f *ConsultFigures) error {
	f.Asked++
	files, err := k.RulesToCompile(ctx, project, true)
	if err != nil {
		return err
	}
	held := false
	rel, err := filepath.Rel(project, ruleFile)
	if err != nil {
		rel = ruleFile
	}
	for _, rf := range files {
		// The file as the project lists it, relative to its root: a nested
		// file the sync does not read (`.hooks/CLAUDE.md`) is not the
		// root's CLAUDE.md.
		held = held || rf.File == ruleFile || rf.File == filepath.ToSlash(rel)
	}
	if !held {
		return nil // not a rule file the project syncs
	}
	data, err := os.ReadFile(answer)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	ans, err := consult.Parse(data)
	if err != nil {
		return fmt.Errorf("%s: %w", answer, err)
	}
	rep, err := k.ApplyCompile(ctx, project, ans, kb.ApplyOptions{})
	if err != nil {
		return fmt.Errorf("apply %s: %w", answer, err)
	}
	src, err := os.ReadFile(ruleFile)
	if err != nil {
		return err
	}
	rules, err := kb.FileRules(ruleFile, src)
	if err != nil {
		return err
	}
	pt, at := clip.Tokens(consult.Prompt(filepath.Base(ruleFile), rules)), clip.Tokens(string(data))
	f.Files++
	f.Rules += rep.Rules
	f.Checks += rep.Checks
	f.Phrasings += rep.Phrasing
	f.Refused += len(rep.Refused)
	f.PromptTokens += pt
	f.AnswerTokens += at
	f.totalRuleLines += len(rules)
	f.PerFile = append(f.PerFile, FileTokens{File: filepath.Base(filepath.Dir(answer)) + "/" + filepath.Base(answer), Rules: len(rules), PromptTokens: pt, AnswerTokens: at})
	if pt+at > f.MaxFileTokens {
		f.MaxFileTokens, f.MaxFileRules = pt+at, len(rules)
	}
	if f.totalRuleLines > 0 {
		f.Per50RuleFile = (f.PromptTokens + f.AnswerTokens) * 50 / f.totalRuleLines
	}
	return nil
}

// PooledFigures are figures over several rules sets, each weighted by its
// scenarios of that kind: a set holds a violating and a complying plan for
// each of its rules, and its other scenarios are unrelated.
type PooledFigures struct {
	Sets             int             `json:"sets"`
	Rules            int             `json:"rules"`
	Scenarios        int             `json:"scenarios"`
	RecallHit3       float64         `json:"recall_hit_at_3"`
	CautionViolates  float64         `json:"appraise_caution_on_violates"`
	CautionComplies  float64         `json:"appraise_caution_on_complies"`
	AffirmComplies   float64         `json:"appraise_affirm_on_complies"`
	AbstainUnrelated float64         `json:"appraise_abstain_on_unrelated"`
	AbstainRules     float64         `json:"appraise_abstain_on_rule_scenarios"`
	Consultant       *ConsultFigures `json:"consultant,omitempty"`
}

// Pool pools the figures of several sets.
func Pool(reps []RulesReport) PooledFigures {
	var p PooledFigures
	var unrelated float64
	var sum PooledFigures
	for _, r := range reps {
		n, u := float64(r.Rules), float64(r.Scenarios-2*r.Rules)
		p.Sets++
		p.Rules += r.Rules
		p.Scenarios += r.Scenarios
		unrelated += u
		sum.RecallHit3 += r.RecallHit3 * 2 * n
		sum.CautionViolates += r.CautionViolates * n
		sum.CautionComplies += r.CautionComplies * n
		sum.AffirmComplies += r.AffirmComplies * n
		sum.AbstainUnrelated += r.AbstainUnrelated * u
		sum.AbstainRules += r.AbstainRules * 2 * n
		if c := r.Consultant; c != nil {
			if p.Consultant == nil {
				p.Consultant = &ConsultFigures{}
			}
			pc := p.Consultant
			pc.Files += c.Files
			pc.Asked += c.Asked
			pc.Rules += c.Rules
			pc.Checks += c.Checks
			pc.Phrasings += c.Phrasings
			pc.Refused += c.Refused
			pc.PromptTokens += c.PromptTokens
			pc.AnswerTokens += c.AnswerTokens
			pc.totalRuleLines += c.totalRuleLines
			pc.PerFile = append(pc.PerFile, c.PerFile...)
			if c.MaxFileTokens > pc.MaxFileTokens {
				pc.MaxFileTokens, pc.MaxFileRules = c.MaxFileTokens, c.MaxFileRules
			}
		}
	}
	if pc := p.Consultant; pc != nil && pc.totalRuleLines > 0 {
		pc.Per50RuleFile = (pc.PromptTokens + pc.AnswerTokens) * 50 / pc.totalRuleLines
	}
	if n := float64(p.Rules); n > 0 {
		p.RecallHit3 = metric.Round4(sum.RecallHit3 / (2 * n))
		p.CautionViolates = metric.Round4(sum.CautionViolates / n)
		p.CautionComplies = metric.Round4(sum.CautionComplies / n)
		p.AffirmComplies = metric.Round4(sum.AffirmComplies / n)
		p.AbstainRules = metric.Round4(sum.AbstainRules / (2 * n))
	}
	if unrelated > 0 {
		p.AbstainUnrelated = metric.Round4(sum.AbstainUnrelated / unrelated)
	}
	return p
}
