// Package termstats is the one encoding of a lesson's term frequencies, as
// both stores keep them (storage's and pgstore's lesson_terms.tf): a
// varint count of terms, then per term, in sorted order, a varint length,
// the term's bytes and a varint frequency. storage reads it to score BM25;
// pgstore also rebuilds its postings from it when a knowledge base is
// copied in (innate-mcp migrate).
package termstats

import (
	"encoding/binary"
	"errors"
	"sort"
)

// ErrCorrupt is returned for a blob that is not in this encoding.
var ErrCorrupt = errors.New("bad term statistics: the lesson_terms row is corrupt; re-embedding (innate-mcp reembed) rewrites it")

// Encode packs term frequencies, terms in sorted order so that equal maps
// encode to equal bytes.
func Encode(tf map[string]int) []byte {
	keys := make([]string, 0, len(tf))
	for t := range tf {
		keys = append(keys, t)
	}
	sort.Strings(keys)
	b := binary.AppendUvarint(nil, uint64(len(keys)))
	for _, t := range keys {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
		b = binary.AppendUvarint(b, uint64(tf[t]))
	}
	return b
}

// Walk calls fn with each term of an encoded blob and its frequency, in
// the blob's (sorted) order. term aliases blob: copy it to keep it. A blob
// that is not in this encoding is an error wrapping ErrCorrupt; fn may
// have been called for the terms before the fault.
func Walk(blob []byte, fn func(term []byte, freq int)) error {
	n, k := binary.Uvarint(blob)
	if k <= 0 {
		return ErrCorrupt
	}
	blob = blob[k:]
	for range n {
		l, k := binary.Uvarint(blob)
		if k <= 0 || uint64(len(blob)-k) < l {
			return ErrCorrupt
		}
		term := blob[k : k+int(l)]
		blob = blob[k+int(l):]
		f, k2 := binary.Uvarint(blob)
		if k2 <= 0 {
			return ErrCorrupt
		}
		blob = blob[k2:]
		fn(term, int(f))
	}
	return nil
}
