package embed

import (
	"context"
	"math"
	"testing"
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
