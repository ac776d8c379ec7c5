package hesitation

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/terms"
)

// Byte classes for the tokenizer.
const (
	bToken  = 1 << iota // belongs to a code-like token
	bDigit              // 0-9
	bSep                // . / : = ( ) — splits a token into parts
	bComma              // ,
	bOther              // - % $ @ # + ~ _
	bLetter             // a-z, A-Z
	bUpper              // A-Z
)

// byteInfo holds the class bits of every byte.
var byteInfo = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if isWordByte(byte(c)) {
			t[c] = bToken
		}
		if isLower(byte(c)) || isUpper(byte(c)) {
			t[c] |= bLetter
		}
		if isUpper(byte(c)) {
			t[c] |= bUpper
		}
	}
	for c := '0'; c <= '9'; c++ {
		t[c] |= bDigit
	}
	for _, c := range []byte("./:=()") {
		t[c] = bToken | bSep
	}
	t[','] = bToken | bComma
	for _, c := range []byte("-%$@#+~_") {
		t[c] = bToken | bOther
	}
	return t
}()

// tokenizer walks the code-like tokens of a text (folded or not; the spans
// are the same): maximal runs of token bytes (and apostrophes inside
// words), trimmed of sentence punctuation, commas that do not sit between
// digits, and unbalanced brackets. Other characters, CJK included, separate
// tokens.
type tokenizer[T string | []byte] struct {
	s T
	i int
}

// next returns the next token [a, b) and hint bits: the union of the byte
// classes of the untrimmed run (a class absent from hint is absent from the
// token). ok is false at the end.
func (t *tokenizer[T]) next() (a, b int, hint uint8, ok bool) {
	s := t.s
	for {
		i := t.i
		for i < len(s) && byteInfo[s[i]]&bToken == 0 {
			i++
		}
		if i >= len(s) {
			t.i = i
			return 0, 0, 0, false
		}
		j := i
		hint = 0
		for {
			for j < len(s) { // the common case: a run of letters
				info := byteInfo[s[j]]
				if info&bLetter == 0 {
					break
				}
				hint |= info
				j++
			}
			if j >= len(s) {
				break
			}
			c := s[j]
			info := byteInfo[c]
			if info&bToken == 0 {
				if c == '\'' && j > i && isWordByte(s[j-1]) && j+1 < len(s) && isLower(s[j+1]|0x20) {
					j++ // "don't", "it's"
					continue
				}
				break
			}
			if info&bComma != 0 && !(j > i && isDigit(s[j-1]) && j+1 < len(s) && isDigit(s[j+1])) {
				break
			}
			hint |= info
			j++
		}
		a, b = i, j
		if hint&(bSep|bComma|bOther) != 0 {
			for a < b && (s[a] == '(' || s[a] == ',' || s[a] == ':' || s[a] == '.' || s[a] == ')' || s[a] == '=') {
				a++
			}
			for b > a {
				c := s[b-1]
				if c == '.' || c == ',' || c == ':' || c == '-' || c == '/' || c == '=' || (c == ')' && !(b-2 >= a && s[b-2] == '(')) {
					b--
					continue
				}
				break
			}
		}
		if j == i {
			j++
		}
		t.i = j
		if a < b {
			return a, b, hint, true
		}
	}
}

// normalised returns the normal form of token s[a:b] with hint bits hint,
// using buf when it must change the bytes (see normInto).
func normalised(buf, s []byte, a, b int, hint uint8) ([]byte, []byte) {
	if hint&(bSep|bComma) == 0 && !(s[a] == 'v' && b-a > 1 && isDigit(s[a+1])) {
		return s[a:b], buf
	}
	buf = normInto(buf[:0], s[a:b])
	return buf, buf
}

