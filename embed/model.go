package embed

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

// Model dimensions of Universal Sentence Encoder Lite.
const (
	embDim   = 256  // token embedding width, layer 0 input
	modelDim = 512  // layer width and output dimension
	ffnDim   = 1536 // feed-forward inner width
	heads    = 4    // attention heads in both layers
)

// Tensor names in the TF.js weights manifest.
const (
	pKona  = "module_apply_default/Encoder_en/KonaTransformer/"
	pApply = pKona + "Encode/"
	pVar   = "module/Encoder_en/KonaTransformer/Encode/"
)

// layer holds one transformer layer, weights packed for gemm.
type layer struct {
	din               int       // input width: 256 for layer 0, 512 for layer 1
	ln1Scale, ln1Bias []float32 // pre-attention layer norm (din)
	qkv               matrix    // din × 3·din
	qkvBias           []float32
	scale             float32 // query scale, 1/sqrt(din/heads), from the graph
	out               matrix  // din × 512
	outBias           []float32
	dense             *matrix   // layer 0 only: residual projection 256 × 512
	denseBias         []float32 // layer 0 only
	ln2Scale, ln2Bias []float32 // pre-FFN layer norm (512)
	ffn1              matrix    // 512 × 1536
	ffn1Bias          []float32
	ffn2              matrix // 1536 × 512
	ffn2Bias          []float32
}

// model is the loaded network. It is immutable after load and safe for
// concurrent use; per-call buffers live in scratch values.
type model struct {
	vocab    int       // rows of the embedding table
	emb      []float32 // vocab × 256
	timing   []float32 // MaxTokens × 256: sin(pos·inv) then cos(pos·inv)
	layers   [2]layer
	eps      float32 // layer norm epsilon (1e-6)
	tanh     matrix  // 512 × 512 output layer
	tanhBias []float32
	l2eps    float32   // l2_normalize floor on the squared norm (1e-12)
	empty    []float32 // embedding of the empty text
	kern     kernelFunc
	scratch  sync.Pool // of *scratch
}

// loadModel builds the model from a decoded weights file. simd selects the
// assembly kernel (when the CPU has it); false forces the portable kernel.
func loadModel(f *usefile.File, simd bool) (*model, error) {
	l := loader{f: f}
	m := &model{kern: kernelGo}
	if simd && hasSIMD() {
		m.kern = kernelSIMD
	}
	var shape []int
	m.emb, shape = l.tensor("module/Embeddings_en", -1, embDim)
	m.vocab = shape[0]
	inv, _ := l.tensor(pApply+"TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", 1, embDim/2)
	m.timing = make([]float32, MaxTokens*embDim)
	for pos := range MaxTokens {
		row := m.timing[pos*embDim : (pos+1)*embDim]
		for i, v := range inv {
			x := float64(float32(pos) * v)
			row[i] = float32(math.Sin(x))
			row[embDim/2+i] = float32(math.Cos(x))
		}
	}
	m.eps = l.scalar(pApply + "TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/layer_norm/Cast/x")
	for i := range m.layers {
		m.layers[i] = l.layer(i)
	}
	dense := l.matrix(pApply+"Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat", embDim, modelDim)
	m.layers[0].dense = &dense
	m.layers[0].denseBias = l.vector(pApply+"Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat", modelDim)
	m.tanh = l.matrix("module/Encoder_en/hidden_layers/tanh_layer_0/weights", modelDim, modelDim)
	m.tanhBias = l.vector("module/Encoder_en/hidden_layers/tanh_layer_0/bias", modelDim)
	m.l2eps = l.scalar("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y")
	if maxLen := l.int32(pKona + "ClipToMaxLength/Less/y"); l.err == nil && maxLen != MaxTokens {
		l.fail(fmt.Errorf("graph clips to %d tokens, package assumes %d", maxLen, MaxTokens))
	}
	if h := l.int32(pApply + "TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2"); l.err == nil && h != heads {
		l.fail(fmt.Errorf("graph has %d heads, package assumes %d", h, heads))
	}
	if l.err != nil {
		return nil, fmt.Errorf("load model: %w", l.err)
	}
	// The empty text has no tokens: the graph pools nothing (a zero vector),
	// so its embedding is normalize(tanh(bias)).
	m.empty = slices.Clone(m.tanhBias)
	tanhInPlace(m.empty)
	l2Normalize(m.empty, m.l2eps)
	return m, nil
}

