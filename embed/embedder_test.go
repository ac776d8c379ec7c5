package embed

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	return dot / math.Sqrt(na*nb)
}

// checkUnit fails unless v has 512 finite components and unit length.
func checkUnit(tb testing.TB, what string, v []float32) {
	tb.Helper()
	if len(v) != Dim {
		tb.Fatalf("%s: len=%d, want %d", what, len(v), Dim)
	}
	var sq float64
	for i, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			tb.Fatalf("%s: component %d is %v", what, i, x)
		}
		sq += float64(x) * float64(x)
	}
	if math.Abs(sq-1) > 1e-5 {
		tb.Fatalf("%s: squared norm %v, want 1", what, sq)
	}
}

func TestBuiltin_Identity(t *testing.T) {
	e := Builtin()
	if got := e.Name(); got != "use-lite" {
		t.Errorf("Name()=%q, want use-lite", got)
	}
	if got := e.Dim(); got != 512 {
		t.Errorf("Dim()=%d, want 512", got)
	}
	if e.Remote() {
		t.Error("Remote()=true, want false")
	}
	if e.Func() == nil {
		t.Fatal("Func() is nil")
	}
	v, err := e.Func()(context.Background(), "hello")
	if err != nil {
		t.Fatal(err)
	}
	checkUnit(t, "Func()(hello)", v)
	if got := e.Tokens("fix nil pointer panic in handler"); len(got) != 9 {
		t.Errorf("Tokens: %v, want 9 ids", got)
	}
}

// TestBuiltin_Discrimination is the acceptance check: related
// texts must score clearly above unrelated ones.
func TestBuiltin_Discrimination(t *testing.T) {
	e := Builtin()
	ctx := context.Background()
	vs, err := e.EmbedBatch(ctx, []string{
		"fix nil pointer panic in handler",
		"null reference crash in request handler",
		"bake a chocolate cake",
	})
	if err != nil {
		t.Fatal(err)
	}
	related, unrelated := cosine(vs[0], vs[1]), cosine(vs[0], vs[2])
	t.Logf("cos(related)=%.3f cos(unrelated)=%.3f", related, unrelated)
	if related-unrelated < 0.3 {
		t.Errorf("related %.3f - unrelated %.3f = %.3f, want >= 0.3", related, unrelated, related-unrelated)
	}
}

// TestEmbedBatch_EqualsEmbed checks that packing texts into shared forward
// passes and running them on several goroutines changes nothing.
func TestEmbedBatch_EqualsEmbed(t *testing.T) {
	e := Builtin()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(7, 8))
	words := strings.Fields("nil pointer panic handler request database migration test flaky retry cache timeout error context cancel")
	var texts []string
	for i := range 40 {
		n := 1 + r.IntN(60)
		if i%9 == 0 {
			n = 200 // over the window
		}
		var b strings.Builder
		for j := range n {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		texts = append(texts, b.String())
	}
	texts = append(texts, "", texts[3], "\xff\xfe")
	got, err := e.EmbedBatch(ctx, texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(texts) {
		t.Fatalf("EmbedBatch returned %d vectors for %d texts", len(got), len(texts))
	}
	for i, text := range texts {
		want, err := e.Embed(ctx, text)
		if err != nil {
			t.Fatal(err)
		}
		for j := range want {
			if got[i][j] != want[j] {
				t.Fatalf("text %d component %d: batch=%v single=%v", i, j, got[i][j], want[j])
			}
		}
	}
	if empty, err := e.EmbedBatch(ctx, nil); err != nil || len(empty) != 0 {
		t.Errorf("EmbedBatch(nil)=%v, %v; want empty, nil", empty, err)
	}
}

func TestBuiltin_BadInput(t *testing.T) {
	e := Builtin()
	ctx := context.Background()
	big := strings.Repeat("the handler crashed with a nil pointer dereference; ", 1<<20/52+1)[:1<<20]
	cases := []struct {
		name, text string
	}{
		{"empty", ""},
		{"spaces", "     "},
		{"invalid utf8", "\xff\xfe\xfd"},
		{"mixed invalid utf8", "nil \x80pointer\xc3(panic"},
		{"nul bytes", "a\x00b\x00c"},
		{"1MB words", big},
		{"1MB no spaces", strings.Repeat("日本語", 1<<20/9)},
		{"1MB invalid", strings.Repeat("\xff", 1<<20)},
		{"1MB one word", strings.Repeat("a", 1<<20)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, err := e.Embed(ctx, c.text)
			if err != nil {
				t.Fatal(err)
			}
			checkUnit(t, c.name, v)
		})
	}
	t.Run("invalid utf8 equals U+FFFD", func(t *testing.T) {
		a, _ := e.Embed(ctx, "nil \x80pointer")
		b, _ := e.Embed(ctx, "nil \uFFFDpointer")
		if cosine(a, b) < 0.999999 {
			t.Errorf("invalid byte and U+FFFD embed differently: cos=%v", cosine(a, b))
		}
	})
	t.Run("1MB text is its first 128 tokens", func(t *testing.T) {
		ids := builtinTok(t).Encode(big[:4096])
		if len(ids) <= MaxTokens {
			t.Fatalf("prefix has only %d tokens", len(ids))
		}
		// A prefix ending where the 129th token starts has the same window.
		cut := -1 // the tokenizer's leading U+2581 is not in the text
		for _, id := range ids[:MaxTokens] {
			cut += len(strings.ReplaceAll(builtinTok(t).Piece(id), "\u2581", " "))
		}
		whole, _ := e.Embed(ctx, big)
		prefix, _ := e.Embed(ctx, big[:cut])
		for i := range whole {
			if whole[i] != prefix[i] {
				t.Fatalf("component %d: 1MB=%v prefix=%v", i, whole[i], prefix[i])
			}
		}
	})
}

