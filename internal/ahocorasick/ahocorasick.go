// Package ahocorasick finds every occurrence of a fixed set of byte strings
// in one pass over a text: an Aho-Corasick automaton compiled to a full
// deterministic table, one lookup per input byte, no backtracking.
//
// The term lexicon of hesitation and the rule anchors of sanitize are both
// matched with it; callers that need word boundaries or case folding apply
// them around the scan (fold the text first, check the boundaries of each
// match).
package ahocorasick

import "unsafe"

// Automaton matches a fixed set of patterns. Bytes that occur in no pattern
// share one class, which keeps the table small. An Automaton is read-only
// after New and safe for concurrent use.
type Automaton struct {
	class  [256]uint8 // byte -> class; class 0 = bytes in no pattern
	nclass int
	// delta maps row+class to the next state's row (state*nclass), with
	// emitBit set when that state ends a pattern (itself or by its
	// output link).
	delta []uint32
	out   []int32 // pattern ending exactly at the state, or -1
	link  []int32 // nearest state on the fail chain with out >= 0, or -1
	pats  []int32 // pattern lengths in bytes
}

// emitBit flags a delta entry whose target state reports matches.
const emitBit = 1 << 31

// New compiles patterns; pattern i is reported with id i. Empty patterns
// are ignored, and a duplicate is reported with the id of its first
// occurrence only. It panics if the table would need 2^31 entries or more
// (states times byte classes), far beyond any embedded term list.
func New(patterns []string) *Automaton {
	a := &Automaton{pats: make([]int32, len(patterns))}
	a.nclass = 1
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			if a.class[p[i]] == 0 {
				a.class[p[i]] = uint8(a.nclass)
				a.nclass++
			}
		}
	}
	// Trie with sparse children while building.
	type node struct {
		next map[uint8]int32
		fail int32
	}
	nodes := []node{{next: map[uint8]int32{}}}
	a.out = []int32{-1}
	for id, p := range patterns {
		a.pats[id] = int32(len(p))
		if p == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(p); i++ {
			c := a.class[p[i]]
			nx, ok := nodes[s].next[c]
			if !ok {
				nx = int32(len(nodes))
				nodes = append(nodes, node{next: map[uint8]int32{}})
				a.out = append(a.out, -1)
				nodes[s].next[c] = nx
			}
			s = nx
		}
		if a.out[s] < 0 {
			a.out[s] = int32(id)
		}
	}
	if len(nodes)*a.nclass >= emitBit {
		panic("ahocorasick: too many automaton states")
	}
	a.link = make([]int32, len(nodes))
	a.delta = make([]uint32, len(nodes)*a.nclass) // state ids first, rows below
	// Breadth-first: fail links, output links and the full transition
	// table (a missing goto follows the fail state's transition).
	queue := make([]int32, 0, len(nodes))
	a.link[0] = -1
	for c := 0; c < a.nclass; c++ {
		if nx, ok := nodes[0].next[uint8(c)]; ok {
			a.delta[c] = uint32(nx)
			nodes[nx].fail = 0
			a.link[nx] = -1
			queue = append(queue, nx)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[s].fail
		for c := 0; c < a.nclass; c++ {
			if nx, ok := nodes[s].next[uint8(c)]; ok {
				fs := int32(a.delta[int(f)*a.nclass+c])
				nodes[nx].fail = fs
				if a.out[fs] >= 0 {
					a.link[nx] = fs
				} else {
					a.link[nx] = a.link[fs]
				}
				a.delta[int(s)*a.nclass+c] = uint32(nx)
				queue = append(queue, nx)
			} else {
				a.delta[int(s)*a.nclass+c] = a.delta[int(f)*a.nclass+c]
			}
		}
	}
	// Turn state ids into row offsets and mark the emitting targets.
	for i, nx := range a.delta {
		v := nx * uint32(a.nclass)
		if a.out[nx] >= 0 || a.link[nx] >= 0 {
			v |= emitBit
		}
		a.delta[i] = v
	}
	return a
}

// Scan calls fn for every occurrence of every pattern in text, in order of
// end position and, at equal ends, longest first, with the pattern's id and
// the byte offsets [start, end) of the occurrence.
func (a *Automaton) Scan(text string, fn func(id, start, end int)) {
	var row uint32
	delta, class := a.delta, &a.class
	for i := 0; i < len(text); i++ {
		row = delta[row+uint32(class[text[i]])]
		if row&emitBit == 0 {
			continue
		}
		row &^= emitBit
		o := int32(row / uint32(a.nclass))
		if a.out[o] < 0 {
			o = a.link[o]
		}
		for o > 0 {
			id := a.out[o]
			fn(int(id), i+1-int(a.pats[id]), i+1)
			o = a.link[o]
		}
	}
}

// ScanBytes is Scan over a byte slice, which it reads in place, without a
// copy, and does not keep.
func (a *Automaton) ScanBytes(text []byte, fn func(id, start, end int)) {
	a.Scan(unsafe.String(unsafe.SliceData(text), len(text)), fn)
}
