package hesitation

import (
	"slices"
	"testing"
)

// cueTexts returns the texts of the cues, optionally only strong ones.
func cueTexts(cs []Cue, strongOnly bool) []string {
	var out []string
	for _, c := range cs {
		if !strongOnly || c.Strong {
			out = append(out, c.Text)
		}
	}
	return out
}

func TestHedges_Cues(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // every cue, in order
	}{
		{"en hedge", "The bug is probably in the parser.", []string{"probably"}},
		{"en phrase over word", "It may have been caused by the cache.", []string{"may have"}},
		{"en modal may", "This may break older clients.", []string{"may"}},
		{"en month May", "The release shipped in May 2021.", nil},
		{"en month May mid sentence", "We met on 5 May and talked.", nil},
		{"en sentence-initial May", "May be related to the lock.", []string{"May"}},
		{"en weasel quantifier", "Some critics say the design is flawed.", []string{"Some", "critics"}},
		{"en approximation is not weasel", "It cost some 40,000 dollars.", nil},
		{"en as many as", "As many as 300 came.", nil},
		{"en several times", "He tried several times.", nil},
		{"en for certain", "I know that for certain.", nil},
		{"en certain as quantifier", "Certain users see the error.", []string{"Certain"}},
		{"en superlative frame", "It is one of the finest bridges.", []string{"one of the finest"}},
		{"en superlative with possessive", "It became one of Europe's most visited sites.", []string{"one of Europe's most"}},
		{"en not a superlative", "One of the tests failed.", nil},
		{"en passive attribution", "The tower is believed to be older.", []string{"believed"}},
		{"en peacock", "A renowned architect designed it.", []string{"renowned"}},
		{"en word boundary", "Mayhem and somewhere and manyfold.", nil},
		{"zh-Hant hedge and weasel", "這可能是快取的問題，有人認為如此。", []string{"可能是", "有人認為"}},
		{"zh-Hans hedge and weasel", "这可能是缓存的问题，有人认为如此。", []string{"可能是", "有人认为"}},
		{"zh-Hant peacock", "他是最著名的建築師之一。", []string{"最著名", "之一"}},
		{"zh plain", "這個函式回傳錯誤。", nil},
		{"ja hedge", "原因はキャッシュかもしれない。", []string{"かもしれない"}},
		{"ja weasel and hearsay", "多くの専門家が問題だと言われている。", []string{"多くの", "専門家", "と言われている"}},
		{"ja plain", "この関数はエラーを返します。", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := cueTexts(Hedges(tt.text), false)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got=%q, want %q", got, tt.want)
			}
		})
	}
}

func TestHedges_SpansMatchText(t *testing.T) {
	text := "Critics argue it is probably one of the best; 可能是這樣，かもしれない。"
	cs := Hedges(text)
	if len(cs) == 0 {
		t.Fatal("no cues")
	}
	prevEnd := -1
	for _, c := range cs {
		if c.Span.Start < 0 || c.Span.End > len(text) || c.Span.Start >= c.Span.End {
			t.Fatalf("bad span %+v", c.Span)
		}
		if text[c.Span.Start:c.Span.End] != c.Text {
			t.Errorf("span text %q, want %q", text[c.Span.Start:c.Span.End], c.Text)
		}
		if c.Span.End <= prevEnd {
			t.Errorf("cue %q nested in previous cue", c.Text)
		}
		prevEnd = c.Span.End
	}
}

func TestHedges_Classes(t *testing.T) {
	cs := Hedges("Perhaps critics are right about this famous bridge.")
	got := map[string]CueClass{}
	for _, c := range cs {
		got[c.Text] = c.Class
	}
	want := map[string]CueClass{"Perhaps": CueHedge, "critics": CueWeasel, "famous": CuePeacock}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("class of %q: got=%q, want %q", k, got[k], v)
		}
	}
}

func TestUncertain(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"The station was probably built in 1880.", true},
		{"The station was built in 1880.", false},
		{"Many historians consider it the first of its kind.", true},
		{"It often rains in May.", false}, // weak cue only
		{"This may fail.", false},         // weak cue only
		{"It is widely regarded as a classic.", true},
		{"It is one of the oldest bridges in Europe.", true},
		{"據說這座橋建於明朝。", true},
		{"据说这座桥建于明朝。", true},
		{"這座橋建於明朝。", false},
		{"この橋は明治時代に建てられたとされる。", true},
		{"この橋は明治時代に建てられた。", false},
	}
	for _, tt := range tests {
		if got := Uncertain(tt.text); got != tt.want {
			t.Errorf("Uncertain(%q) = %v, want %v (cues %q)", tt.text, got, tt.want, cueTexts(Hedges(tt.text), false))
		}
	}
}
