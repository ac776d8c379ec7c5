package linediff

import "testing"

func TestDiff(t *testing.T) {
	tests := []struct {
		name, want, got, diff string
	}{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed line", "a\nb\nc\nd\ne\nf\ng\n", "a\nb\nc\nX\ne\nf\ng\n",
			"     2  b\n     3  c\n-    4  d\n+    4  X\n     5  e\n     6  f\n"},
		{"added line", "a\nb\n", "a\nb\nc\n", "     1  a\n     2  b\n+    3  c\n     3  \n"},
		{"two changes apart", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "X\n2\n3\n4\n5\n6\n7\n8\nY\n",
			"-    1  1\n+    1  X\n     2  2\n     3  3\n...\n     7  7\n     8  8\n-    9  9\n+    9  Y\n    10  \n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Diff(tt.want, tt.got); got != tt.diff {
				t.Errorf("Diff() =\n%s\nwant\n%s", got, tt.diff)
			}
		})
	}
}
