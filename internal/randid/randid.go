// Package randid makes the random identifiers of lessons, traces and
// sessions: a prefix followed by random bytes in lower-case hex, such as
// "L3f2a9c01b2d4". Safe for concurrent use.
package randid

import (
	"crypto/rand"
	"encoding/hex"
)

// New returns prefix followed by n random bytes from crypto/rand as 2n
// lower-case hex digits.
func New(prefix string, n int) string {
	b := make([]byte, n)
	rand.Read(b) // never returns an error: since Go 1.24 it crashes the program instead
	return prefix + hex.EncodeToString(b)
}
