package appraise

import (
	"cmp"
	"math"
	"slices"
)

// Point is one calibration observation from the verdict log: a verdict's raw
// strength and whether its directional call was a hit (an affirm followed by
// success, a caution followed by failure). A plain value, safe to copy.
type Point struct {
	Strength float64 `json:"strength"`
	Hit      bool    `json:"hit"`
}

// Knot is one bin of a calibration: the mean strength of its points, their
// hit rate and their count. A plain value, safe to copy.
type Knot struct {
	Strength float64 `json:"strength"`
	Rate     float64 `json:"rate"`
	N        int     `json:"n"`
}

// Calibration maps raw strength to the observed hit rate: a monotone,
// piecewise-linear curve through the knots of an isotonic fit. The zero
// value (no knots) is the identity. A Calibration is read-only once built;
// concurrent use is safe.
type Calibration struct {
	Knots []Knot `json:"knots,omitempty"`
}

// Fit returns the isotonic (pool-adjacent-violators) fit of hit rate against
// strength, with bins merged until each holds at least minBin points. With
// fewer than minPoints points it returns the identity: too little data to
// depart from the raw strength. Fit is safe for concurrent use.
func Fit(points []Point, minBin, minPoints int) Calibration {
	if len(points) == 0 || len(points) < minPoints {
		return Calibration{}
	}
	minBin = max(minBin, 1)
	ps := slices.Clone(points)
	slices.SortStableFunc(ps, func(a, b Point) int { return cmp.Compare(a.Strength, b.Strength) })
	type block struct{ sx, sy, n float64 }
	mean := func(b block) float64 { return b.sy / b.n }
	var bs []block
	for _, p := range ps {
		y := 0.0
		if p.Hit {
			y = 1
		}
		bs = append(bs, block{clamp01(p.Strength), y, 1})
		// Pool adjacent violators: keep block means non-decreasing.
		for len(bs) > 1 && mean(bs[len(bs)-2]) >= mean(bs[len(bs)-1]) {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			bs = append(bs[:len(bs)-2], block{a.sx + b.sx, a.sy + b.sy, a.n + b.n})
		}
	}
	// Merge small bins left to right; a short last bin joins its neighbour.
	// Merging adjacent bins of a monotone sequence keeps it monotone.
	var out []block
	var acc block
	for _, b := range bs {
		acc = block{acc.sx + b.sx, acc.sy + b.sy, acc.n + b.n}
		if acc.n >= float64(minBin) {
			out = append(out, acc)
			acc = block{}
		}
	}
	if acc.n > 0 {
		if len(out) == 0 {
			out = append(out, acc)
		} else {
			l := &out[len(out)-1]
			*l = block{l.sx + acc.sx, l.sy + acc.sy, l.n + acc.n}
		}
	}
	c := Calibration{Knots: make([]Knot, len(out))}
	for i, b := range out {
		c.Knots[i] = Knot{Strength: b.sx / b.n, Rate: b.sy / b.n, N: int(b.n)}
	}
	return c
}

// Map returns the calibrated confidence of a raw strength: linear between
// the knots, flat beyond the first and last; the strength itself (clamped
// to [0, 1]) for the identity. Map is safe for concurrent use.
func (c Calibration) Map(strength float64) float64 {
	x := clamp01(strength)
	k := c.Knots
	switch {
	case len(k) == 0:
		return x
	case x <= k[0].Strength:
		return clamp01(k[0].Rate)
	case x >= k[len(k)-1].Strength:
		return clamp01(k[len(k)-1].Rate)
	}
	i, _ := slices.BinarySearchFunc(k, x, func(a Knot, t float64) int { return cmp.Compare(a.Strength, t) })
	a, b := k[i-1], k[i]
	if b.Strength == a.Strength {
		return clamp01(b.Rate)
	}
	f := (x - a.Strength) / (b.Strength - a.Strength)
	return clamp01(a.Rate + f*(b.Rate-a.Rate))
}

// Identity reports whether c is the identity map (not enough data yet). It
// is safe for concurrent use.
func (c Calibration) Identity() bool { return len(c.Knots) == 0 }

// ECE is the expected calibration error of confidences against hits over
// bins equal-width bins on [0, 1]: the count-weighted mean of |mean
// confidence − hit rate| per bin. It is 0 for no points and safe for
// concurrent use.
func ECE(conf []float64, hit []bool, bins int) float64 {
	n := min(len(conf), len(hit))
	if n == 0 || bins <= 0 {
		return 0
	}
	sc := make([]float64, bins)
	sh := make([]float64, bins)
	cnt := make([]float64, bins)
	for i := range n {
		c := clamp01(conf[i])
		b := min(int(c*float64(bins)), bins-1)
		sc[b] += c
		if hit[i] {
			sh[b]++
		}
		cnt[b]++
	}
	var e float64
	for b := range bins {
		if cnt[b] > 0 {
			e += math.Abs(sc[b]-sh[b]) / float64(n)
		}
	}
	return e
}
