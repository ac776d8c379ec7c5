package sanitize

import (
	"regexp"
	"unicode/utf8"
)

// span is a half-open byte range.
type span struct{ start, end int }

// anchorScanner finds every occurrence of a fixed set of literals in one
// pass (an Aho-Corasick automaton over byte classes). Literals are anchors
// of rules (every match of a rule begins at one of its anchors, so a rule's
// regexp only runs, anchored, at those offsets) or other literals a caller
// wants located.
type anchorScanner struct {
	class  [256]uint8
	nclass int
	delta  []uint16  // delta[state*nclass+class] = next state
	out    [][]int32 // out[state] = literals ending here
	term   []bool    // term[state]: some literal ends here
	lits   []string
	rules  [][]int // rules[lit] = rules using lit as an anchor
	// wordStart makes an anchor that begins with an ASCII letter or digit
	// count only at the start of a word.
	wordStart bool
}

// newAnchorScanner builds a scanner for the anchors of each rule plus the
// extra literals; literal ids are assigned in order of first appearance,
// anchors first. lit returns the id of a literal.
func newAnchorScanner(ruleAnchors [][]string, extra []string, wordStart bool) (sc *anchorScanner, lit func(string) int) {
	sc = &anchorScanner{wordStart: wordStart}
	pos := map[string]int{}
	add := func(a string) int {
		i, ok := pos[a]
		if !ok {
			i = len(sc.lits)
			pos[a] = i
			sc.lits = append(sc.lits, a)
			sc.rules = append(sc.rules, nil)
		}
		return i
	}
	for r, as := range ruleAnchors {
		for _, a := range as {
			i := add(a)
			sc.rules[i] = append(sc.rules[i], r)
		}
	}
	for _, a := range extra {
		add(a)
	}
	sc.build()
	return sc, func(a string) int { return pos[a] }
}

func (sc *anchorScanner) build() {
	// Byte classes: one per byte used by a literal, class 0 for the rest.
	sc.nclass = 1
	for _, a := range sc.lits {
		for i := 0; i < len(a); i++ {
			if sc.class[a[i]] == 0 {
				sc.class[a[i]] = uint8(sc.nclass)
				sc.nclass++
			}
		}
	}
	// Trie.
	type node struct {
		next map[uint8]int32
		fail int32
	}
	nodes := []node{{next: map[uint8]int32{}}}
	outs := [][]int32{nil}
	for ai, a := range sc.lits {
		s := int32(0)
		for i := 0; i < len(a); i++ {
			c := sc.class[a[i]]
			n, ok := nodes[s].next[c]
			if !ok {
				n = int32(len(nodes))
				nodes = append(nodes, node{next: map[uint8]int32{}})
				outs = append(outs, nil)
				nodes[s].next[c] = n
			}
			s = n
		}
		outs[s] = append(outs[s], int32(ai))
	}
	// Breadth-first failure links and the full transition table.
	nc := sc.nclass
	if len(nodes) > 1<<16 {
		panic("sanitize: too many anchor states for a uint16 table")
	}
	sc.delta = make([]uint16, len(nodes)*nc)
	queue := []int32{}
	for c := 0; c < nc; c++ {
		if n, ok := nodes[0].next[uint8(c)]; ok {
			sc.delta[c] = uint16(n)
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f := nodes[s].fail
		if s != 0 && f != s {
			outs[s] = append(outs[s], outs[f]...)
		}
		for c := 0; c < nc; c++ {
			if n, ok := nodes[s].next[uint8(c)]; ok {
				nodes[n].fail = int32(sc.delta[int(f)*nc+c])
				if s == 0 {
					nodes[n].fail = 0
				}
				sc.delta[int(s)*nc+c] = uint16(n)
				queue = append(queue, n)
			} else if s != 0 {
				sc.delta[int(s)*nc+c] = sc.delta[int(f)*nc+c]
			}
		}
	}
	sc.out = outs
	sc.term = make([]bool, len(outs))
	for i, o := range outs {
		sc.term[i] = len(o) > 0
	}
}

// scan calls found(lit, start) for every occurrence of a literal in s, in
// order of the occurrence's end offset.
func (sc *anchorScanner) scan(s string, found func(lit, start int)) {
	state := 0
	nc := sc.nclass
	delta, class, term := sc.delta, &sc.class, sc.term
	for i := 0; i < len(s); i++ {
		state = int(delta[state*nc+int(class[s[i]])])
		if term[state] {
			for _, ai := range sc.out[state] {
				found(int(ai), i+1-len(sc.lits[ai]))
			}
		}
	}
}

// anchorOK reports whether literal lit at start may begin a rule match: with
// wordStart, an anchor beginning with an ASCII letter or digit must start a
// word.
func (sc *anchorScanner) anchorOK(s string, lit, start int) bool {
	a := sc.lits[lit]
	return !sc.wordStart || start == 0 || a[0] >= utf8.RuneSelf || !isWordByte(a[0]) || !isWordByte(s[start-1])
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}

// matchAt runs re, which must be anchored with ^, on s[start:start+maxLen]
// (extended to a rune boundary) and returns the submatch indexes shifted to
// offsets of s, or nil.
func matchAt(re *regexp.Regexp, s string, start, maxLen int) []int {
	end := min(len(s), start+maxLen)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	m := re.FindStringSubmatchIndex(s[start:end])
	if m == nil {
		return nil
	}
	for i := range m {
		if m[i] >= 0 {
			m[i] += start
		}
	}
	return m
}

// alignRight moves i forward to a rune boundary of s.
func alignRight(s string, i int) int {
	if i >= len(s) {
		return len(s)
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}
