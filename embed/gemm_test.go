package embed

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// kernels returns the kernels to test: the portable one always, the
// assembly one when this CPU has it.
func kernels(t *testing.T) map[string]kernelFunc {
	t.Helper()
	ks := map[string]kernelFunc{"go": kernelGo}
	if hasSIMD() {
		ks["simd"] = kernelSIMD
	} else {
		t.Log("no SIMD kernel on this CPU/build; testing the portable kernel only")
	}
	return ks
}

func randSlice(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

func TestGemm_MatchesFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for name, kern := range kernels(t) {
		for _, m := range []int{1, 2, 3, 4, 5, 6, 7, 11, 13, 128} {
			for _, k := range []int{1, 3, 64, 256, 257, 600} {
				for _, n := range []int{16, 20, 48} {
					for _, relu := range []bool{false, true} {
						t.Run(fmt.Sprintf("%s/m=%d/k=%d/n=%d/relu=%v", name, m, k, n, relu), func(t *testing.T) {
							lda, ldc := k+3, n+5 // strides wider than the data
							a := randSlice(r, m*lda)
							w := randSlice(r, k*n)
							c := randSlice(r, m*ldc)
							want := make([]float64, m*ldc)
							for i := range m {
								for j := range ldc {
									want[i*ldc+j] = float64(c[i*ldc+j])
									if j >= n {
										continue
									}
									for kk := range k {
										want[i*ldc+j] += float64(a[i*lda+kk]) * float64(w[kk*n+j])
									}
									if relu {
										want[i*ldc+j] = max(0, want[i*ldc+j])
									}
								}
							}
							b := packMatrix(nil, k, n, w, n)
							if b.n%tileCols != 0 || b.n < n {
								t.Fatalf("packed n=%d for n=%d", b.n, n)
							}
							// Columns n..b.n of C get A×0 (zero padding): give C room.
							cc := make([]float32, (m-1)*ldc+b.n+ldc)
							copy(cc, c)
							gemm(kern, m, a, lda, b, cc, ldc, relu)
							tol := 1e-5 * math.Sqrt(float64(k)) * 4
							for i := range m {
								for j := range n {
									got, w := float64(cc[i*ldc+j]), want[i*ldc+j]
									if math.Abs(got-w) > tol*(1+math.Abs(w)) {
										t.Fatalf("C[%d][%d]: got=%v, want %v", i, j, got, w)
									}
								}
								// padding columns up to ldc beyond the packed width untouched
								for j := b.n; j < ldc; j++ {
									if cc[i*ldc+j] != c[i*ldc+j] {
										t.Fatalf("C[%d][%d] outside the product changed", i, j)
									}
								}
							}
						})
					}
				}
			}
		}
	}
}

func TestPackTransposed_EqualsPackOfTranspose(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, dims := range [][2]int{{64, 5}, {128, 128}, {300, 17}} {
		k, n := dims[0], dims[1]
		v := randSlice(r, n*k) // n×k row-major
		vt := make([]float32, k*n)
		for i := range n {
			for j := range k {
				vt[j*n+i] = v[i*k+j]
			}
		}
		a, b := packTransposed(nil, k, n, v, k), packMatrix(nil, k, n, vt, n)
		if a.k != b.k || a.n != b.n || len(a.data) != len(b.data) {
			t.Fatalf("k=%d n=%d: shapes differ", k, n)
		}
		for i := range a.data {
			if a.data[i] != b.data[i] {
				t.Fatalf("k=%d n=%d: element %d: got=%v, want %v", k, n, i, a.data[i], b.data[i])
			}
		}
	}
}

func TestExpf(t *testing.T) {
	worst := 0.0
	for x := float32(-90); x <= 0; x += 0.00137 {
		got, want := float64(expf(x)), math.Exp(float64(x))
		if want < 1e-37 {
			if got > 2e-37 {
				t.Fatalf("expf(%v)=%v, want ~0", x, got)
			}
			continue
		}
		worst = max(worst, math.Abs(got-want)/want)
	}
	if worst > 3e-7 { // 2.5 ulp of float32
		t.Errorf("expf relative error %.3g", worst)
	}
	if got := expf(0); got != 1 {
		t.Errorf("expf(0)=%v, want 1", got)
	}
	if got := expf(-1000); got != 0 {
		t.Errorf("expf(-1000)=%v, want 0", got)
	}
}

// BenchmarkGemm multiplies m token rows by a 512×1536 weight matrix (the
// first feed-forward layer) with each kernel; GFLOP/s is the figure of merit.
func BenchmarkGemm(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	const k, n = 512, 1536
	w := packMatrix(nil, k, n, randSlice(r, k*n), n)
	ks := map[string]kernelFunc{"go": kernelGo}
	if hasSIMD() {
		ks["simd"] = kernelSIMD
	}
	for name, kern := range ks {
		for _, m := range []int{10, 128} {
			a, c := randSlice(r, m*k), make([]float32, m*n)
			b.Run(fmt.Sprintf("%s/m=%d", name, m), func(b *testing.B) {
				for b.Loop() {
					gemm(kern, m, a, k, w, c, n, false)
				}
				b.ReportMetric(2*float64(m*k*n)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}

func BenchmarkExpf(b *testing.B) {
	xs := make([]float32, 1024)
	for i := range xs {
		xs[i] = -float32(i) / 64
	}
	var sink float32
	for b.Loop() {
		for _, x := range xs {
			sink += expf(x)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/exp")
	_ = sink
}
