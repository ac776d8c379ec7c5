//go:build !unix

package embed

import "time"

// cpuTime is unknown here; the cores metric then reads 0.
func cpuTime() time.Duration { return 0 }
