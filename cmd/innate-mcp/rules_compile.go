package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// compileOpts are the flags of `rules compile`.
type compileOpts struct {
	printPrompt bool
	apply       string
	all         bool
	file        string
	active      bool
	run         bool
	ruleFile    string
}

// compilePlan is one prompt `rules compile` would give a consultant.
type compilePlan struct {
	File         string `json:"file"`
	Rules        int    `json:"rules"`
	PromptTokens int    `json:"prompt_tokens"`
	Prompt       string `json:"prompt,omitempty"`
	// Schema is the answer's JSON schema, for a consultant that takes one
	// apart from the prompt (the prompt ends with its shape).
	Schema json.RawMessage `json:"schema,omitempty"`
}

// compileRules prints the prompts a consultant answers for the project's
// rule files, or applies an answer.
func (m *Main) compileRules(ctx context.Context, a *app, o rulesOpts, stdin io.Reader, stdout io.Writer) error {
	c := o.compile
	if c.apply != "" {
		return m.applyCompile(ctx, a, o, stdin, stdout)
	}
	files, err := a.kb.RulesToCompile(ctx, o.project, c.all)
	if err != nil {
		return err
	}
	files = filterFiles(files, c.file)
	if c.run {
		return m.runConsultant(ctx, a, o, files, stdout)
	}
	var plans []compilePlan
	for _, f := range files {
		p := consult.Prompt(f.File, f.Rules)
		pl := compilePlan{File: f.File, Rules: len(f.Rules), PromptTokens: clip.Tokens(p)}
		if c.printPrompt {
			pl.Prompt, pl.Schema = p, json.RawMessage(consult.Schema)
		}
		plans = append(plans, pl)
	}
	switch {
	case o.json:
		if plans == nil {
			plans = []compilePlan{}
		}
		return writeJSON(stdout, plans)
	case c.printPrompt:
		if len(plans) == 0 {
			fmt.Fprintln(os.Stderr, "nothing to compile: every rule has a compile of its current text (--all also takes the rules the built-in reader compiled)")
		}
		for i, p := range plans {
			if len(plans) > 1 {
				if i > 0 {
					fmt.Fprintln(stdout)
				}
				fmt.Fprintf(stdout, "=== %s: %d rules, about %d tokens (answer each file's prompt on its own) ===\n", p.File, p.Rules, p.PromptTokens)
			}
			fmt.Fprint(stdout, p.Prompt)
		}
		return nil
	}
	if len(plans) == 0 {
		fmt.Fprintf(stdout, "nothing to compile in %s: every rule has a compile of its current text", o.project)
		if !c.all {
			fmt.Fprint(stdout, " or a check the built-in reader compiled (--all takes those too)")
		}
		fmt.Fprintln(stdout)
		return nil
	}
	total := 0
	for _, p := range plans {
		fmt.Fprintf(stdout, "%s: %d rules to compile, prompt about %d tokens\n", p.File, p.Rules, p.PromptTokens)
		total += p.Rules
	}
	fmt.Fprintf(stdout, "\n%d rules. Print the prompt with --print-prompt [--file FILE], give it to a consultant, and store its answer with --apply ANSWER.json; or --run the configured consultant.\n", total)
	return nil
}

// filterFiles keeps the rule file named file (as listed, or by its base
// name); all of them when file is "".
func filterFiles(files []kb.RuleFile, file string) []kb.RuleFile {
	if file == "" {
		return files
	}
	var out []kb.RuleFile
	for _, f := range files {
		if f.File == file || strings.HasSuffix(f.File, "/"+file) {
			out = append(out, f)
		}
	}
	return out
}

// compileResult is what an apply prints.
type compileResult struct {
	kb.ApplyReport
	PromptTokens int `json:"prompt_tokens"`
	AnswerTokens int `json:"answer_tokens"`
}

// applyCompile validates and stores a consultant's answer.
func (m *Main) applyCompile(ctx context.Context, a *app, o rulesOpts, stdin io.Reader, stdout io.Writer) error {
	var data []byte
	var err error
	if o.compile.apply == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, consult.MaxAnswerBytes+1))
	} else {
		data, err = os.ReadFile(o.compile.apply)
	}
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	res, err := applyAnswer(ctx, a, o, data, m.recordedCommands())
	if err != nil {
		return err
	}
	return printCompileResult(stdout, o.json, res)
}

