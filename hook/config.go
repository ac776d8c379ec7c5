package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
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
}

// Switch turns a hook on or off.
type Switch struct {
	Enabled bool `json:"enabled"`
}

// SessionStartConfig configures the SessionStart hook.
type SessionStartConfig struct {
	Enabled bool `json:"enabled"`
	// BudgetTokens caps the context it adds (about 4 characters a token).
	BudgetTokens int `json:"budget_tokens"`
	// CorrectionDays is how far back corrections are shown.
	CorrectionDays int `json:"correction_days"`
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
		SessionStart:     SessionStartConfig{Enabled: true, BudgetTokens: 400, CorrectionDays: 21},
		UserPromptSubmit: UserPromptSubmitConfig{Enabled: true, Recall: true, MaxLessons: 3, Capture: true},
		PreToolUse:       PreToolUseConfig{Enabled: true, BashDecision: "ask"},
		PostToolUse:      Switch{Enabled: true},
		Stop:             Switch{Enabled: true},
		RuleSync:         Switch{Enabled: true},
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
	case c.SessionStart.CorrectionDays < 0:
		return fmt.Errorf("session_start.correction_days is %d: use 0 or more", c.SessionStart.CorrectionDays)
	case c.PreToolUse.MinConfidence < 0 || c.PreToolUse.MinConfidence > 1:
		return fmt.Errorf("pre_tool_use.min_confidence is %g: use 0 to 1", c.PreToolUse.MinConfidence)
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
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
		if err := c.Validate(); err != nil {
			return c, fmt.Errorf("%s: %w", p, err)
		}
	}
	return c, nil
}
