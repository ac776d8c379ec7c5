package terms

import "testing"

func TestStemLight(t *testing.T) {
	tests := []struct{ word, want string }{
		{"mocking", "mock"},
		{"mock", "mock"},
		{"writes", "writ"},
		{"write", "writ"},
		{"committing", "commit"},
		{"commit", "commit"},
		{"adding", "ad"},
		{"add", "ad"},
		{"classes", "clas"},
		{"class", "clas"},
		{"used", "us"},
		{"use", "us"},
		{"freed", "freed"}, // no -ed stripped after e
		{"ring", "ring"},   // -ing only on words over five letters
		{"gas", "gas"},     // -s only on words over three letters
		{"fmt.Errorf", "fmt.Errorf"},
		{"Go", "Go"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			if got := StemLight(tt.word); got != tt.want {
				t.Errorf("StemLight(%q): got=%q, want %q", tt.word, got, tt.want)
			}
		})
	}
}