// applyAnswer applies an answer's bytes, counting the tokens of the
// prompt it answers (its rules' prompt) and of the answer.
func applyAnswer(ctx context.Context, a *app, o rulesOpts, data []byte, recorded []string) (compileResult, error) {
	ans, err := consult.Parse(data)
	if err != nil {
		return compileResult{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	opts := kb.ApplyOptions{Active: o.compile.active, Validate: consult.Options{Recorded: recorded}}
	rep, err := a.kb.ApplyCompile(ctx, o.project, ans, opts)
	if err != nil {
		return compileResult{}, err
	}
	res := compileResult{ApplyReport: rep, AnswerTokens: clip.Tokens(string(data))}
	if len(rep.Named) > 0 {
		// The prompt answered: the one that asks about the rules the
		// answer names.
		res.PromptTokens = clip.Tokens(consult.Prompt(o.compile.file, rep.Named))
	}
	return res, nil
}

func printCompileResult(w io.Writer, asJSON bool, r compileResult) error {
	if asJSON {
		return writeJSON(w, r)
	}
	notRules := 0
	for _, c := range r.Compiled {
		if c.Is != consult.IsRule {
			notRules++
		}
	}
	fmt.Fprintf(w, "kept: %d lines compiled (%d rules, %d not rules), %d checks (reminders until approved, unless --active), %d phrasings\n",
		r.Rules, r.Rules-notRules, notRules, r.Checks, r.Phrasing)
	for _, f := range r.Refused {
		where := f.Rule
		if f.Check > 0 {
			where += fmt.Sprintf(" check %d", f.Check)
		}
		fmt.Fprintf(w, "refused %s: %s\n", where, f.Why)
	}
	fmt.Fprintf(w, "tokens: prompt about %d, answer about %d, total about %d\n", r.PromptTokens, r.AnswerTokens, r.PromptTokens+r.AnswerTokens)
	return nil
}

// printFilePrompt prints the prompt for every rule of one rule file, read
// without a database: what a consultant is given for a file before any
// project holds it (and how the evaluation's answers were asked for).
func printFilePrompt(o rulesOpts, stdout io.Writer) error {
	if !o.compile.printPrompt && !o.json && o.compile.apply == "" {
		return fmt.Errorf("%w: --rule-file goes with --print-prompt, --json or --apply", errUsage)
	}
	data, err := os.ReadFile(o.compile.ruleFile)
	if err != nil {
		return fmt.Errorf("read the rule file: %w", err)
	}
	rules, err := kb.FileRules(o.compile.ruleFile, data)
	if err != nil {
		return err
	}
	if o.compile.apply != "" {
		return checkFileAnswer(o, rules, stdout)
	}
	p := consult.Prompt(filepath.Base(o.compile.ruleFile), rules)
	if o.json {
		return writeJSON(stdout, compilePlan{File: o.compile.ruleFile, Rules: len(rules), PromptTokens: clip.Tokens(p), Prompt: p, Schema: json.RawMessage(consult.Schema)})
	}
	_, err = io.WriteString(stdout, p)
	return err
}

// checkFileAnswer validates an answer for a rule file read without a
// database, and says what would be kept and refused; nothing is stored.
func checkFileAnswer(o rulesOpts, rules []consult.Rule, stdout io.Writer) error {
	data, err := os.ReadFile(o.compile.apply)
	if err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	ans, err := consult.Parse(data)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	res, err := consult.Validate(ans, rules, consult.Options{})
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	r := compileResult{ApplyReport: kb.ApplyReport{Result: res}, AnswerTokens: clip.Tokens(string(data)),
		PromptTokens: clip.Tokens(consult.Prompt(filepath.Base(o.compile.ruleFile), rules))}
	for _, c := range res.Compiled {
		r.Rules++
		r.Checks += len(c.Checks)
		r.Phrasing += len(c.Say)
	}
	if !o.json {
		fmt.Fprintln(stdout, "checked only (--rule-file): nothing is stored")
		if len(res.Missing) > 0 {
			fmt.Fprintf(stdout, "missing: %s\n", strings.Join(res.Missing, " "))
		}
		if len(res.Unknown) > 0 {
			fmt.Fprintf(stdout, "unknown ids: %s\n", strings.Join(res.Unknown, " "))
		}
	}
	return printCompileResult(stdout, o.json, r)
}

// recordedCommands are the shell lines the hooks recorded in the kept
// sessions (none when the hooks' directory cannot be made).
func (m *Main) recordedCommands() []string {
	dir, err := m.hookDir("state")
	if err != nil {
		return nil
	}
	return (&hook.StateDir{Dir: dir}).Recorded()
}
