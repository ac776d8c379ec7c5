package terms

import "encoding/binary"

// FoldASCII returns a copy of s with the ASCII letters A to Z lower-cased
// and every other byte kept, so that byte offsets in the copy are offsets in
// s (strings.ToLower may change lengths). It works eight bytes at a time.
func FoldASCII(s string) []byte {
	b := make([]byte, len(s))
	copy(b, s)
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		// Eight bytes at a time: a byte gets 0x20 added when it is 'A'..'Z'.
		x := binary.LittleEndian.Uint64(b[i:])
		h := x & (ones * 0x7F)
		geA := h + ones*(0x80-'A')
		gtZ := h + ones*(0x80-'Z'-1)
		upper := geA &^ gtZ &^ x & high
		binary.LittleEndian.PutUint64(b[i:], x|upper>>2)
	}
	for ; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// LowerASCII is FoldASCII as a string; s itself comes back, without a
// copy, when it holds no capital A to Z.
func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return string(FoldASCII(s))
		}
	}
	return s
}
