package embed

import "math"

// groupRows is the most token rows one forward pass handles: EmbedBatch
// packs several texts into one pass, up to this many tokens, so each weight
// read from memory serves more rows.
const groupRows = 256

// scratch holds the activations of one forward pass of up to groupRows
// rows.
type scratch struct {
	x0, y, h, qkv, att, ffn []float32
	scores                  []float32 // MaxTokens × MaxTokens
	kpack, vpack            []float32 // packed K^T and V of one head
	pooled, out             []float32 // one row per text
}

func newScratch() *scratch {
	rows := groupRows
	return &scratch{
		x0:     make([]float32, rows*embDim),
		y:      make([]float32, rows*modelDim),
		h:      make([]float32, rows*modelDim),
		qkv:    make([]float32, rows*3*modelDim),
		att:    make([]float32, rows*modelDim),
		ffn:    make([]float32, rows*ffnDim),
		scores: make([]float32, MaxTokens*MaxTokens),
		kpack:  make([]float32, MaxTokens*modelDim/heads),
		vpack:  make([]float32, MaxTokens*modelDim/heads),
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
		count := float32(len(ids))
		for j := range p {
			p[j] /= count
		}
	}
	n := len(seqs)
	fillRows(s.out, n, modelDim, m.tanhBias)
	gemm(m.kern, n, s.pooled, modelDim, m.tanh, s.out, modelDim, false)
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
	gemm(m.kern, rows, s.att, L.din, L.out, s.y, modelDim, false)
	gemm(m.kern, rows, s.x0, embDim, *L.dense, s.y, modelDim, false)
	m.ffnBlock(s, L, rows)
}

// layer1 updates s.y in place.
func (m *model) layer1(s *scratch, seqs [][]int, rows int) {
	L := &m.layers[1]
	m.attentionBlock(s, L, s.y, seqs, rows)
	for r := range rows {
		addTo(s.y[r*modelDim:(r+1)*modelDim], L.outBias)
	}
	gemm(m.kern, rows, s.att, L.din, L.out, s.y, modelDim, false)
	m.ffnBlock(s, L, rows)
}

// attentionBlock computes multi-head self-attention of LayerNorm(x) within
// each text into s.att (rows × din).
func (m *model) attentionBlock(s *scratch, L *layer, x []float32, seqs [][]int, rows int) {
	din := L.din
	layerNorm(s.h, x, rows, din, L.ln1Scale, L.ln1Bias, m.eps)
	fillRows(s.qkv, rows, 3*din, L.qkvBias)
	gemm(m.kern, rows, s.h, din, L.qkv, s.qkv, 3*din, false)
	clear(s.att[:rows*din])
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
		sc := s.scores[:n*np]
		clear(sc)
		gemm(m.kern, n, base[h*d:], ld, kt, sc, np, false)
		for i := range n {
			softmaxScaled(sc[i*np:i*np+n], L.scale)
		}
		// att[:, h·d:(h+1)·d] = softmax · v
		v := packMatrix(s.vpack, n, d, base[2*din+h*d:], ld)
		gemm(m.kern, n, sc, np, v, s.att[start*din+h*d:], din, false)
	}
}

// ffnBlock adds ReLU(LayerNorm(y)·W1 + b1)·W2 + b2 to s.y.
func (m *model) ffnBlock(s *scratch, L *layer, rows int) {
	layerNorm(s.h, s.y, rows, modelDim, L.ln2Scale, L.ln2Bias, m.eps)
	fillRows(s.ffn, rows, ffnDim, L.ffn1Bias)
	gemm(m.kern, rows, s.h, modelDim, L.ffn1, s.ffn, ffnDim, true)
	for r := range rows {
		addTo(s.y[r*modelDim:(r+1)*modelDim], L.ffn2Bias)
	}
	gemm(m.kern, rows, s.ffn, ffnDim, L.ffn2, s.y, modelDim, false)
}

// layerNorm writes scale·(x−mean)/sqrt(var+eps) + bias of each row of x
// to dst (the graph's layer_norm: biased variance, eps inside the root).
func layerNorm(dst, x []float32, rows, n int, scale, bias []float32, eps float32) {
	scale, bias = scale[:n], bias[:n]
	for r := range rows {
		xr := x[r*n : (r+1)*n]
		dr := dst[r*n : (r+1)*n]
		mean := sum4(xr) / float32(n)
		var s0, s1, s2, s3 float32
		i := 0
		for ; i+4 <= n; i += 4 {
			d0, d1, d2, d3 := xr[i]-mean, xr[i+1]-mean, xr[i+2]-mean, xr[i+3]-mean
			s0 += d0 * d0
			s1 += d1 * d1
			s2 += d2 * d2
			s3 += d3 * d3
		}
		for ; i < n; i++ {
			d := xr[i] - mean
			s0 += d * d
		}
		inv := float32(1 / math.Sqrt(float64((s0+s1+s2+s3)/float32(n)+eps)))
		for i, v := range xr {
			dr[i] = scale[i]*inv*(v-mean) + bias[i]
		}
	}
}

// sum4 sums v with four accumulators.
func sum4(v []float32) float32 {
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(v); i += 4 {
		s0 += v[i]
		s1 += v[i+1]
		s2 += v[i+2]
		s3 += v[i+3]
	}
	for ; i < len(v); i++ {
		s0 += v[i]
	}
	return (s0 + s1) + (s2 + s3)
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

// expf returns e^x in float32 precision (within 2 ulp for x ≤ 0, the
// softmax range; checked against math.Exp in TestExpf). It is the Cephes
// expf polynomial: x = n·ln2 + r with |r| ≤ ln2/2, e^r by a degree-6
// polynomial, 2^n through the exponent bits; n is rounded by adding and
// subtracting 1.5·2²³, which is exact for |n| < 2²². Results below ~1e-38
// flush to 0, which softmax does not notice.
func expf(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		ln2hi = 0.693359375
		ln2lo = -2.12194440e-4
		round = 12582912 // 1.5·2²³
	)
	if x < -87 {
		return 0
	}
	if x > 88 {
		return float32(math.Inf(1))
	}
	t := x*log2e + round
	n := t - round
	r := x - n*ln2hi - n*ln2lo
	p := float32(1.9875691500e-4)
	p = p*r + 1.3981999507e-3
	p = p*r + 8.3334519073e-3
	p = p*r + 4.1665795894e-2
	p = p*r + 1.6666665459e-1
	p = p*r + 5.0000001201e-1
	y := p*r*r + r + 1
	return y * math.Float32frombits(uint32(int32(n)+127)<<23)
}
