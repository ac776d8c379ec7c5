//go:build arm64 && !purego

package embed

//go:generate sh -c "go run ./internal/asmgen -arch arm64 > gemm_arm64.s"

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// hasSIMD reports whether the NEON kernels can run (Advanced SIMD is part
// of every ARMv8 CPU; the check guards odd emulators).
func hasSIMD() bool { return cpu.ARM64.HasASIMD }

//go:noescape
func kernelNEONx1(kc int, a *float32, lda int, b, c *float32, ldc int)

//go:noescape
func kernelNEONx2(kc int, a *float32, lda int, b, c *float32, ldc int)

//go:noescape
func kernelNEONx3(kc int, a *float32, lda int, b, c *float32, ldc int)

//go:noescape
func kernelNEONx4(kc int, a *float32, lda int, b, c *float32, ldc int)

//go:noescape
func kernelNEONx5(kc int, a *float32, lda int, b, c *float32, ldc int)

//go:noescape
func kernelNEONx6(kc int, a *float32, lda int, b, c *float32, ldc int)

// kernelSIMD is the NEON kernel behind kernelFunc's signature; it checks the
// slice bounds the assembly relies on (panicking on a caller bug) and
// applies ReLU in Go, which Go's arm64 assembler cannot express (no FMAX).
func kernelSIMD(mr, kc int, a []float32, lda int, b, c []float32, ldc int, relu bool) {
	if kc <= 0 || mr <= 0 {
		return
	}
	if mr > tileRows || len(a) < (mr-1)*lda+kc || len(b) < kc*tileCols || len(c) < (mr-1)*ldc+tileCols {
		panic(fmt.Sprintf("embed: kernel bounds: mr=%d kc=%d len(a)=%d lda=%d len(b)=%d len(c)=%d ldc=%d",
			mr, kc, len(a), lda, len(b), len(c), ldc))
	}
	pa, pb, pc := &a[0], &b[0], &c[0]
	switch mr {
	case 1:
		kernelNEONx1(kc, pa, lda, pb, pc, ldc)
	case 2:
		kernelNEONx2(kc, pa, lda, pb, pc, ldc)
	case 3:
		kernelNEONx3(kc, pa, lda, pb, pc, ldc)
	case 4:
		kernelNEONx4(kc, pa, lda, pb, pc, ldc)
	case 5:
		kernelNEONx5(kc, pa, lda, pb, pc, ldc)
	default:
		kernelNEONx6(kc, pa, lda, pb, pc, ldc)
	}
	if relu {
		for r := range mr {
			row := c[r*ldc : r*ldc+tileCols]
			for j, v := range row {
				if v < 0 {
					row[j] = 0
				}
			}
		}
	}
}
