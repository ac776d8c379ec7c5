package embed

import "fmt"

// The matrix products run on one register-blocked micro-kernel that adds a
// 6×16 tile of A×B into C: A comes packed 6 rows at a time (k-major, so the
// six values of one k are adjacent) and B is packed in panels of 16 columns
// (k-major, 16 floats per k), so both are read strictly sequentially. The
// K dimension is cut into blocks of kc values so one 16-column panel block
// (kc×16 floats, 16 KB) stays in L1 cache while every row block of A streams
// past it from L2. On amd64 with AVX2 and FMA the kernel is assembly (12
// ymm accumulators, 2 panel loads and 6 broadcasts per k); elsewhere, or
// when disabled, a pure-Go kernel with the same layout runs.

const (
	tileRows = 6   // rows of A per kernel call
	tileCols = 16  // columns of B per panel
	kcBlock  = 256 // K values per cache block
)

// kernelFunc adds the 6×16 product of a packed A block (kc×6) and a packed
// B panel block (kc×16) into the tile of c at c[0], rows ldc apart.
type kernelFunc func(kc int, a, b, c []float32, ldc int)

// matrix is a K×N weight matrix packed in panels of tileCols columns:
// element (k, n) lives at data[(n/16)*K*16 + k*16 + n%16]. N is a multiple
// of tileCols (columns beyond the logical width are zero).
type matrix struct {
	k, n int
	data []float32
}

// packMatrix packs the row-major K×N matrix w (row stride ldw) into panels,
// padding N up to a multiple of tileCols with zeros. dst is reused if large
// enough.
func packMatrix(dst []float32, k, n int, w []float32, ldw int) matrix {
	np := roundUp(n, tileCols)
	size := np * k
	if cap(dst) < size {
		dst = make([]float32, size)
	}
	dst = dst[:size]
	for p := 0; p < np/tileCols; p++ {
		panel := dst[p*k*tileCols : (p+1)*k*tileCols]
		c0 := p * tileCols
		width := min(tileCols, n-c0)
		for kk := range k {
			row := panel[kk*tileCols : (kk+1)*tileCols]
			cnt := copy(row, w[kk*ldw+c0:kk*ldw+c0+width])
			clear(row[cnt:])
		}
	}
	return matrix{k: k, n: np, data: dst}
}

// packTransposed packs the transpose of the row-major N×K matrix v (row
// stride ldv): element (k, n) of the result is v[n*ldv+k].
func packTransposed(dst []float32, k, n int, v []float32, ldv int) matrix {
	np := roundUp(n, tileCols)
	size := np * k
	if cap(dst) < size {
		dst = make([]float32, size)
	}
	dst = dst[:size]
	for p := 0; p < np/tileCols; p++ {
		panel := dst[p*k*tileCols : (p+1)*k*tileCols]
		for j := range tileCols {
			nn := p*tileCols + j
			if nn >= n {
				for kk := range k {
					panel[kk*tileCols+j] = 0
				}
				continue
			}
			src := v[nn*ldv : nn*ldv+k]
			for kk, x := range src {
				panel[kk*tileCols+j] = x
			}
		}
	}
	return matrix{k: k, n: np, data: dst}
}

// gemm adds A×B into C, where A is m×b.k (row-major, row stride lda) and C
// is m×b.n (row stride ldc). Rows of C past m, up to the next multiple of
// tileRows, are read and written back unchanged (the packed A rows there
// are zero), so C must have room for them. apack is scratch space of at
// least roundUp(m, tileRows)*min(b.k, kcBlock) floats.
func gemm(kern kernelFunc, m int, a []float32, lda int, b matrix, c []float32, ldc int, apack []float32) {
	if m <= 0 {
		return
	}
	mp := roundUp(m, tileRows)
	if need := (mp-1)*ldc + b.n; len(c) < need {
		panic(fmt.Sprintf("embed: gemm: C has %d floats, need %d", len(c), need))
	}
	for k0 := 0; k0 < b.k; k0 += kcBlock {
		kc := min(kcBlock, b.k-k0)
		packA(apack, m, mp, kc, a, lda, k0)
		for p := 0; p < b.n/tileCols; p++ {
			bp := b.data[p*b.k*tileCols+k0*tileCols : p*b.k*tileCols+(k0+kc)*tileCols]
			for rb := 0; rb < mp; rb += tileRows {
				kern(kc, apack[rb*kc:(rb+tileRows)*kc], bp, c[rb*ldc+p*tileCols:], ldc)
			}
		}
	}
}

// packA copies columns k0..k0+kc of the m rows of A into dst in blocks of
// tileRows rows, k-major within a block, zero-filling rows m..mp.
func packA(dst []float32, m, mp, kc int, a []float32, lda, k0 int) {
	for rb := 0; rb < mp; rb += tileRows {
		blk := dst[rb*kc : (rb+tileRows)*kc]
		for r := range tileRows {
			row := rb + r
			if row >= m {
				for kk := range kc {
					blk[kk*tileRows+r] = 0
				}
				continue
			}
			src := a[row*lda+k0 : row*lda+k0+kc]
			for kk, x := range src {
				blk[kk*tileRows+r] = x
			}
		}
	}
}

// kernelGo is the portable micro-kernel.
func kernelGo(kc int, a, b, c []float32, ldc int) {
	var acc [tileRows][tileCols]float32
	for r := range tileRows {
		copy(acc[r][:], c[r*ldc:r*ldc+tileCols])
	}
	a = a[:kc*tileRows]
	b = b[:kc*tileCols]
	for kk := range kc {
		bb := (*[tileCols]float32)(b[kk*tileCols:])
		aa := (*[tileRows]float32)(a[kk*tileRows:])
		for r := range tileRows {
			av := aa[r]
			ar := &acc[r]
			ar[0] += av * bb[0]
			ar[1] += av * bb[1]
			ar[2] += av * bb[2]
			ar[3] += av * bb[3]
			ar[4] += av * bb[4]
			ar[5] += av * bb[5]
			ar[6] += av * bb[6]
			ar[7] += av * bb[7]
			ar[8] += av * bb[8]
			ar[9] += av * bb[9]
			ar[10] += av * bb[10]
			ar[11] += av * bb[11]
			ar[12] += av * bb[12]
			ar[13] += av * bb[13]
			ar[14] += av * bb[14]
			ar[15] += av * bb[15]
		}
	}
	for r := range tileRows {
		copy(c[r*ldc:r*ldc+tileCols], acc[r][:])
	}
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }
