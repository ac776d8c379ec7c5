package embed

import (
	"math"
)

// groupRows is the most token rows one forward pass handles: EmbedBatch
// packs several texts into one pass, up to this many tokens, so each weight
// read from memory serves more rows.
const groupRows = 256

// scratch holds the activations of one forward pass of up to groupRows
// rows. Every row buffer has tileRows rows of slack, which gemm may read
// and write back unchanged.
type scratch struct {
	x0, y, h, qkv, att, ffn []float32
	scores                  []float32 // MaxTokens+slack rows × MaxTokens
	kpack, vpack            []float32 // packed K^T and V of one head
	apack                   []float32 // gemm's packed A block
	pooled, out             []float32 // one row per text
}

func newScratch() *scratch {
	rows := groupRows + tileRows
	return &scratch{
		x0:     make([]float32, rows*embDim),
		y:      make([]float32, rows*modelDim),
		h:      make([]float32, rows*modelDim),
		qkv:    make([]float32, rows*3*modelDim),
		att:    make([]float32, rows*modelDim),
		ffn:    make([]float32, rows*ffnDim),
		scores: make([]float32, (MaxTokens+tileRows)*MaxTokens),
		kpack:  make([]float32, MaxTokens*modelDim/heads),
		vpack:  make([]float32, MaxTokens*modelDim/heads),
		apack:  make([]float32, roundUp(rows, tileRows)*kcBlock),
		pooled: make([]float32, rows*modelDim),
		out:    make([]float32, rows*modelDim),
	}
}

func (m *model) getScratch() *scratch {
	if s, ok := m.scratch.Get().(*scratch); ok {
		return s
	}
	return newScratch()
}

// embedGroup embeds texts given as token ids (each 1..MaxTokens ids, at
// most groupRows in all) and writes one L2-normalised 512-d vector per text
// into dst (allocated when nil).
func (m *model) embedGroup(seqs [][]int, dst [][]float32) {
	s := m.getScratch()
	defer m.scratch.Put(s)
	rows := 0
	for _, ids := range seqs {
		for t, id := range ids {
			if id < 0 || id >= m.vocab {
				id = unknownID
			}
			e := m.emb[id*embDim : (id+1)*embDim]
			tm := m.timing[t*embDim : (t+1)*embDim]
			x := s.x0[rows*embDim : (rows+1)*embDim]
			for i := range x {
				// The graph adds the embeddings twice: once as the layer
				// input and once inside AddTimingSignal.
				x[i] = e[i] + (e[i] + tm[i])
			}
			rows++
		}
	}
	m.layer0(s, seqs, rows)
	m.layer1(s, seqs, rows)

	// Mean over each text's tokens, then tanh(pool·W + b), then L2 norm.
	r := 0
	for i, ids := range seqs {
		p := s.pooled[i*modelDim : (i+1)*modelDim]
		clear(p)
		for range ids {
			addTo(p, s.y[r*modelDim:(r+1)*modelDim])
			r++
		}
		inv := float32(len(ids))
		for j := range p {
			p[j] /= inv
		}
	}
	n := len(seqs)
	fillRows(s.out, n, modelDim, m.tanhBias)
	gemm(m.kern, n, s.pooled, modelDim, m.tanh, s.out, modelDim, s.apack)
	for i := range seqs {
		v := s.out[i*modelDim : (i+1)*modelDim]
		tanhInPlace(v)
		l2Normalize(v, m.l2eps)
		if dst[i] == nil {
			dst[i] = make([]float32, modelDim)
		}
		copy(dst[i], v)
	}
}

// layer0 reads s.x0 (256-d) and leaves the layer output in s.y (512-d).
func (m *model) layer0(s *scratch, seqs [][]int, rows int) {
	L := &m.layers[0]
	m.attentionBlock(s, L, s.x0, seqs, rows)
	// y = att·Wo + bo + x0·Wd + bd: the input is projected to 512-d for the
	// residual connection (AdjustResidualInput).
	for r := range rows {
		y := s.y[r*modelDim : (r+1)*modelDim]
		for j := range y {
			y[j] = L.outBias[j] + L.denseBias[j]
		}
	}
	gemm(m.kern, rows, s.att, L.din, L.out, s.y, modelDim, s.apack)
	gemm(m.kern, rows, s.x0, embDim, *L.dense, s.y, modelDim, s.apack)
	m.ffnBlock(s, L, rows)
}

// layer1 updates s.y in place.
func (m *model) layer1(s *scratch, seqs [][]int, rows int) {
	L := &m.layers[1]
	m.attentionBlock(s, L, s.y, seqs, rows)
	for r := range rows {
		addTo(s.y[r*modelDim:(r+1)*modelDim], L.outBias)
	}
	gemm(m.kern, rows, s.att, L.din, L.out, s.y, modelDim, s.apack)
	m.ffnBlock(s, L, rows)
}

