package kb

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/rulefile"
	"github.com/innate-mcp/innate-mcp/sanitize"
)

// Compile is what a consultant said of one rule, as the knowledge base
// keeps it (in the store's settings, under consultKey): what the line is,
// its phrasings, and who compiled it. Its checks are stored with the
// lesson, with the consultant's provenance.
type Compile struct {
	Rule    string    `json:"rule"` // consult.RuleID of its text
	Project string    `json:"project"`
	Is      string    `json:"is"`
	Do      string    `json:"do,omitempty"`
	Say     []string  `json:"say,omitempty"`
	Checks  int       `json:"checks"`
	Model   string    `json:"model,omitempty"`
	At      time.Time `json:"at"`
}

// consultPrefix opens the keys of compiles; consultRevKey is a project's
// revision of its compiles, which changes with every apply.
const (
	consultPrefix = "consult|"
	consultRevKey = "consult-rev|"
)

func consultKey(project, rule string) string { return consultPrefix + project + "|" + rule }

// ErrNoMeta is returned where compiles are read or written with a store
// that keeps no settings.
var ErrNoMeta = errors.New("this store keeps no settings, so no compiles")

// meta is the store's settings, when it keeps them.
func (k *KB) meta() (MetaStore, bool) {
	m, ok := k.store.(MetaStore)
	return m, ok
}

// RuleFile is one rule file of a project with its rules, as a consultant
// is asked about them.
type RuleFile struct {
	File  string         `json:"file"` // as a person reads it, relative to the project
	Rules []consult.Rule `json:"rules"`
}

// ruleWhen is the context of a rule as its file gives it: a lesson's
// trigger without what the reader added ("about: …"), so that a rule's id
// does not change with the reader's version, and without the directory a
// nested file governs (rulefile.DirPrefix), so that it does not change
// when the file moves: the scope confines the checks when they are stored.
func ruleWhen(trigger string) string {
	if i := strings.Index(trigger, directive.AboutPrefix); i >= 0 {
		trigger = strings.TrimSuffix(strings.TrimSpace(trigger[:i]), ";")
	}
	parts := strings.Split(trigger, "; ")
	parts = slices.DeleteFunc(parts, func(p string) bool { return strings.HasPrefix(strings.TrimSpace(p), rulefile.DirPrefix) })
	return strings.TrimSpace(strings.Join(parts, "; "))
}

// ruleOf is a rule lesson's text as a consultant is asked about it: the one
// place a rule's id is made of its content and trigger.
func ruleOf(content, trigger string) consult.Rule {
	when := ruleWhen(trigger)
	return consult.Rule{ID: consult.RuleID(content, when), Text: content, When: when}
}

// ruleLesson is a rule of a project's rule files with its lesson.
type ruleLesson struct {
	rule   consult.Rule
	file   string
	lesson Lesson
}

// projectRules returns the active rules of a project's rule files, in the
// order of their files and lines.
func (k *KB) projectRules(ctx context.Context, project string) ([]ruleLesson, error) {
	var out []ruleLesson
	err := k.store.Lessons(ctx, LessonFilter{Project: project, States: []State{StateActive}}, func(l Lesson) error {
		if l.Kind != KindRule || l.Origin != OriginUserStated || l.Source == "" || l.Project != project {
			return nil
		}
		file, _, _ := strings.Cut(l.Source, "#")
		if project != "" {
			file = strings.TrimPrefix(file, strings.TrimRight(project, "/")+"/")
		}
		out = append(out, ruleLesson{rule: ruleOf(l.Content, l.Trigger), file: file, lesson: l})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the project's rules: %w", err)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].file != out[j].file {
			return out[i].file < out[j].file
		}
		return out[i].lesson.Source < out[j].lesson.Source
	})
	return out, nil
}

