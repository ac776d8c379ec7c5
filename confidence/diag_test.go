package confidence

import (
	"fmt"
	"testing"
)

func TestDiag(t *testing.T) {
	for _, tl := range [][3]float64{{120, 50, 80}, {60, 0, 0}, {30, 0, 0}} {
		for _, v := range []string{"srF", "srF+nostrong", "srF+nostrong+noobs"} {
			cfg := DefaultConfig()
			cfg.Recovery[KindAppliedSuccess] = Dims{Frequency: 0.05, Effectiveness: 0.08}
			diagNoStrong = v != "srF"
			fmt.Print(tl, v, ": ")
			_ = replay(t, replayConfig{seed: 1, lessons: 1000, records: 10000, days: tl[0], offFrom: tl[1], offTo: tl[2]}, cfg)
		}
	}
}
