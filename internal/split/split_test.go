package split

import "testing"

func TestHalf(t *testing.T) {
	seen := map[string]int{}
	for _, k := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "coder-coder", "kimai-kimai"} {
		h := Half(k)
		if h != Tune && h != Check {
			t.Fatalf("Half(%q) = %q", k, h)
		}
		if Half(k) != h {
			t.Fatalf("Half(%q) is not stable", k)
		}
		seen[h]++
	}
	if seen[Tune] == 0 || seen[Check] == 0 {
		t.Fatalf("every key in one half: %v", seen)
	}
}