// Compiles returns a project's compiles by rule id.
func (k *KB) Compiles(ctx context.Context, project string) (map[string]Compile, error) {
	m, ok := k.meta()
	if !ok {
		return nil, ErrNoMeta
	}
	kv, err := m.MetaPrefixed(ctx, consultPrefix+project+"|")
	if err != nil {
		return nil, fmt.Errorf("read compiles: %w", err)
	}
	out := make(map[string]Compile, len(kv))
	for key, v := range kv {
		if v == "" {
			continue // removed
		}
		var c Compile
		if err := json.Unmarshal([]byte(v), &c); err != nil {
			k.log.Warn("unreadable compile", "key", key, "err", err)
			continue
		}
		if c.Project == project { // a project whose name extends this one's shares the prefix
			out[c.Rule] = c
		}
	}
	return out, nil
}

// RulesToCompile returns, by file, the rules of a project a consultant is
// to compile: those with no compile of their current text, and, unless
// all, only those the built-in reader gave no check that asks.
func (k *KB) RulesToCompile(ctx context.Context, project string, all bool) ([]RuleFile, error) {
	rules, err := k.projectRules(ctx, project)
	if err != nil {
		return nil, err
	}
	done, err := k.Compiles(ctx, project)
	if err != nil {
		return nil, err
	}
	var out []RuleFile
	seen := map[string]bool{}
	for _, r := range rules {
		if _, ok := done[r.rule.ID]; ok || seen[r.rule.ID] {
			continue
		}
		if !all {
			cs, err := k.Checks(ctx, CheckFilter{Lesson: r.lesson.ID})
			if err != nil {
				return nil, err
			}
			if slices.ContainsFunc(Enforced(cs), StoredCheck.Asks) {
				continue
			}
		}
		seen[r.rule.ID] = true
		if len(out) == 0 || out[len(out)-1].File != r.file {
			out = append(out, RuleFile{File: r.file})
		}
		out[len(out)-1].Rules = append(out[len(out)-1].Rules, r.rule)
	}
	return out, nil
}

// FileRules are the rules of a rule file as a consultant is asked about
// them, read without a knowledge base: every rule, each once (`rules
// compile --rule-file`). A rule the knowledge base would refuse (an
// injection) or merge into a near duplicate is still listed; an answer
// about it is skipped when applied.
func FileRules(path string, data []byte) ([]consult.Rule, error) {
	ls, err := RuleFileLessons(path, "", data)
	if err != nil {
		return nil, err
	}
	var out []consult.Rule
	seen := map[string]bool{}
	for _, nl := range ls {
		content, _ := sanitize.Redact(strings.TrimSpace(nl.Content))
		trigger, _ := sanitize.Redact(strings.TrimSpace(nl.Trigger))
		if r := ruleOf(content, trigger); !seen[r.ID] {
			seen[r.ID] = true
			out = append(out, r)
		}
	}
	return out, nil
}

// ApplyOptions tune ApplyCompile.
type ApplyOptions struct {
	// Validate: the commands recorded and the share of them a check may
	// fire on (consult.Options).
	Validate consult.Options
	// Active stores the consultant's checks asking from the start; by
	// default they only remind until a person approves them.
	Active bool
}

// ApplyReport says what an apply kept and refused.
type ApplyReport struct {
	consult.Result
	Rules    int `json:"rules"`    // rules compiled
	Checks   int `json:"checks"`   // checks stored
	Phrasing int `json:"phrasing"` // phrasings stored
}

