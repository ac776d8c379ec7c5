package hesitation

// automaton is an Aho-Corasick matcher over bytes. It finds every
// occurrence of every pattern in one pass over the text, in time linear in
// the text plus the number of matches, with no backtracking. It is
// read-only after construction and safe for concurrent use.
type automaton struct {
	root  [256]int32 // transitions out of the root, dense for speed
	nodes []acNode
	pats  []int32 // pattern lengths in bytes
}

// acNode is one trie state.
type acNode struct {
	edges []acEdge // sorted by byte
	fail  int32
	out   int32 // pattern id ending exactly here, or -1
	link  int32 // nearest state on the fail chain with out >= 0, or -1
}

// acEdge is one goto transition.
type acEdge struct {
	b  byte
	to int32
}

// newAutomaton compiles patterns; pattern i is reported with id i. Empty
// patterns are ignored. Duplicate patterns are reported once, with the
// lowest id, so callers must deduplicate beforehand if they care.
func newAutomaton(patterns []string) *automaton {
	a := &automaton{nodes: []acNode{{fail: 0, out: -1, link: -1}}, pats: make([]int32, len(patterns))}
	for id, p := range patterns {
		a.pats[id] = int32(len(p))
		if p == "" {
			continue
		}
		s := int32(0)
		for i := 0; i < len(p); i++ {
			nx := a.child(s, p[i])
			if nx < 0 {
				nx = int32(len(a.nodes))
				a.nodes = append(a.nodes, acNode{out: -1, link: -1})
				a.addEdge(s, p[i], nx)
			}
			s = nx
		}
		if a.nodes[s].out < 0 {
			a.nodes[s].out = int32(id)
		}
	}
	// Breadth-first construction of fail and output links.
	queue := make([]int32, 0, len(a.nodes))
	for _, e := range a.nodes[0].edges {
		a.nodes[e.to].fail = 0
		queue = append(queue, e.to)
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, e := range a.nodes[s].edges {
			f := a.nodes[s].fail
			for {
				if nx := a.child(f, e.b); nx >= 0 && nx != e.to {
					a.nodes[e.to].fail = nx
					break
				}
				if f == 0 {
					a.nodes[e.to].fail = 0
					break
				}
				f = a.nodes[f].fail
			}
			fs := a.nodes[e.to].fail
			if a.nodes[fs].out >= 0 {
				a.nodes[e.to].link = fs
			} else {
				a.nodes[e.to].link = a.nodes[fs].link
			}
			queue = append(queue, e.to)
		}
	}
	for i := range a.root {
		a.root[i] = 0
	}
	for _, e := range a.nodes[0].edges {
		a.root[e.b] = e.to
	}
	return a
}

// child returns the goto transition of s on b, or -1.
func (a *automaton) child(s int32, b byte) int32 {
	for _, e := range a.nodes[s].edges {
		if e.b == b {
			return e.to
		}
		if e.b > b {
			break
		}
	}
	return -1
}

// addEdge inserts a transition keeping edges sorted.
func (a *automaton) addEdge(s int32, b byte, to int32) {
	es := a.nodes[s].edges
	i := len(es)
	for i > 0 && es[i-1].b > b {
		i--
	}
	es = append(es, acEdge{})
	copy(es[i+1:], es[i:])
	es[i] = acEdge{b: b, to: to}
	a.nodes[s].edges = es
}

// scan calls fn for every occurrence of every pattern in text, in order of
// end position, with byte offsets [start, end).
func (a *automaton) scan(text []byte, fn func(id int32, start, end int)) {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		for {
			if s == 0 {
				s = a.root[c]
				break
			}
			if nx := a.child(s, c); nx >= 0 {
				s = nx
				break
			}
			s = a.nodes[s].fail
		}
		if s == 0 {
			continue
		}
		o := s
		if a.nodes[o].out < 0 {
			o = a.nodes[o].link
		}
		for o > 0 {
			id := a.nodes[o].out
			fn(id, i+1-int(a.pats[id]), i+1)
			o = a.nodes[o].link
		}
	}
}
