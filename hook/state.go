package hook

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/innate-mcp/innate-mcp/internal/atomicfile"
)

// SessionState is what one hook call leaves for a later one of the same
// Claude Code session.
type SessionState struct {
	// Runs are the test runs and builds PostToolUse read, oldest first.
	Runs []Run `json:"runs,omitempty"`
	// BlockedTurn identifies the turn whose stop Stop blocked, so that it
	// blocks at most once a turn.
	BlockedTurn string `json:"blocked_turn,omitempty"`
	// Commands are the shell lines PostToolUse saw run, oldest first, for
	// the checks that need a step before ("run make lint before
	// committing").
	Commands []string `json:"commands,omitempty"`
	// Touched are the project's files the session's tools wrote (paths
	// relative to the project root), for the checks that apply once a
	// place changed.
	Touched []string `json:"touched,omitempty"`
	// SinceCommit are the project's files written or staged since the
	// session's last `git commit` (check.History.SinceCommit).
	SinceCommit []string `json:"since_commit,omitempty"`
	// Asked are the calls PreToolUse asked about that PostToolUse has not
	// seen yet: when it does, the user let the call run.
	Asked []Asked `json:"asked,omitempty"`
	// Reminded are the lessons a reminder quoted in this session (once a
	// session each).
	Reminded []string `json:"reminded,omitempty"`
	// Injected are the tokens the hooks added to the agent's context in
	// this session, by event; Withheld those left out past the session's
	// budget.
	Injected map[string]int `json:"injected,omitempty"`
	Withheld int            `json:"withheld,omitempty"`
}

// Run is one test run or build PostToolUse read.
type Run struct {
	Command  string    `json:"command"`
	Outcome  string    `json:"outcome"`
	Runner   string    `json:"runner"`
	Evidence string    `json:"evidence"`
	At       time.Time `json:"at"`
}

// StateDir keeps each session's state in a file of its own, named by a
// hash of the session id. Files older than StateTTL are removed as others
// are written.
type StateDir struct {
	Dir string
}

// StateTTL is how long a session's state is kept after its last change.
const StateTTL = 7 * 24 * time.Hour

func (d *StateDir) path(session string) string {
	return filepath.Join(d.Dir, hashKey(session)+".json")
}

// hashKey is a short hex digest of s, for file names and turn keys.
func hashKey(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:12])
}

// Read returns a session's state; the zero state when there is none.
func (d *StateDir) Read(session string) (SessionState, error) {
	var s SessionState
	b, err := os.ReadFile(d.path(session))
	if errors.Is(err, fs.ErrNotExist) {
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return SessionState{}, fmt.Errorf("session state %s: %w", d.path(session), err)
	}
	return s, nil
}

// Update applies fn to a session's state and writes it (through a
// temporary file and a rename). Hooks of one session run one at a time,
// so there is no lock.
func (d *StateDir) Update(session string, fn func(*SessionState)) error {
	s, err := d.Read(session)
	if err != nil {
		s = SessionState{} // a damaged state is replaced
	}
	fn(&s)
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(d.Dir, 0o700); err != nil {
		return err
	}
	if err := atomicfile.Write(d.path(session), 0o600, func(w io.Writer) error { _, err := w.Write(b); return err }); err != nil {
		return err
	}
	d.expire()
	return nil
}

// expire removes the state of sessions untouched for StateTTL.
func (d *StateDir) expire() {
	entries, err := os.ReadDir(d.Dir)
	if err != nil {
		return
	}
	cutoff := time.Now().Add(-StateTTL)
	for _, e := range entries {
		if fi, err := e.Info(); err == nil && fi.ModTime().Before(cutoff) {
			os.Remove(filepath.Join(d.Dir, e.Name()))
		}
	}
}

// Recorded returns the shell lines the kept sessions ran, as PostToolUse
// recorded them, for a consultant's checks to be tried on before they are
// stored (consult.Options.Recorded). A session's unreadable state is
// skipped.
func (d *StateDir) Recorded() []string {
	var out []string
	for _, s := range d.Sessions() {
		out = append(out, s.Commands...)
	}
	return out
}

// Sessions returns the state of every kept session (those changed within
// StateTTL); an unreadable one is skipped.
func (d *StateDir) Sessions() []SessionState {
	entries, err := os.ReadDir(d.Dir)
	if err != nil {
		return nil
	}
	var out []SessionState
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".json" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(d.Dir, e.Name()))
		if err != nil {
			continue
		}
		var s SessionState
		if json.Unmarshal(b, &s) == nil {
			out = append(out, s)
		}
	}
	return out
}