// ApplyCompile validates a consultant's answer for rules of a project and
// stores it: each rule's checks (the consultant's, replacing its earlier
// ones) and its compile (what the line is, its phrasings). The answer may
// name any rule of the project's rule files that has no compile of its
// current text, or any at all when it names them again. Nothing is written
// when the answer names a rule the project does not have.
func (k *KB) ApplyCompile(ctx context.Context, project string, a consult.Answer, o ApplyOptions) (ApplyReport, error) {
	if k.readOnly {
		return ApplyReport{}, k.errReadOnly("apply a compile")
	}
	m, ok := k.meta()
	if !ok {
		return ApplyReport{}, ErrNoMeta
	}
	rules, err := k.projectRules(ctx, project)
	if err != nil {
		return ApplyReport{}, err
	}
	var asked []consult.Rule
	lessons := map[string][]Lesson{}
	for _, r := range rules {
		if _, ok := lessons[r.rule.ID]; !ok {
			asked = append(asked, r.rule)
		}
		lessons[r.rule.ID] = append(lessons[r.rule.ID], r.lesson)
	}
	res, err := consult.Validate(a, asked, o.Validate)
	if err != nil {
		return ApplyReport{}, inputErrorf("answer", "%v", err)
	}
	res.Missing = nil // the answer covers the rules it names: the project has more
	model := res.Model
	if model == "" {
		model = "consultant"
	}
	rep := ApplyReport{Result: res}
	now := k.now().UTC()
	err = k.store.Update(ctx, func(tx Tx) error {
		for _, c := range res.Compiled {
			for _, l := range lessons[c.Rule.ID] {
				cs := make([]check.Check, 0, len(c.Checks))
				scope := directive.ScopeOf(l.Trigger)
				for _, ch := range c.Checks {
					ch = scope.Confine(ch)
					ch.Rule, ch.Quote = l.ID, l.Content
					ch.From = check.Provenance{By: check.ByConsultant, Note: model}
					ch.RemindOnly = !o.Active
					cs = append(cs, ch)
				}
				if err := tx.PutChecks(ctx, l.ID, check.ByConsultant, cs, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return ApplyReport{}, fmt.Errorf("store the consultant's checks: %w", err)
	}
	for _, c := range res.Compiled {
		rec := Compile{Rule: c.Rule.ID, Project: project, Is: c.Is, Do: c.Do, Say: c.Say, Checks: len(c.Checks), Model: model, At: now}
		b, err := json.Marshal(rec)
		if err != nil {
			return rep, err
		}
		if err := m.SetMeta(ctx, consultKey(project, c.Rule.ID), string(b)); err != nil {
			return rep, fmt.Errorf("store the compile of %s: %w", c.Rule.ID, err)
		}
		rep.Rules++
		rep.Checks += len(c.Checks)
		rep.Phrasing += len(c.Say)
	}
	if err := k.pruneCompiles(ctx, m, project, lessons); err != nil {
		return rep, err
	}
	if err := m.SetMeta(ctx, consultRevKey+project, now.Format(time.RFC3339Nano)); err != nil {
		return rep, fmt.Errorf("store the compiles' revision: %w", err)
	}
	return rep, nil
}

// pruneCompiles removes the compiles of rules the project no longer has:
// the phrasings of a rule's current text replace its old text's.
func (k *KB) pruneCompiles(ctx context.Context, m MetaStore, project string, current map[string][]Lesson) error {
	done, err := k.Compiles(ctx, project)
	if err != nil {
		return err
	}
	for id := range done {
		if _, ok := current[id]; ok {
			continue
		}
		if err := m.SetMeta(ctx, consultKey(project, id), ""); err != nil {
			return fmt.Errorf("remove the compile of %s: %w", id, err)
		}
	}
	return nil
}

// CompileOf returns the compile of a rule lesson's current text, from a
// project's compiles as Compiles read them; nil when it has none.
func CompileOf(l Lesson, compiles map[string]Compile) *Compile {
	if l.Kind != KindRule || l.Project == "" {
		return nil
	}
	c, ok := compiles[ruleOf(l.Content, l.Trigger).ID]
	if !ok {
		return nil
	}
	return &c
}

// RestoreCompiles stores again the compiles an export held (NewLesson.Compile),
// so that an imported rule is not compiled a second time.
func (k *KB) RestoreCompiles(ctx context.Context, cs []Compile) error {
	if len(cs) == 0 {
		return nil
	}
	if k.readOnly {
		return k.errReadOnly("restore compiles")
	}
	m, ok := k.meta()
	if !ok {
		return ErrNoMeta
	}
	projects := map[string]bool{}
	for _, c := range cs {
		if c.Rule == "" || c.Project == "" {
			return inputErrorf("compile", "a compile needs its rule and project")
		}
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := m.SetMeta(ctx, consultKey(c.Project, c.Rule), string(b)); err != nil {
			return fmt.Errorf("restore the compile of %s: %w", c.Rule, err)
		}
		projects[c.Project] = true
	}
	for p := range projects {
		if err := m.SetMeta(ctx, consultRevKey+p, k.now().UTC().Format(time.RFC3339Nano)); err != nil {
			return fmt.Errorf("store the compiles' revision: %w", err)
		}
	}
	return nil
}
