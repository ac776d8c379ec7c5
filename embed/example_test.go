package embed_test

import (
	"context"
	"fmt"

	"github.com/innate-mcp/innate-mcp/embed"
)

func cos(a, b []float32) float64 {
	var d float64
	for i := range a {
		d += float64(a[i]) * float64(b[i]) // both are unit vectors
	}
	return d
}

func ExampleBuiltin() {
	e := embed.Builtin()
	ctx := context.Background()
	vs, err := e.EmbedBatch(ctx, []string{
		"fix nil pointer panic in handler",
		"null reference crash in request handler",
		"bake a chocolate cake",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Name(), e.Dim(), len(vs[0]))
	fmt.Printf("related %.2f, unrelated %.2f\n", cos(vs[0], vs[1]), cos(vs[0], vs[2]))
	// Output:
	// use-lite 512 512
	// related 0.60, unrelated 0.15
}

func ExampleEmbedder_Tokens() {
	e := embed.Builtin()
	fmt.Println(len(e.Tokens("fix nil pointer panic in handler")))
	long := len(e.Tokens(fmt.Sprint(make([]int, 200)))) // "[0 0 0 ... 0]"
	fmt.Println(long > embed.MaxTokens, "- only the first", embed.MaxTokens, "are embedded")
	// Output:
	// 9
	// true - only the first 128 are embedded
}

func ExampleConfigFromEnv() {
	env := map[string]string{"INNATE_EMBEDDER": "ollama", "INNATE_EMBED_MODEL": "nomic-embed-text"}
	cfg := embed.ConfigFromEnv(func(k string) string { return env[k] })
	e, err := embed.New(cfg) // no request is made here
	if err != nil {
		panic(err)
	}
	fmt.Println(e.Name(), e.Remote(), e.Dim())
	// Output: ollama:nomic-embed-text true 0
}

func ExampleParseName() {
	p, m, _ := embed.ParseName("openai:text-embedding-3-small")
	fmt.Println(p, m)
	_, _, err := embed.ParseName("bert")
	fmt.Println(err != nil)
	// Output:
	// openai text-embedding-3-small
	// true
}
