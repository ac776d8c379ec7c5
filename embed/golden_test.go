package embed

import (
	"context"
	"math"
	"reflect"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

const goldenTol = 1e-4

var goldenFiles = []string{"testdata/use-lite-golden.json", "testdata/use-lite-golden-extra.json"}

// TestEmbedder_Golden checks token ids and every vector component against
// the reference JavaScript implementation's output.
func TestEmbedder_Golden(t *testing.T) {
	e := Builtin()
	ctx := context.Background()
	for _, file := range goldenFiles {
		t.Run(file, func(t *testing.T) {
			worst := 0.0
			for _, r := range readGolden(t, file) {
				got, err := e.Embed(ctx, r.Text)
				if err != nil {
					t.Fatalf("Embed(%q): %v", r.Text, err)
				}
				if len(got) != len(r.Emb) {
					t.Fatalf("Embed(%q): len=%d, want %d", r.Text, len(got), len(r.Emb))
				}
				d := maxAbsDiff(got, r.Emb)
				worst = max(worst, d)
				if d > goldenTol {
					t.Errorf("Embed(%q): max component diff %.3g > %g", r.Text, d, goldenTol)
				}
			}
			t.Logf("worst component difference %.3g", worst)
		})
	}
}

func maxAbsDiff(got []float32, want []float64) float64 {
	d := 0.0
	for i := range got {
		d = max(d, math.Abs(float64(got[i])-want[i]))
	}
	return d
}

// portableModel loads a second copy of the model that uses the pure-Go
// kernel, whatever the CPU.
func portableModel(tb testing.TB) *model {
	tb.Helper()
	r, err := usefile.Open(weightsData)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := loadModel(r, false)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// TestModel_PortableKernelMatches checks that the pure-Go kernel (the
// fallback without AVX2/FMA) reproduces the reference too, and agrees with
// the assembly kernel.
func TestModel_PortableKernelMatches(t *testing.T) {
	if !hasSIMD() {
		t.Log("no SIMD kernel here: Builtin already uses the portable kernel")
	}
	pm := portableModel(t)
	if !isPortable(pm) {
		t.Fatal("portable model does not use kernelGo")
	}
	tok := builtinTok(t)
	e := Builtin()
	ctx := context.Background()
	n, long := 0, false
	for _, file := range goldenFiles {
		for _, r := range readGolden(t, file) {
			// The portable kernel is slow: check up to 16 short texts and
			// one text over the window (under -race or -short, 3 short texts).
			if (raceEnabled || testing.Short()) && (len(r.IDs) > 12 || n >= 3) {
				continue
			}
			if len(r.IDs) <= 40 && n >= 16 {
				continue
			}
			if len(r.IDs) > 40 {
				if long {
					continue
				}
				long = true
			}
			got, err := pm.embedTexts(ctx, tok, []string{r.Text}, 1)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxAbsDiff(got[0], r.Emb); d > goldenTol {
				t.Errorf("portable Embed(%q): max diff %.3g", r.Text, d)
			}
			simd, err := e.Embed(ctx, r.Text)
			if err != nil {
				t.Fatal(err)
			}
			for i := range simd {
				if d := math.Abs(float64(simd[i] - got[0][i])); d > 1e-5 {
					t.Fatalf("Embed(%q)[%d]: simd=%v portable=%v", r.Text, i, simd[i], got[0][i])
				}
			}
			n++
		}
	}
	if n == 0 {
		t.Fatal("no golden texts checked")
	}
}

func isPortable(m *model) bool {
	return reflect.ValueOf(m.kern).Pointer() == reflect.ValueOf(kernelFunc(kernelGo)).Pointer()
}
