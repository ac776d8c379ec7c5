package embed

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

// builtinModel decodes the embedded weights once.
var builtinModel = sync.OnceValues(func() (*model, error) {
	r, err := usefile.Open(weightsData)
	if err != nil {
		return nil, fmt.Errorf("embedded weights: %w", err)
	}
	return loadModel(r, true)
})

// builtinEngine returns the shared model and tokenizer.
func builtinEngine() (*model, *Tokenizer, error) {
	m, err := builtinModel()
	if err != nil {
		return nil, nil, fmt.Errorf("load built-in model: %w", err)
	}
	tok, err := BuiltinTokenizer()
	if err != nil {
		return nil, nil, fmt.Errorf("load built-in model: %w", err)
	}
	return m, tok, nil
}

func embedBuiltin(ctx context.Context, texts []string) ([][]float32, error) {
	m, tok, err := builtinEngine()
	if err != nil {
		return nil, err
	}
	return m.embedTexts(ctx, tok, texts, runtime.GOMAXPROCS(0))
}

// embedTexts tokenizes texts, packs them into groups of at most groupRows
// tokens and runs the groups on up to workers goroutines.
func (m *model) embedTexts(ctx context.Context, tok *Tokenizer, texts []string, workers int) ([][]float32, error) {
	out := make([][]float32, len(texts))
	type group struct {
		idx  []int
		seqs [][]int
	}
	var groups []group
	var cur group
	rows := 0
	for i, text := range texts {
		ids := tok.window(text)
		if len(ids) == 0 {
			out[i] = slices.Clone(m.empty)
			continue
		}
		if rows+len(ids) > groupRows {
			groups = append(groups, cur)
			cur, rows = group{}, 0
		}
		cur.idx = append(cur.idx, i)
		cur.seqs = append(cur.seqs, ids)
		rows += len(ids)
	}
	if len(cur.idx) > 0 {
		groups = append(groups, cur)
	}
	if len(groups) == 1 {
		vecs := make([][]float32, len(groups[0].idx))
		m.embedGroup(groups[0].seqs, vecs)
		for j, i := range groups[0].idx {
			out[i] = vecs[j]
		}
		return out, nil
	}
	workers = max(1, min(workers, len(groups)))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			vecs := make([][]float32, 0, groupRows)
			for {
				g := int(next.Add(1)) - 1
				if g >= len(groups) || ctx.Err() != nil {
					return
				}
				vecs = vecs[:len(groups[g].idx)]
				clear(vecs)
				m.embedGroup(groups[g].seqs, vecs)
				for j, i := range groups[g].idx {
					out[i] = vecs[j]
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