// normInto appends to dst the normal form of a folded token, used to look
// tokens up: no surrounding quotes, no call arguments ("os.exit(1)" is
// "os.exit"), no leading "v" on a version, no thousands separators.
func normInto(dst, t []byte) []byte {
	for len(t) > 0 && isQuote(t[0]) {
		t = t[1:]
	}
	for len(t) > 0 && isQuote(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	if i := bytes.IndexByte(t, '('); i > 0 {
		t = t[:i] // a call: "os.exit(1)" is "os.exit"
	}
	if len(t) > 1 && t[0] == 'v' && isDigit(t[1]) {
		t = t[1:]
	}
	for _, c := range t {
		if c != ',' {
			dst = append(dst, c)
		}
	}
	return dst
}

// isPartSep reports the separators at which a token splits into parts.
func isPartSep(c byte) bool {
	return c == '.' || c == '/' || c == ':' || c == '=' || c == '(' || c == ')'
}

// eachToken calls fn with every normalised token of folded text: Latin
// words and code tokens ("rm", "-rf", "os.removeall"), their parts at . / :
// = ( ) when parts is true, and CJK character bigrams. The slice passed to
// fn is only valid during the call.
func eachToken(folded []byte, parts bool, fn func(tok []byte)) {
	var buf, tok []byte
	tz := tokenizer[[]byte]{s: folded}
	for {
		a, b, hint, ok := tz.next()
		if !ok {
			break
		}
		tok, buf = normalised(buf, folded, a, b, hint)
		if len(tok) == 0 {
			continue
		}
		fn(tok)
		if parts && hint&bSep != 0 {
			eachPart(tok, fn)
		}
	}
	eachBigram(folded, fn)
}

// eachPart calls fn with the parts of tok at . / : = ( ), if it has more
// than one.
func eachPart(tok []byte, fn func(part []byte)) {
	split := false
	for _, c := range tok {
		if isPartSep(c) {
			split = true
			break
		}
	}
	if !split {
		return
	}
	start := 0
	for i := 0; i <= len(tok); i++ {
		if i == len(tok) || isPartSep(tok[i]) {
			if i > start {
				fn(tok[start:i])
			}
			start = i + 1
		}
	}
}

// eachBigram calls fn with every pair of adjacent CJK characters of s.
func eachBigram(s []byte, fn func(bg []byte)) {
	prevStart := -1
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			prevStart = -1
			i++
			for i < len(s) && s[i] < utf8.RuneSelf {
				i++
			}
			continue
		}
		r, n := utf8.DecodeRune(s[i:])
		if !terms.IsHanKanaBlock(r) {
			prevStart = -1
			i += n
			continue
		}
		if prevStart >= 0 {
			fn(s[prevStart : i+n])
		}
		prevStart = i
		i += n
	}
}

// Token hashing: eight bytes at a time with multiply-xorshift mixing, the
// same for a string and for its bytes. It is not cryptographic; it only
// needs to spread distinct short tokens over 64 bits.
const (
	hashM1 = 0x9E3779B97F4A7C15
	hashM2 = 0xBF58476D1CE4E5B9
)

// hashMix folds one 8-byte word into h.
func hashMix(h, x uint64) uint64 {
	h = (h ^ x) * hashM2
	return h ^ h>>31
}

// hashFinish ends a hash.
func hashFinish(h uint64) uint64 {
	h *= hashM1
	return h ^ h>>29
}

// hashBytes hashes a token's bytes.
func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * hashM1
	for len(b) >= 8 {
		h = hashMix(h, binary.LittleEndian.Uint64(b))
		b = b[8:]
	}
	if len(b) > 0 {
		var x uint64
		for k := len(b) - 1; k >= 0; k-- {
			x = x<<8 | uint64(b[k])
		}
		h = hashMix(h, x)
	}
	return hashFinish(h)
}

// hashString hashes a token given as a string; hashString(s) ==
// hashBytes([]byte(s)).
func hashString(s string) uint64 {
	h := uint64(len(s)) * hashM1
	for len(s) >= 8 {
		_ = s[7]
		x := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = hashMix(h, x)
		s = s[8:]
	}
	if len(s) > 0 {
		var x uint64
		for k := len(s) - 1; k >= 0; k-- {
			x = x<<8 | uint64(s[k])
		}
		h = hashMix(h, x)
	}
	return hashFinish(h)
}

