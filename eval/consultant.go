package eval

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/innate-mcp/innate-mcp/consult"
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
	PromptTokens   int `json:"prompt_tokens"`
	AnswerTokens   int `json:"answer_tokens"`
	MaxFileTokens  int `json:"max_file_tokens"`
	MaxFileRules   int `json:"max_file_rules"`
	Per50RuleFile  int `json:"tokens_per_50_rules"` // total tokens scaled to a 50-rule file
	totalRuleLines int
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
	for _, rf := range files {
		held = held || rf.File == ruleFile || strings.HasSuffix(ruleFile, "/"+rf.File)
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
	pt, at := consult.Tokens(consult.Prompt(filepath.Base(ruleFile), rules)), consult.Tokens(string(data))
	f.Files++
	f.Rules += rep.Rules
	f.Checks += rep.Checks
	f.Phrasings += rep.Phrasing
	f.Refused += len(rep.Refused)
	f.PromptTokens += pt
	f.AnswerTokens += at
	f.totalRuleLines += len(rules)
	if pt+at > f.MaxFileTokens {
		f.MaxFileTokens, f.MaxFileRules = pt+at, len(rules)
	}
	if f.totalRuleLines > 0 {
		f.Per50RuleFile = (f.PromptTokens + f.AnswerTokens) * 50 / f.totalRuleLines
	}
	return nil
}
