// Package split divides an evaluation set into the part that term lists and
// constants may be reviewed against (Tune) and the part that is only
// reported and asserted (Check), the same way for every set and every
// caller: tests (through internal/evaldata) and innate-mcp eval.
package split

import "hash/fnv"

// The two parts of every evaluation set.
const (
	Tune  = "tune"  // the part term lists and constants may be reviewed against
	Check = "check" // the part that is only reported and asserted
)

// Half puts a record in Tune or Check by the parity of the FNV-1a hash of
// its key (an id, a project, or the text when records have none): stable,
// and independent of file order.
func Half(key string) string {
	h := fnv.New32a()
	h.Write([]byte(key))
	if h.Sum32()%2 == 0 {
		return Tune
	}
	return Check
}
