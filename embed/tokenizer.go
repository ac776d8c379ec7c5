package embed

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf16"

	"golang.org/x/text/unicode/norm"
)

// MaxTokens is the built-in model's window: only the first MaxTokens token
// ids of a text are embedded, the rest is ignored (as the reference graph's
// ClipToMaxLength does). Tokenizer.Encode itself returns every id.
const MaxTokens = 128

// separator is SentencePiece's word-boundary mark, U+2581.
const separator = '\u2581'

// reservedPieces are the first vocabulary entries (unknown, <s>, </s>,
// extra_token_id_1..3) that the reference never matches in text.
const reservedPieces = 6

// unknownID is the id emitted for a symbol no piece covers.
const unknownID = 0

// Tokenizer is the SentencePiece unigram tokenizer of the built-in model, a
// port of the reference JavaScript tokenizer (see the package doc for why it
// is not github.com/sugarme/tokenizer). It is immutable and safe for
// concurrent use.
type Tokenizer struct {
	pieces   []string // by id
	utf16Len []int32  // by id: JavaScript string length of the piece
	nodes    []trieNode
	edges    []trieEdge
	// interior holds every rune that occurs in a piece other than as its
	// first rune. No piece spans a position holding any other rune, so
	// every segmentation has a boundary there (see window).
	interior map[rune]bool
	// cutMin is MaxTokens times the longest piece in runes: a prefix that
	// long holds at least MaxTokens tokens unless unknown runs merge.
	cutMin int
}

type trieNode struct {
	first, last int32   // children are edges[first:last], sorted by rune
	id          int32   // piece id ending here, or -1
	score       float64 // its score (a JSON null counts as 0, as in JavaScript)
}

type trieEdge struct {
	r     rune
	child int32
}

// newTokenizer parses the vocabulary JSON: an array of [piece, score] pairs
// whose index is the token id. A null score is read as 0, which is what the
// reference's JavaScript arithmetic does with it.
func newTokenizer(vocabJSON []byte) (*Tokenizer, error) {
	var raw [][2]json.RawMessage
	if err := json.Unmarshal(vocabJSON, &raw); err != nil {
		return nil, fmt.Errorf("parse vocabulary: %w", err)
	}
	t := &Tokenizer{pieces: make([]string, len(raw)), utf16Len: make([]int32, len(raw))}
	scores := make([]float64, len(raw))
	for i, e := range raw {
		if err := json.Unmarshal(e[0], &t.pieces[i]); err != nil {
			return nil, fmt.Errorf("parse vocabulary entry %d: %w", i, err)
		}
		var s *float64
		if err := json.Unmarshal(e[1], &s); err != nil {
			return nil, fmt.Errorf("parse vocabulary entry %d score: %w", i, err)
		}
		if s != nil {
			scores[i] = *s
		}
		if t.pieces[i] == "" {
			return nil, fmt.Errorf("parse vocabulary entry %d: empty piece", i)
		}
		t.utf16Len[i] = int32(len(utf16.Encode([]rune(t.pieces[i]))))
	}
	t.buildTrie(scores)
	return t, nil
}

// buildTrie inserts pieces reservedPieces.. in id order; a later duplicate
// piece overwrites an earlier one, as in the reference trie.
func (t *Tokenizer) buildTrie(scores []float64) {
	type mnode struct {
		children map[rune]int
		id       int
		score    float64
	}
	m := []mnode{{children: map[rune]int{}, id: -1}}
	t.interior = map[rune]bool{}
	longest := 1
	for id := reservedPieces; id < len(t.pieces); id++ {
		n := 0
		runes := 0
		for _, r := range t.pieces[id] {
			if runes > 0 {
				t.interior[r] = true
			}
			runes++
			c, ok := m[n].children[r]
			if !ok {
				c = len(m)
				m = append(m, mnode{children: map[rune]int{}, id: -1})
				m[n].children[r] = c
			}
			n = c
		}
		m[n].id, m[n].score = id, scores[id]
		longest = max(longest, runes)
	}
	t.cutMin = MaxTokens * longest
	t.nodes = make([]trieNode, len(m))
	for i, n := range m {
		runes := make([]rune, 0, len(n.children))
		for r := range n.children {
			runes = append(runes, r)
		}
		slices.Sort(runes)
		first := int32(len(t.edges))
		for _, r := range runes {
			t.edges = append(t.edges, trieEdge{r: r, child: int32(n.children[r])})
		}
		t.nodes[i] = trieNode{first: first, last: int32(len(t.edges)), id: int32(n.id), score: n.score}
	}
}

