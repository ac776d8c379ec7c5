// Package metric holds the numeric helpers that every reported figure goes
// through: Round4, the rounding of scores and rates for stable output, and
// AUROC, the rank statistic the evaluations report. Pure functions, safe for
// concurrent use.
package metric

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// Round4 rounds x to four decimal places, halves away from zero (-0.00005
// rounds to -0.0001, like 0.00005 to 0.0001). NaN and a result of negative
// zero come back as 0, so that JSON output never reads NaN or -0.
func Round4(x float64) float64 {
	if math.IsNaN(x) {
		return 0
	}
	r := math.Round(x*1e4) / 1e4
	if r == 0 {
		return 0 // not -0
	}
	return r
}

// AUROC returns the area under the ROC curve of scores of positives pos
// against negatives neg: the probability that a random positive scores
// higher than a random negative, ties counting one half (the Mann-Whitney U
// statistic divided by len(pos)*len(neg)). It is exact: U is a sum of
// halves. It returns NaN when either slice is empty. It does not modify its
// arguments; O((len(pos)+len(neg)) log len(neg)).
func AUROC(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	sorted := slices.Clone(neg)
	slices.Sort(sorted)
	var u float64
	for _, p := range pos {
		below := sort.SearchFloat64s(sorted, p) // negatives scoring under p
		tied := below
		for tied < len(sorted) && sorted[tied] == p {
			tied++
		}
		u += float64(below) + 0.5*float64(tied-below)
	}
	return u / (float64(len(pos)) * float64(len(neg)))
}

// Quantile returns the q-quantile (0 ≤ q ≤ 1) of sorted, an ascending
// slice: the element at index ⌊q·(n−1)⌋. The zero value for an empty one.
func Quantile[T cmp.Ordered](sorted []T, q float64) T {
	var zero T
	if len(sorted) == 0 {
		return zero
	}
	return sorted[int(math.Max(0, math.Min(1, q))*float64(len(sorted)-1))]
}
