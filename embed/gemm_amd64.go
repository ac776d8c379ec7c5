//go:build amd64 && !purego

package embed

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// hasSIMD reports whether the assembly kernel can run: it needs AVX2 and
// FMA (and the OS saving ymm registers, which cpu.X86.HasAVX2 includes).
func hasSIMD() bool { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }

//go:noescape
func kernelAVX2(kc int, a, b, c *float32, ldc int)

// kernelSIMD is the assembly micro-kernel behind kernelFunc's signature; it
// checks the slice bounds the assembly relies on.
func kernelSIMD(kc int, a, b, c []float32, ldc int) {
	if kc <= 0 {
		return
	}
	if len(a) < kc*tileRows || len(b) < kc*tileCols || len(c) < (tileRows-1)*ldc+tileCols || ldc < tileCols {
		panic(fmt.Sprintf("embed: kernel bounds: kc=%d len(a)=%d len(b)=%d len(c)=%d ldc=%d", kc, len(a), len(b), len(c), ldc))
	}
	kernelAVX2(kc, &a[0], &b[0], &c[0], ldc)
}