// child returns the child of node n along r, or -1.
func (t *Tokenizer) child(n int32, r rune) int32 {
	lo, hi := t.nodes[n].first, t.nodes[n].last
	for lo < hi {
		mid := int32(uint32(lo+hi) >> 1)
		if t.edges[mid].r < r {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < t.nodes[n].last && t.edges[lo].r == r {
		return t.edges[lo].child
	}
	return -1
}

// VocabSize returns the number of pieces in the vocabulary.
func (t *Tokenizer) VocabSize() int { return len(t.pieces) }

// Piece returns the vocabulary piece of id, or "" if id is out of range.
func (t *Tokenizer) Piece(id int) string {
	if id < 0 || id >= len(t.pieces) {
		return ""
	}
	return t.pieces[id]
}

// Encode returns the token ids of text, all of them: the model embeds only
// the first MaxTokens. It never fails: invalid UTF-8 bytes become U+FFFD,
// which, like any symbol no piece covers, becomes the unknown id 0 (runs of
// unknown symbols give a single 0). The empty text has no tokens.
//
// The algorithm is exactly the reference's: NFKC-normalise, prefix U+2581
// and replace every space U+0020 by it, then a Viterbi search over code
// points that maximises the sum of piece scores, keeping the reference's
// quirks (an unreached position counts as score 0, ties go to the later
// start, backtracking steps by the piece's UTF-16 length).
func (t *Tokenizer) Encode(text string) []int {
	return t.viterbi(symbols(text))
}

// windowPrefix is how many bytes of a long text window normalises first.
const windowPrefix = 32 << 10

// window returns the first MaxTokens ids of Encode(text) without
// tokenizing all of a long text. Position p of the symbols is a boundary of
// every segmentation when its rune is not interior to any piece, so the
// Viterbi search over the symbols before p, and the backtrack from p, are
// exactly those of the whole text; when that prefix already has MaxTokens
// ids they are the answer. A text cut at a normalisation boundary
// normalises to a prefix of the whole text's normal form.
func (t *Tokenizer) window(text string) []int {
	if len(text) > windowPrefix {
		b := []byte(text[:windowPrefix])
		if k := norm.NFKC.LastBoundary(b); k > 0 {
			sym := symbols(string(b[:k]))
			for p := t.cutMin; p < len(sym); p++ {
				if !t.interior[sym[p]] {
					if ids := t.viterbi(sym[:p]); len(ids) >= MaxTokens {
						return ids[:MaxTokens]
					}
					break
				}
			}
		}
	}
	return truncate(t.Encode(text))
}

// viterbi segments the symbols as the reference does and returns the ids.
func (t *Tokenizer) viterbi(sym []rune) []int {
	n := len(sym)
	if n == 0 {
		return []int{}
	}
	best := make([]float64, n+1)
	words := make([]int32, n+1)
	relax := func(start, end int, score float64, id int32) {
		s := score + best[start]
		if best[end] == 0 || s >= best[end] {
			best[end] = s
			words[end] = id
		}
	}
	for i := range n {
		matched := false
		node := int32(0)
		for j := i; j < n; j++ {
			node = t.child(node, sym[j])
			if node < 0 {
				break
			}
			if nd := &t.nodes[node]; nd.id >= 0 {
				matched = true
				relax(i, j+1, nd.score, nd.id)
			}
		}
		if !matched {
			relax(i, i+1, 0, unknownID)
		}
	}
	var rev []int
	for it := n; it > 0; it -= int(t.utf16Len[words[it]]) {
		rev = append(rev, int(words[it]))
	}
	ids := make([]int, 0, len(rev))
	prevUnknown := false
	for _, id := range rev {
		if !(prevUnknown && id == unknownID) {
			ids = append(ids, id)
		}
		prevUnknown = id == unknownID
	}
	slices.Reverse(ids)
	return ids
}

// symbols returns the code points the reference tokenizes: NFKC(text) with
// U+2581 prepended and every space replaced by U+2581.
func symbols(text string) []rune {
	s := norm.NFKC.String(text)
	if s == "" {
		return nil
	}
	out := make([]rune, 1, len(s)+1)
	out[0] = separator
	for _, r := range s {
		if r == ' ' {
			r = separator
		}
		out = append(out, r)
	}
	return out
}

// truncate returns the first MaxTokens ids.
func truncate(ids []int) []int {
	if len(ids) > MaxTokens {
		return ids[:MaxTokens]
	}
	return ids
}
