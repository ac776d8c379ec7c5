package kb

import (
	"context"

	"github.com/innate-mcp/innate-mcp/sanitize"
)

// redactingEmbedder redacts every text before its embedder sees it: the KB
// redacts situations and lessons before embedding them, and this makes it
// a property of the embedder rather than of each caller, so that no text
// holding a secret reaches a remote endpoint. It is safe for concurrent use
// if the embedder is.
type redactingEmbedder struct {
	Embedder
}

// Embed embeds text with its secrets redacted.
func (e redactingEmbedder) Embed(ctx context.Context, text string) ([]float32, error) {
	red, _ := sanitize.Redact(text)
	return e.Embedder.Embed(ctx, red)
}

// EmbedBatch embeds texts with their secrets redacted, in order.
func (e redactingEmbedder) EmbedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	return e.Embedder.EmbedBatch(ctx, redactAll(texts))
}