// loader reads tensors by name, remembering the first error.
type loader struct {
	f   *usefile.File
	err error
}

func (l *loader) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

// tensor returns a float32 tensor and checks its last dimensions against
// dims (-1 accepts any size; missing leading dims of size 1 are allowed).
func (l *loader) tensor(name string, dims ...int) ([]float32, []int) {
	if l.err != nil {
		return nil, make([]int, len(dims))
	}
	v, shape, err := l.f.Float32(name)
	if err != nil {
		l.fail(err)
		return nil, make([]int, len(dims))
	}
	trimmed := shape
	for len(trimmed) > len(dims) && trimmed[0] == 1 {
		trimmed = trimmed[1:]
	}
	ok := len(trimmed) == len(dims)
	for i := 0; ok && i < len(dims); i++ {
		ok = dims[i] < 0 || dims[i] == trimmed[i]
	}
	if !ok {
		l.fail(fmt.Errorf("tensor %s: shape %v, want %v", name, shape, dims))
		return nil, make([]int, len(dims))
	}
	return v, trimmed
}

func (l *loader) vector(name string, n int) []float32 {
	v, _ := l.tensor(name, n)
	return v
}

func (l *loader) scalar(name string) float32 {
	v, _ := l.tensor(name)
	if len(v) != 1 {
		l.fail(fmt.Errorf("tensor %s: not a scalar", name))
		return 0
	}
	return v[0]
}

func (l *loader) int32(name string) int {
	if l.err != nil {
		return 0
	}
	off, ok := l.f.Offset[name]
	if !ok {
		l.fail(fmt.Errorf("no tensor %q", name))
		return 0
	}
	return int(int32(l.f.Words[off]))
}

func (l *loader) matrix(name string, k, n int) matrix {
	w, _ := l.tensor(name, k, n)
	if l.err != nil {
		return matrix{}
	}
	return packMatrix(nil, k, n, w, n)
}

// layer loads transformer layer i (0 or 1).
func (l *loader) layer(i int) layer {
	din := embDim
	if i == 1 {
		din = modelDim
	}
	lp := fmt.Sprintf("%sLayer_%d/TransformerLayer/", pApply, i)
	sp := fmt.Sprintf("%sTransformerStack/Layer_%d/TransformerLayer/", pApply, i)
	vp := fmt.Sprintf("%sLayer_%d/TransformerLayer/", pVar, i)
	return layer{
		din:      din,
		ln1Scale: l.vector(lp+"layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", din),
		ln1Bias:  l.vector(lp+"layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", din),
		qkv:      l.matrix(vp+"MultiheadAttention/qkv_transform_single/kernel/part_0", din, 3*din),
		qkvBias:  l.vector(lp+"MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 3*din),
		scale:    l.scalar(sp + "MultiheadAttention/mul/y"),
		out:      l.matrix(vp+"MultiheadAttention/output_transform_single/kernel/part_0", din, modelDim),
		outBias:  l.vector(lp+"MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", modelDim),
		ln2Scale: l.vector(lp+"FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", modelDim),
		ln2Bias:  l.vector(lp+"FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", modelDim),
		ffn1:     l.matrix(sp+"FFN/conv1/Tensordot/Reshape_1", modelDim, ffnDim),
		ffn1Bias: l.vector(lp+"FFN/conv1/bias/ConcatPartitions/concat", ffnDim),
		ffn2:     l.matrix(sp+"FFN/conv2/Tensordot/Reshape_1", ffnDim, modelDim),
		ffn2Bias: l.vector(lp+"FFN/conv2/bias/ConcatPartitions/concat", modelDim),
	}
}
