package embed

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

// Model dimensions of Universal Sentence Encoder Lite.
const (
	embDim   = 256  // token embedding width, layer 0 input
	modelDim = Dim  // layer width and output dimension (512)
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

// loadModel builds the model from a weights file, decoding each tensor once
// into its final place (matrices through one reusable buffer into their
// packed layout). simd selects the assembly kernel when the CPU has it;
// false forces the portable kernel. Errors wrap usefile.ErrFormat or say
// which tensor is missing or misshapen.
func loadModel(r *usefile.Reader, simd bool) (*model, error) {
	l := loader{floats: map[string][]float32{}, mats: map[string]matrix{}, ints: map[string]int{}, shapes: map[string][]int{}}
	if err := l.decode(r); err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	m := &model{kern: kernelGo}
	if simd && hasSIMD() {
		m.kern = kernelSIMD
	}
	m.emb = l.tensor("module/Embeddings_en", -1, embDim)
	m.vocab = len(m.emb) / embDim
	inv := l.tensor(pApply+"TransformerStack/Layer_0/AddTimingSignal/TimingSignal/ExpandDims_1", 1, embDim/2)
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
	m.layers[0].denseBias = l.tensor(pApply+"Layer_0/TransformerLayer/dense/bias/ConcatPartitions/concat", modelDim)
	m.tanh = l.matrix("module/Encoder_en/hidden_layers/tanh_layer_0/weights", modelDim, modelDim)
	m.tanhBias = l.tensor("module/Encoder_en/hidden_layers/tanh_layer_0/bias", modelDim)
	m.l2eps = l.scalar("module_apply_default/Encoder_en/hidden_layers/l2_normalize/Maximum/y")
	if maxLen := l.int(pKona + "ClipToMaxLength/Less/y"); l.err == nil && maxLen != MaxTokens {
		l.fail(fmt.Errorf("graph clips to %d tokens, package assumes %d", maxLen, MaxTokens))
	}
	if h := l.int(pApply + "TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/split_heads/split_last_dimension/Reshape/shape/2"); l.err == nil && h != heads {
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

// matrixShapes are the tensors loaded as packed matrices: K×N, any leading
// dimensions of size 1 dropped (the 1×1 convolution kernels).
var matrixShapes = func() map[string][2]int {
	m := map[string][2]int{
		pApply + "Layer_0/TransformerLayer/dense/kernel/ConcatPartitions/concat": {embDim, modelDim},
		"module/Encoder_en/hidden_layers/tanh_layer_0/weights":                   {modelDim, modelDim},
	}
	for i, din := range []int{embDim, modelDim} {
		vp := fmt.Sprintf("%sLayer_%d/TransformerLayer/MultiheadAttention/", pVar, i)
		sp := fmt.Sprintf("%sTransformerStack/Layer_%d/TransformerLayer/FFN/", pApply, i)
		m[vp+"qkv_transform_single/kernel/part_0"] = [2]int{din, 3 * din}
		m[vp+"output_transform_single/kernel/part_0"] = [2]int{din, modelDim}
		m[sp+"conv1/Tensordot/Reshape_1"] = [2]int{modelDim, ffnDim}
		m[sp+"conv2/Tensordot/Reshape_1"] = [2]int{ffnDim, modelDim}
	}
	return m
}()

// loader collects decoded tensors and remembers the first error.
type loader struct {
	floats map[string][]float32
	mats   map[string]matrix
	ints   map[string]int
	shapes map[string][]int
	err    error
}

// decode reads every tensor of r: matrices into packed form, other float32
// tensors as they are, int32 scalars as ints; then checks the CRC.
func (l *loader) decode(r *usefile.Reader) error {
	var buf []float32
	for {
		t, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		l.shapes[t.Name] = t.Shape
		switch {
		case t.DType == "int32":
			if t.Size() == 1 {
				w := []uint32{0}
				if err := r.ReadWords(w); err != nil {
					return err
				}
				l.ints[t.Name] = int(int32(w[0]))
			}
		case matrixShapes[t.Name] != [2]int{}:
			kn := matrixShapes[t.Name]
			if t.Size() != kn[0]*kn[1] || t.Shape[len(t.Shape)-1] != kn[1] {
				return fmt.Errorf("tensor %s: shape %v, want %v", t.Name, t.Shape, kn)
			}
			buf = slices.Grow(buf[:0], t.Size())[:t.Size()]
			if err := r.ReadFloat32(buf); err != nil {
				return err
			}
			l.mats[t.Name] = packMatrix(nil, kn[0], kn[1], buf, kn[1])
		default:
			v := make([]float32, t.Size())
			if err := r.ReadFloat32(v); err != nil {
				return err
			}
			l.floats[t.Name] = v
		}
	}
	return r.Close()
}

func (l *loader) fail(err error) {
	if l.err == nil {
		l.err = err
	}
}

// tensor returns a float32 tensor after checking its shape against dims
// (-1 accepts any size; leading dimensions of size 1 may be missing).
func (l *loader) tensor(name string, dims ...int) []float32 {
	v, ok := l.floats[name]
	if !ok {
		l.fail(fmt.Errorf("no float32 tensor %q", name))
		return nil
	}
	shape := l.shapes[name]
	for len(shape) > len(dims) && shape[0] == 1 {
		shape = shape[1:]
	}
	ok = len(shape) == len(dims)
	for i := 0; ok && i < len(dims); i++ {
		ok = dims[i] < 0 || dims[i] == shape[i]
	}
	if !ok {
		l.fail(fmt.Errorf("tensor %s: shape %v, want %v", name, l.shapes[name], dims))
		return nil
	}
	return v
}

func (l *loader) scalar(name string) float32 {
	v := l.tensor(name)
	if len(v) != 1 {
		l.fail(fmt.Errorf("tensor %s: not a scalar", name))
		return 0
	}
	return v[0]
}

func (l *loader) int(name string) int {
	v, ok := l.ints[name]
	if !ok {
		l.fail(fmt.Errorf("no int32 scalar %q", name))
	}
	return v
}

func (l *loader) matrix(name string, k, n int) matrix {
	m, ok := l.mats[name]
	if !ok {
		l.fail(fmt.Errorf("no matrix %q", name))
		return matrix{}
	}
	if m.k != k || m.n != roundUp(n, tileCols) {
		l.fail(fmt.Errorf("matrix %s: %d×%d, want %d×%d", name, m.k, m.n, k, n))
	}
	return m
}

// layer assembles transformer layer i (0 or 1).
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
		ln1Scale: l.tensor(lp+"layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", din),
		ln1Bias:  l.tensor(lp+"layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", din),
		qkv:      l.matrix(vp+"MultiheadAttention/qkv_transform_single/kernel/part_0", din, 3*din),
		qkvBias:  l.tensor(lp+"MultiheadAttention/qkv_transform_single/bias/ConcatPartitions/concat", 3*din),
		scale:    l.scalar(sp + "MultiheadAttention/mul/y"),
		out:      l.matrix(vp+"MultiheadAttention/output_transform_single/kernel/part_0", din, modelDim),
		outBias:  l.tensor(lp+"MultiheadAttention/output_transform_single/bias/ConcatPartitions/concat", modelDim),
		ln2Scale: l.tensor(lp+"FFN/layer_prepostprocess/layer_norm/layer_norm_scale/ConcatPartitions/concat", modelDim),
		ln2Bias:  l.tensor(lp+"FFN/layer_prepostprocess/layer_norm/layer_norm_bias/ConcatPartitions/concat", modelDim),
		ffn1:     l.matrix(sp+"FFN/conv1/Tensordot/Reshape_1", modelDim, ffnDim),
		ffn1Bias: l.tensor(lp+"FFN/conv1/bias/ConcatPartitions/concat", ffnDim),
		ffn2:     l.matrix(sp+"FFN/conv2/Tensordot/Reshape_1", ffnDim, modelDim),
		ffn2Bias: l.tensor(lp+"FFN/conv2/bias/ConcatPartitions/concat", modelDim),
	}
}