// hashSet is an open-addressing set of 64-bit token hashes, much cheaper
// to fill than a Go map. A 64-bit hash makes a false hit between two
// different tokens vanishingly unlikely. Slots are chosen by Fibonacci
// hashing and probed linearly; the table is kept at most half full.
type hashSet struct {
	slots []uint64 // 0 marks an empty slot; hash 0 is stored as 1
	shift uint     // 64 - log2(len(slots))
	n     int
}

// newHashSet returns a set sized for about n hashes.
func newHashSet(n int) *hashSet {
	size, shift := 16, uint(60)
	for size < 2*n {
		size <<= 1
		shift--
	}
	return &hashSet{slots: make([]uint64, size), shift: shift}
}

// slot returns the home slot of h.
func (s *hashSet) slot(h uint64) uint64 { return (h * 0x9E3779B97F4A7C15) >> s.shift }

// add inserts h.
func (s *hashSet) add(h uint64) {
	if h == 0 {
		h = 1
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := s.slot(h); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return
		case 0:
			s.slots[i] = h
			s.n++
			return
		}
	}
}

// contains reports whether h was added.
func (s *hashSet) contains(h uint64) bool {
	if s == nil || len(s.slots) == 0 {
		return false
	}
	if h == 0 {
		h = 1
	}
	mask := uint64(len(s.slots) - 1)
	for i := s.slot(h); ; i = (i + 1) & mask {
		switch s.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// grow doubles the table.
func (s *hashSet) grow() {
	old := s.slots
	if len(old) == 0 {
		*s = *newHashSet(8)
		return
	}
	s.slots = make([]uint64, 2*len(old))
	s.shift--
	s.n = 0
	for _, h := range old {
		if h != 0 {
			s.add(h)
		}
	}
}

// tokenSet is the set of a draft's tokens: their hashes, and a bit per
// (length, first byte, last byte) triple that rules most absent tokens out
// before any hashing.
type tokenSet struct {
	hashes *hashSet
	bits   [256]uint64
}

// newTokenSet returns an empty token set.
func newTokenSet() *tokenSet { return &tokenSet{hashes: newHashSet(64)} }

// add inserts a token.
func (s *tokenSet) add(tok []byte) {
	if len(tok) == 0 {
		return
	}
	i := keyIndex(tok)
	s.bits[i/64] |= 1 << (i % 64)
	s.hashes.add(hashBytes(tok))
}

// has reports whether the token tok is in the set.
func (s *tokenSet) has(tok string) bool {
	if s == nil || len(tok) == 0 {
		return false
	}
	i := keyIndex(tok)
	if s.bits[i/64]&(1<<(i%64)) == 0 {
		return false
	}
	return s.hashes.contains(hashString(tok))
}

// tokenHashes returns the hashes of all tokens of folded text, parts
// included, and of its backtick code spans.
func tokenHashes(folded []byte, into *hashSet) *hashSet {
	if into == nil {
		into = newHashSet(len(folded)/6 + 1)
	}
	eachToken(folded, true, func(tok []byte) { into.add(hashBytes(tok)) })
	var buf []byte
	eachCodeSpan(folded, func(a, b int) {
		buf = normInto(buf[:0], folded[a:b])
		into.add(hashBytes(buf))
	})
	return into
}

// eachCodeSpan calls fn with the inner span of every `code` span on one
// line, up to 80 bytes long.
func eachCodeSpan(s []byte, fn func(a, b int)) {
	for i := 0; i < len(s); i++ {
		k := bytes.IndexByte(s[i:], '`')
		if k < 0 {
			return
		}
		i += k
		j := i + 1
		for j < len(s) && s[j] != '`' && s[j] != '\n' && j-i <= 81 {
			j++
		}
		if j < len(s) && s[j] == '`' && j-i > 1 {
			fn(i+1, j)
			i = j
		}
	}
}

// isQuote reports quote characters that may wrap a token.
func isQuote(c byte) bool { return c == '`' || c == '\'' || c == '"' }
