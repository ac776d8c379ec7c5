//go:build amd64 && !purego

package embed

//go:generate sh -c "go run ./internal/asmgen -arch amd64 > gemm_amd64.s"

import (
	"fmt"

	"golang.org/x/sys/cpu"
)

// hasSIMD reports whether the assembly kernels can run: they need AVX2 and
// FMA (and the OS saving ymm registers, which cpu.X86.HasAVX2 includes).
func hasSIMD() bool { return cpu.X86.HasAVX2 && cpu.X86.HasFMA }

//go:noescape
func kernelAVX2x1(kc int, a *float32, lda int, b, c *float32, ldc int, relu bool)

//go:noescape
func kernelAVX2x2(kc int, a *float32, lda int, b, c *float32, ldc int, relu bool)

//go:noescape
func kernelAVX2x3(kc int, a *float32, lda int, b, c *float32, ldc int, relu bool)

//go:noescape
func kernelAVX2x4(kc int, a *float32, lda int, b, c *float32, ldc int, relu bool)

//go:noescape
func kernelAVX2x5(kc int, a *float32, lda int, b, c *float32, ldc int, relu bool)

//go:noescape
func kernelAVX2x6(kc int, a *float32, lda int, b, c *float32, ldc int, relu bool)

// kernelSIMD is the assembly kernel behind kernelFunc's signature; it checks
// the slice bounds the assembly relies on and panics on a caller bug.
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
		kernelAVX2x1(kc, pa, lda, pb, pc, ldc, relu)
	case 2:
		kernelAVX2x2(kc, pa, lda, pb, pc, ldc, relu)
	case 3:
		kernelAVX2x3(kc, pa, lda, pb, pc, ldc, relu)
	case 4:
		kernelAVX2x4(kc, pa, lda, pb, pc, ldc, relu)
	case 5:
		kernelAVX2x5(kc, pa, lda, pb, pc, ldc, relu)
	default:
		kernelAVX2x6(kc, pa, lda, pb, pc, ldc, relu)
	}
}
