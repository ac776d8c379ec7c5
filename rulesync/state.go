// State is what the sync keeps of a project's rule files between runs,
// in the store's meta table.

package rulesync

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/kb"
)

// State is the sync state of a project's rule files as stored.
type State struct {
	// Project is the project ("" for the global rules) and Root the
	// directory its files were read from.
	Project string      `json:"project"`
	Root    string      `json:"root"`
	Files   []FileState `json:"files"`
	// Nested are the rule files below the root that the last look found
	// (slash-separated from the root), and Walked when it looked.
	Nested []string  `json:"nested,omitempty"`
	Walked time.Time `json:"walked,omitzero"`
}

// FileState is one rule file as last synced.
type FileState struct {
	// Path is the file's absolute path (its lessons' source).
	Path    string    `json:"path"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	// Hash is the SHA-256 of its content, in hex.
	Hash string `json:"hash"`
	// SyncedAt is when this content was imported.
	SyncedAt time.Time `json:"synced_at"`
	// Rules counts the file's rules then; Added, Changed and Removed the
	// lessons that import added, reworded (superseding the old wording)
	// and superseded because their rules left the file.
	Rules   int `json:"rules"`
	Added   int `json:"added"`
	Changed int `json:"changed"`
	Removed int `json:"removed"`
	// Import is the ImportVersion the file was imported with; an older one
	// is imported again, unchanged or not.
	Import int `json:"import,omitempty"`
}

// ImportVersion is the version of how a rule file's lines become lessons:
// when it grows, every synced file is imported again at its next sync, so
// that a fix of the import (a rule refused by mistake, a line another
// project held) reaches files that did not change. 1: a project's lessons
// are its own (kb.LessonHash), and a rule against bypassing a check is no
// injection.
const ImportVersion = 1

// load reads a project's stored state; a state that does not decode is
// logged and read as none (the next sync rewrites it).
func (s *Syncer) load(ctx context.Context, projectName string) (State, error) {
	v, ok, err := s.store.Meta(ctx, metaKey+projectName)
	if err != nil {
		return State{}, fmt.Errorf("read the rule sync state of %q: %w", projectName, err)
	}
	if !ok {
		return State{}, nil
	}
	st, err := DecodeState(v)
	if err != nil {
		s.opt.Log.Warn("stored rule sync state unreadable; the files are checked anew", "project", projectName, "err", err)
		return State{}, nil
	}
	return st, nil
}

func (s *Syncer) save(ctx context.Context, st State) error {
	b, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := s.store.SetMeta(ctx, metaKey+st.Project, string(b)); err != nil {
		return fmt.Errorf("store the rule sync state of %q: %w", st.Project, err)
	}
	return nil
}

// DecodeState reads a stored state, refusing unknown fields.
func DecodeState(v string) (State, error) {
	dec := json.NewDecoder(strings.NewReader(v))
	dec.DisallowUnknownFields()
	var st State
	if err := dec.Decode(&st); err != nil {
		return State{}, fmt.Errorf("decode rule sync state: %w", err)
	}
	return st, nil
}

// States returns the stored sync state of every project, the global rules
// first, then by project; a state that does not decode is skipped.
func States(ctx context.Context, m kb.MetaStore) ([]State, error) {
	all, err := m.MetaPrefixed(ctx, metaKey)
	if err != nil {
		return nil, fmt.Errorf("read the rule sync states: %w", err)
	}
	out := make([]State, 0, len(all))
	for _, v := range all {
		if st, err := DecodeState(v); err == nil {
			out = append(out, st)
		}
	}
	slices.SortFunc(out, func(a, b State) int { return strings.Compare(a.Project, b.Project) })
	return out, nil
}
