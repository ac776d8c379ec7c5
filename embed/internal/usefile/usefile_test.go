package usefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"testing"
)

func sample(t *testing.T) ([]Tensor, []byte, string) {
	t.Helper()
	tensors := []Tensor{
		{Name: "w", Shape: []int{3, 5}, DType: "float32"},
		{Name: "n", Shape: []int{}, DType: "int32"},
		{Name: "b", Shape: []int{1, 1, 4}, DType: "float32"},
	}
	var raw []byte
	for i := range 15 {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(float32(i)*0.37-2))
	}
	raw = binary.LittleEndian.AppendUint32(raw, uint32(0xFFFFFF80)) // int32 -128
	for _, f := range []float32{float32(math.Inf(1)), -0, 1e-40, math.MaxFloat32} {
		raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(f))
	}
	var buf bytes.Buffer
	if err := Encode(&buf, "test", tensors, raw); err != nil {
		t.Fatal(err)
	}
	return tensors, raw, buf.String()
}

func TestDecodeRaw_RoundTrip(t *testing.T) {
	_, raw, file := sample(t)
	h, got, err := DecodeRaw(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, raw) {
		t.Fatalf("decoded bytes differ from the input")
	}
	if h.Source != "test" || len(h.Tensors) != 3 {
		t.Errorf("header=%+v", h)
	}
}

func TestReader_Tensors(t *testing.T) {
	_, raw, file := sample(t)
	r, err := Open(file)
	if err != nil {
		t.Fatal(err)
	}
	tn, err := r.Next()
	if err != nil || tn.Name != "w" {
		t.Fatalf("Next=%v, %v", tn, err)
	}
	w := make([]float32, 15)
	if err := r.ReadFloat32(w); err != nil {
		t.Fatal(err)
	}
	for i, v := range w {
		if want := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])); v != want {
			t.Fatalf("w[%d]=%v, want %v", i, v, want)
		}
	}
	if tn, _ = r.Next(); tn.Name != "n" {
		t.Fatalf("second tensor %q", tn.Name)
	}
	// skip n's data; Next must consume it
	if tn, _ = r.Next(); tn.Name != "b" {
		t.Fatalf("third tensor %q", tn.Name)
	}
	if err := r.ReadFloat32(make([]float32, 3)); err == nil {
		t.Error("ReadFloat32 with a wrong size: want error")
	}
	if _, err := r.Next(); !errors.Is(err, io.EOF) {
		t.Errorf("Next after last: %v, want io.EOF", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

func TestDecodeRaw_Corrupt(t *testing.T) {
	_, _, file := sample(t)
	hdrEnd := len(Magic) + 4 + int(binary.LittleEndian.Uint32([]byte(file[len(Magic):])))
	cases := map[string]string{
		"empty":       "",
		"bad magic":   "USELITE9" + file[8:],
		"truncated":   file[:len(file)-5],
		"header only": file[:hdrEnd],
		"long header": file[:len(Magic)] + "\xff\xff\xff\x00" + file[len(Magic)+4:],
		"flipped end": file[:len(file)-3] + string(file[len(file)-3]^0x55) + file[len(file)-2:],
		"flipped mid": file[:hdrEnd+20] + string(file[hdrEnd+20]^0x01) + file[hdrEnd+21:],
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if _, _, err := DecodeRaw(data); !errors.Is(err, ErrFormat) {
				t.Errorf("err=%v, want ErrFormat", err)
			}
		})
	}
}

func TestEncode_Errors(t *testing.T) {
	if err := Encode(io.Discard, "x", []Tensor{{Name: "a", Shape: []int{2}, DType: "float32"}}, make([]byte, 4)); err == nil {
		t.Error("size mismatch: want error")
	}
	if err := Encode(io.Discard, "x", []Tensor{{Name: "a", Shape: []int{1}, DType: "float16"}}, make([]byte, 4)); err == nil {
		t.Error("unsupported dtype: want error")
	}
}
