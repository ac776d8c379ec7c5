package route

import (
	"errors"
	"fmt"
)

// Mode is an engagement mode: what the agent should do with the user's
// latest message. Its string form is the wire and log form. A plain value,
// safe for concurrent use.
type Mode string

// The engagement modes. Gather is the seed's ACT: look things up first (recall
// more, read the code, run the tests), then route again without Gather.
const (
	Respond     Mode = "respond"     // give the substantive answer
	Clarify     Mode = "clarify"     // ask a clarifying question first
	Gather      Mode = "gather"      // look things up before answering
	Acknowledge Mode = "acknowledge" // a brief social reply (greeting, thanks)
	Ignore      Mode = "ignore"      // nothing to answer (empty input)
)

// modes lists every mode in tie-breaking order: when two scores are equal the
// earlier mode wins.
var modes = [...]Mode{Respond, Clarify, Gather, Acknowledge, Ignore}

// ErrUnknownMode is returned (wrapped) by ParseMode for a string that names
// no mode; compare with errors.Is.
var ErrUnknownMode = errors.New("unknown mode")

// Modes returns every engagement mode in a fixed order (respond, clarify,
// gather, acknowledge, ignore). The slice is fresh; it is safe for concurrent
// use.
func Modes() []Mode { return append([]Mode(nil), modes[:]...) }

// ParseMode returns the Mode named by s ("respond", ... "ignore"); "act" is
// accepted as the seed's name for Gather. It returns an error wrapping
// ErrUnknownMode for anything else. It is safe for concurrent use.
func ParseMode(s string) (Mode, error) {
	if s == "act" {
		return Gather, nil
	}
	m := Mode(s)
	if !m.Valid() {
		return "", fmt.Errorf("parse mode %q: %w", s, ErrUnknownMode)
	}
	return m, nil
}

// Valid reports whether m is one of the five modes. It is safe for
// concurrent use.
func (m Mode) Valid() bool { return m.index() >= 0 }

// index returns m's position in modes, or -1.
func (m Mode) index() int {
	for i, x := range modes {
		if x == m {
			return i
		}
	}
	return -1
}