// attentionBlock computes multi-head self-attention of LayerNorm(x) within
// each text into s.att (rows × din).
func (m *model) attentionBlock(s *scratch, L *layer, x []float32, seqs [][]int, rows int) {
	din := L.din
	layerNorm(s.h, x, rows, din, L.ln1Scale, L.ln1Bias, m.eps)
	fillRows(s.qkv, rows, 3*din, L.qkvBias)
	gemm(m.kern, rows, s.h, din, L.qkv, s.qkv, 3*din, s.apack)
	clear(s.att[:(rows+tileRows)*din])
	start := 0
	for _, ids := range seqs {
		m.attend(s, L, start, len(ids))
		start += len(ids)
	}
}

// attend runs the heads of one text: rows start..start+n of s.qkv hold
// [q | k | v], each din wide.
func (m *model) attend(s *scratch, L *layer, start, n int) {
	din := L.din
	ld := 3 * din
	d := din / heads
	np := roundUp(n, tileCols)
	base := s.qkv[start*ld:]
	for h := range heads {
		// scores = q·kᵀ (n × n, row stride np)
		kt := packTransposed(s.kpack, d, n, base[din+h*d:], ld)
		sc := s.scores[:(roundUp(n, tileRows)-1)*np+np]
		clear(sc)
		gemm(m.kern, n, base[h*d:], ld, kt, sc, np, s.apack)
		for i := range n {
			softmaxScaled(sc[i*np:i*np+n], L.scale)
		}
		// att[:, h·d:(h+1)·d] = softmax · v
		v := packMatrix(s.vpack, n, d, base[2*din+h*d:], ld)
		gemm(m.kern, n, sc, np, v, s.att[start*din+h*d:], din, s.apack)
	}
}

// ffnBlock adds ReLU(LayerNorm(y)·W1 + b1)·W2 + b2 to s.y.
func (m *model) ffnBlock(s *scratch, L *layer, rows int) {
	layerNorm(s.h, s.y, rows, modelDim, L.ln2Scale, L.ln2Bias, m.eps)
	fillRows(s.ffn, rows, ffnDim, L.ffn1Bias)
	gemm(m.kern, rows, s.h, modelDim, L.ffn1, s.ffn, ffnDim, s.apack)
	relu(s.ffn[:rows*ffnDim])
	for r := range rows {
		addTo(s.y[r*modelDim:(r+1)*modelDim], L.ffn2Bias)
	}
	gemm(m.kern, rows, s.ffn, ffnDim, L.ffn2, s.y, modelDim, s.apack)
}

// layerNorm writes scale·(x−mean)/sqrt(var+eps) + bias of each row of x to dst.
func layerNorm(dst, x []float32, rows, n int, scale, bias []float32, eps float32) {
	for r := range rows {
		xr := x[r*n : (r+1)*n]
		dr := dst[r*n : (r+1)*n]
		var sum float32
		for _, v := range xr {
			sum += v
		}
		mean := sum / float32(n)
		var sq float32
		for _, v := range xr {
			d := v - mean
			sq += d * d
		}
		inv := float32(1 / math.Sqrt(float64(sq/float32(n)+eps)))
		for i, v := range xr {
			dr[i] = scale[i]*inv*(v-mean) + bias[i]
		}
	}
}

// softmaxScaled replaces v by softmax(scale·v).
func softmaxScaled(v []float32, scale float32) {
	mx := float32(math.Inf(-1))
	for i := range v {
		v[i] *= scale
		mx = max(mx, v[i])
	}
	var sum float32
	for i, x := range v {
		e := expf(x - mx)
		v[i] = e
		sum += e
	}
	inv := 1 / sum
	for i := range v {
		v[i] *= inv
	}
}

// fillRows sets each of the rows of dst (width n) to bias.
func fillRows(dst []float32, rows, n int, bias []float32) {
	for r := range rows {
		copy(dst[r*n:(r+1)*n], bias)
	}
}

func addTo(dst, src []float32) {
	src = src[:len(dst)]
	for i, v := range src {
		dst[i] += v
	}
}

func relu(v []float32) {
	for i, x := range v {
		if x < 0 {
			v[i] = 0
		}
	}
}

func tanhInPlace(v []float32) {
	for i, x := range v {
		v[i] = float32(math.Tanh(float64(x)))
	}
}

// l2Normalize scales v to unit length: v·rsqrt(max(Σv², eps)).
func l2Normalize(v []float32, eps float32) {
	var sq float64
	for _, x := range v {
		sq += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(max(sq, float64(eps))))
	for i := range v {
		v[i] *= inv
	}
}

// expf is float32 e^x.
func expf(x float32) float32 { return float32(math.Exp(float64(x))) }
