//go:build (!amd64 && !arm64) || purego

package embed

// hasSIMD reports whether an assembly kernel is available: not on this
// architecture or build (tag purego).
func hasSIMD() bool { return false }

// kernelSIMD is never selected when hasSIMD is false; it falls back to the
// portable kernel so the symbol exists on every platform.
func kernelSIMD(mr, kc int, a []float32, lda int, b, c []float32, ldc int, relu bool) {
	kernelGo(mr, kc, a, lda, b, c, ldc, relu)
}
