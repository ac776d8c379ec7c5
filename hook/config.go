package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// Config says which hooks run and how. The zero value is not useful:
// start from DefaultConfig. It is read from the user's file and then the
// project's (LoadConfig), the project's settings winning.
type Config struct {
	SessionStart     SessionStartConfig     `json:"session_start"`
	UserPromptSubmit UserPromptSubmitConfig `json:"user_prompt_submit"`
	PreToolUse       PreToolUseConfig       `json:"pre_tool_use"`
	PostToolUse      Switch                 `json:"post_tool_use"`
	Stop             Switch                 `json:"stop"`
	// RuleSync turns off the sync of the project's agent rule files into
	// the knowledge base (package rulesync), which the MCP server, the
	// SessionStart hook and `setup --scope project` run. It is no hook,
	// but it lives in the same files: per user, and per project.
	RuleSync Switch `json:"rule_sync"`
	// Consultant is who compiles the rules the built-in reader cannot
	// (docs/consultant.md).
	Consultant ConsultantConfig `json:"consultant"`
	// SessionBudgetTokens caps the context all hooks together add to one
	// session (about 4 characters a token); past it they add none, while
	// their decisions (an ask, a block) still come. 0: no cap.
	SessionBudgetTokens int `json:"session_budget_tokens"`
}

// ConsultantConfig says how rules are compiled by a consultant. Command,
// Endpoint and APIKeyEnv are read only from the user's own file: a
// repository's .innate-mcp/hooks.json cannot make the hooks run a program
// or reach a network.
type ConsultantConfig struct {
	// Invite: when the project's rules have no compile and no command or
	// endpoint is configured, SessionStart invites the agent to call the
	// compile_rules tool, once for each change of the rule files.
	Invite bool `json:"invite"`
	// BudgetTokens is the most a compile may cost, prompt and answer,
	// that the invitation states.
	BudgetTokens int `json:"budget_tokens"`
	// Command is a program (and its arguments) that reads a prompt on
	// standard input and writes the answer on standard output, e.g.
	// ["claude", "-p"]; the hooks start it in the background.
	Command []string `json:"command,omitempty"`
	// Endpoint is an OpenAI-compatible API base URL (…/v1) or an Ollama
	// server's (http://localhost:11434) with API "openai" or "ollama", and
	// Model the model to ask; APIKeyEnv names the environment variable
	// that holds the key (none for Ollama).
	Endpoint  string `json:"endpoint,omitempty"`
	API       string `json:"api,omitempty"`
	Model     string `json:"model,omitempty"`
	APIKeyEnv string `json:"api_key_env,omitempty"`
	// Checks is how a consultant's checks start: "remind" (until a person
	// approves them) or "active".
	Checks string `json:"checks"`
	// TimeoutSeconds bounds one compile.
	TimeoutSeconds int `json:"timeout_seconds"`
}

// Configured reports whether a command or an endpoint is set.
func (c ConsultantConfig) Configured() bool { return len(c.Command) > 0 || c.Endpoint != "" }

// Switch turns a hook on or off.
type Switch struct {
	Enabled bool `json:"enabled"`
}

// SessionStartConfig configures the SessionStart hook.
type SessionStartConfig struct {
	Enabled bool `json:"enabled"`
	// BudgetTokens caps the context it adds (about 4 characters a token).
	BudgetTokens int `json:"budget_tokens"`
	// CorrectionDays is how far back a correction that became no lesson
	// is shown when a session resumes or is compacted (a new session is
	// another task: such a correction is out of its context).
	CorrectionDays int `json:"correction_days"`
	// RepeatLoadedFiles also lists the rules of the files Claude Code
	// loads itself (CLAUDE.md, CLAUDE.local.md, ~/.claude/CLAUDE.md). Off
	// by default: the agent has them already.
	RepeatLoadedFiles bool `json:"repeat_loaded_files"`
}

// UserPromptSubmitConfig configures the UserPromptSubmit hook.
type UserPromptSubmitConfig struct {
	Enabled bool `json:"enabled"`
	// Recall adds the lessons recall finds for the prompt.
	Recall bool `json:"recall"`
	// MaxLessons caps them.
	MaxLessons int `json:"max_lessons"`
	// Capture records corrections and standing rules the user states.
	Capture bool `json:"capture"`
}

// PreToolUseConfig configures the PreToolUse hook.
type PreToolUseConfig struct {
	Enabled bool `json:"enabled"`
	// BashDecision is the permission decision for a Bash command that
	// breaks a check: "ask" (the default) or "deny". A file tool's
	// breach is always asked about.
	BashDecision string `json:"bash_decision"`
	// MinConfidence is no longer read: PreToolUse asks when a check
	// matches the call structurally, not on appraise's confidence. It is
	// kept so that a file that sets it still loads.
	MinConfidence float64 `json:"min_confidence"`
}