func TestBuiltin_ContextDone(t *testing.T) {
	e := Builtin()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Embed(ctx, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed: err=%v, want context.Canceled", err)
	}
	if _, err := e.EmbedBatch(ctx, []string{"x", "y"}); !errors.Is(err, context.Canceled) {
		t.Errorf("EmbedBatch: err=%v, want context.Canceled", err)
	}
}

// TestTokenizer_WindowEqualsEncode checks the long-text shortcut against
// full tokenization on long random texts.
func TestTokenizer_WindowEqualsEncode(t *testing.T) {
	tok := builtinTok(t)
	r := rand.New(rand.NewPCG(9, 10))
	alphabet := []string{"a", "b", "the ", " ", "  ", "é", "日本", "🚀", ":)", "://", "x", "\n", "▁", "\xff", ".", "abc", "ing ", "\u0301", "ﬁ"}
	for i := range 40 {
		var b strings.Builder
		for b.Len() < windowPrefix+r.IntN(2*windowPrefix) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		text := b.String()
		want := truncate(tok.Encode(text))
		got := tok.window(text)
		if !equalInts(got, want) {
			t.Fatalf("text %d: window=%v\nwant %v", i, got, want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"", " ", "fix nil pointer panic", "日本語 🚀 ＡＢＣ", "\xff\xfe", "a:)b://c", "▁▁x", "e\u0301", strings.Repeat("ab ", 200)} {
		f.Add(s)
	}
	tok, err := BuiltinTokenizer()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.Encode(text)
		unknown := false
		var joined strings.Builder
		for _, id := range ids {
			if id < 0 || id >= tok.VocabSize() {
				t.Fatalf("id %d out of range", id)
			}
			if id == unknownID {
				unknown = true
			}
			joined.WriteString(tok.Piece(id))
		}
		if text != "" && utf8.ValidString(text) && len(ids) == 0 && strings.TrimSpace(text) != "" {
			t.Fatalf("no tokens for %q", text)
		}
		// Without unknown symbols the pieces spell the normalised text.
		if !unknown && joined.String() != string(symbols(text)) {
			t.Fatalf("pieces %q do not spell %q", joined.String(), string(symbols(text)))
		}
		if w := tok.window(text); !equalInts(w, truncate(ids)) {
			t.Fatalf("window=%v, want %v", w, truncate(ids))
		}
	})
}

// TestBuiltin_Concurrent embeds from many goroutines at once (as MCP
// handlers do) and expects the sequential results.
func TestBuiltin_Concurrent(t *testing.T) {
	e := Builtin()
	ctx := context.Background()
	texts := []string{"fix nil pointer panic in handler", "", "bake a chocolate cake", strings.Repeat("long text ", 70), "日本語"}
	want := make([][]float32, len(texts))
	for i, text := range texts {
		v, err := e.Embed(ctx, text)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = v
	}
	errs := make(chan error, 8)
	for g := range 8 {
		go func() {
			for j := range 4 {
				i := (g + j) % len(texts)
				var v []float32
				var err error
				if j%3 == 0 {
					var vs [][]float32
					vs, err = e.EmbedBatch(ctx, texts)
					if err == nil {
						v = vs[i]
					}
				} else {
					v, err = e.Embed(ctx, texts[i])
				}
				if err == nil && !equalFloats(v, want[i]) {
					err = errors.New("concurrent result differs from sequential for " + texts[i][:min(20, len(texts[i]))])
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func equalFloats(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
