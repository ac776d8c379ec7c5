package termstats

import (
	"errors"
	"maps"
	"testing"
)

func TestEncodeWalk_roundTrip(t *testing.T) {
	in := map[string]int{"go": 3, "vet": 1, "commit": 2, "日本": 4}
	got := map[string]int{}
	var order []string
	if err := Walk(Encode(in), func(term []byte, f int) {
		got[string(term)] = f
		order = append(order, string(term))
	}); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(in, got) {
		t.Errorf("decoded %v, want %v", got, in)
	}
	for i := 1; i < len(order); i++ {
		if order[i-1] >= order[i] {
			t.Errorf("terms not in sorted order: %v", order)
		}
	}
	if err := Walk(Encode(nil), func([]byte, int) { t.Error("a term in an empty blob") }); err != nil {
		t.Errorf("empty: %v", err)
	}
}

func TestWalk_refusesCorruptBlobs(t *testing.T) {
	good := Encode(map[string]int{"alpha": 1, "beta": 2})
	for name, blob := range map[string][]byte{
		"empty":      nil,
		"truncated":  good[:len(good)-1],
		"long term":  {1, 200, 'a'},
		"no freq":    {1, 1, 'a'},
		"count high": {3, 1, 'a', 1},
	} {
		if err := Walk(blob, func([]byte, int) {}); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: %v, want ErrCorrupt", name, err)
		}
	}
}