// DefaultConfig has every hook on.
func DefaultConfig() Config {
	return Config{
		SessionStart:        SessionStartConfig{Enabled: true, BudgetTokens: 400, CorrectionDays: 2},
		UserPromptSubmit:    UserPromptSubmitConfig{Enabled: true, Recall: true, MaxLessons: 3, Capture: true},
		PreToolUse:          PreToolUseConfig{Enabled: true, BashDecision: "ask"},
		PostToolUse:         Switch{Enabled: true},
		Stop:                Switch{Enabled: true},
		RuleSync:            Switch{Enabled: true},
		Consultant:          ConsultantConfig{Invite: true, BudgetTokens: 8000, Checks: "remind", TimeoutSeconds: 300},
		SessionBudgetTokens: 3000,
	}
}

// Validate refuses settings the hooks cannot follow.
func (c Config) Validate() error {
	switch {
	case c.PreToolUse.BashDecision != "ask" && c.PreToolUse.BashDecision != "deny":
		return fmt.Errorf("pre_tool_use.bash_decision is %q: use ask or deny", c.PreToolUse.BashDecision)
	case c.SessionStart.BudgetTokens < 0 || c.SessionStart.BudgetTokens > 4000:
		return fmt.Errorf("session_start.budget_tokens is %d: use 0 to 4000", c.SessionStart.BudgetTokens)
	case c.UserPromptSubmit.MaxLessons < 0 || c.UserPromptSubmit.MaxLessons > 10:
		return fmt.Errorf("user_prompt_submit.max_lessons is %d: use 0 to 10", c.UserPromptSubmit.MaxLessons)
	case c.SessionBudgetTokens < 0:
		return fmt.Errorf("session_budget_tokens is %d: use 0 (no cap) or more", c.SessionBudgetTokens)
	case c.SessionStart.CorrectionDays < 0:
		return fmt.Errorf("session_start.correction_days is %d: use 0 or more", c.SessionStart.CorrectionDays)
	case c.PreToolUse.MinConfidence < 0 || c.PreToolUse.MinConfidence > 1:
		return fmt.Errorf("pre_tool_use.min_confidence is %g: use 0 to 1", c.PreToolUse.MinConfidence)
	case c.Consultant.Checks != "remind" && c.Consultant.Checks != "active":
		return fmt.Errorf("consultant.checks is %q: use remind or active", c.Consultant.Checks)
	case c.Consultant.Endpoint != "" && c.Consultant.API != "openai" && c.Consultant.API != "ollama":
		return fmt.Errorf("consultant.api is %q: with an endpoint, use openai or ollama", c.Consultant.API)
	case c.Consultant.Endpoint != "" && c.Consultant.Model == "":
		return fmt.Errorf("consultant.model is empty: an endpoint needs the model to ask")
	case len(c.Consultant.Command) > 0 && c.Consultant.Endpoint != "":
		return fmt.Errorf("consultant: set command or endpoint, not both")
	case c.Consultant.BudgetTokens < 0 || c.Consultant.TimeoutSeconds < 0:
		return fmt.Errorf("consultant.budget_tokens and timeout_seconds are 0 or more")
	}
	return nil
}

// ConfigFile is the name of the hooks' configuration file: in the user's
// configuration directory (innate-mcp/hooks.json there), and at a
// project's root as .innate-mcp/hooks.json.
const ConfigFile = "hooks.json"

// ConfigPaths returns the user's and the project's configuration files.
// userConfigDir is os.UserConfigDir's answer ("" when there is none).
func ConfigPaths(userConfigDir, projectRoot string) []string {
	var out []string
	if userConfigDir != "" {
		out = append(out, filepath.Join(userConfigDir, "innate-mcp", ConfigFile))
	}
	if projectRoot != "" {
		out = append(out, filepath.Join(projectRoot, ".innate-mcp", ConfigFile))
	}
	return out
}

// maxConfigBytes bounds a configuration file.
const maxConfigBytes = 64 << 10

// LoadConfig reads the files in order over DefaultConfig, each setting
// only the fields it names. A missing file is skipped; a file that is not
// valid JSON, names an unknown field, or sets a value out of range is an
// error naming it.
func LoadConfig(paths ...string) (Config, error) {
	c := DefaultConfig()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return c, err
		}
		if len(b) > maxConfigBytes {
			return c, fmt.Errorf("%s: larger than %d KiB", p, maxConfigBytes>>10)
		}
		before := c.Consultant
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
		if filepath.Base(filepath.Dir(p)) == ".innate-mcp" && (!slices.Equal(before.Command, c.Consultant.Command) ||
			before.Endpoint != c.Consultant.Endpoint || before.APIKeyEnv != c.Consultant.APIKeyEnv) {
			return c, fmt.Errorf("%s: consultant.command, endpoint and api_key_env are read only from your own configuration (%s in your configuration directory), not from a repository's", p, filepath.Join("innate-mcp", ConfigFile))
		}
		if err := c.Validate(); err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
	}
	return c, nil
}
