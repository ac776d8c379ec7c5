package terms

import "testing"

func TestCJKClasses(t *testing.T) {
	tests := []struct {
		name                  string
		r                     rune
		cjk, hanKana, inBlock bool
	}{
		{"latin", 'a', false, false, false},
		{"digit", '7', false, false, false},
		{"accented latin", 'é', false, false, false},
		{"han", '漢', true, true, true},
		{"han extension A", '㐀', true, true, true},
		{"hiragana", 'ひ', true, true, true},
		{"katakana", 'カ', true, true, true},
		{"prolonged sound mark", 'ー', false, true, true},
		{"katakana middle dot", '・', false, false, true},
		{"voiced sound mark", '゛', false, false, true},
		{"hangul", '한', true, false, false},
		{"ideographic full stop", '。', false, false, false},
		{"fullwidth question mark", '？', false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsCJK(tt.r); got != tt.cjk {
				t.Errorf("IsCJK(%q): got=%v, want %v", tt.r, got, tt.cjk)
			}
			if got := IsHanKana(tt.r); got != tt.hanKana {
				t.Errorf("IsHanKana(%q): got=%v, want %v", tt.r, got, tt.hanKana)
			}
			if got := IsHanKanaBlock(tt.r); got != tt.inBlock {
				t.Errorf("IsHanKanaBlock(%q): got=%v, want %v", tt.r, got, tt.inBlock)
			}
		})
	}
}

// TestIsHanKanaBlock_coversIsHanKana checks that the block form takes in
// every character the script form does.
func TestIsHanKanaBlock_coversIsHanKana(t *testing.T) {
	for r := rune(0); r <= 0x3FFFF; r++ {
		if IsHanKana(r) && !IsHanKanaBlock(r) {
			t.Fatalf("%U: IsHanKana but not IsHanKanaBlock", r)
		}
	}
}
