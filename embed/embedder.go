package embed

import (
	"context"
	"errors"
	"sync/atomic"
)

// Func embeds one text. It converts directly to chromem.EmbeddingFunc.
// The Funcs that Embedder.Func returns are safe for concurrent use and
// return Embed's errors.
type Func func(ctx context.Context, text string) ([]float32, error)

// Sentinel errors; compare with errors.Is.
var (
	// ErrUnknownProvider: Config.Provider is not "builtin", "ollama" or "openai".
	ErrUnknownProvider = errors.New("embed: unknown embedding provider")
	// ErrUnknownModel: the built-in provider was asked for a model other than "use-lite".
	ErrUnknownModel = errors.New("embed: unknown built-in model")
	// ErrMissingModel: a remote provider needs Config.Model (INNATE_EMBED_MODEL).
	ErrMissingModel = errors.New("embed: remote embedder needs a model name")
	// ErrMissingAPIKey: the OpenAI API needs Config.APIKey (INNATE_EMBED_API_KEY or OPENAI_API_KEY).
	ErrMissingAPIKey = errors.New("embed: OpenAI embedder needs an API key")
	// ErrInvalidDim: Config.Dim is negative, or not 512 for the built-in model.
	ErrInvalidDim = errors.New("embed: invalid embedding dimension")
	// ErrDimMismatch: a remote endpoint returned a vector whose length is not the embedder's dimension.
	ErrDimMismatch = errors.New("embed: embedding dimension mismatch")
	// ErrBadVector: a remote endpoint returned an empty, zero, NaN or infinite vector.
	ErrBadVector = errors.New("embed: remote endpoint returned an unusable vector")
)

// BuiltinName is the model name of the built-in embedder.
const BuiltinName = "use-lite"

// Dim is the dimension of the built-in embedder's vectors.
const Dim = 512

// Embedder is a named embedding model: the built-in Universal Sentence
// Encoder Lite (Builtin) or a remote Ollama / OpenAI-compatible endpoint
// (New). Every vector it returns is L2-normalised. It is safe for concurrent
// use.
type Embedder struct {
	name   string
	dim    atomic.Int64 // 0 until known (remote without Config.Dim)
	remote *remote      // nil for the built-in model
}

// Name returns the model name recorded with stored vectors: "use-lite" for
// the built-in model, "ollama:MODEL" or "openai:MODEL" for remote ones.
func (e *Embedder) Name() string { return e.name }

// Dim returns the vector dimension: 512 for the built-in model. For a
// remote embedder it is Config.Dim when set, otherwise 0 until the first
// successful call, then the length of that vector (later vectors of another
// length are an ErrDimMismatch error).
func (e *Embedder) Dim() int { return int(e.dim.Load()) }

// Remote reports whether texts leave the process (sent to an HTTP
// endpoint), so callers can redact secrets first.
func (e *Embedder) Remote() bool { return e.remote != nil }

// Func returns e.Embed as a Func (and so a chromem.EmbeddingFunc); never nil.
func (e *Embedder) Func() Func { return e.Embed }

// Embed returns the L2-normalised embedding of text. The built-in model
// embeds the first MaxTokens tokens (longer texts are truncated; empty text
// and invalid UTF-8 are fine) and fails only if ctx is done or the embedded
// weights are corrupt. A remote embedder returns the endpoint's errors
// wrapped with the model name, ErrDimMismatch or ErrBadVector.
func (e *Embedder) Embed(ctx context.Context, text string) ([]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.remote != nil {
		return e.embedRemote(ctx, text)
	}
	vs, err := embedBuiltin(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	return vs[0], nil
}

// EmbedBatch embeds texts and returns one vector per text, in order, equal
// to what Embed returns for each. The built-in model packs texts into
// shared forward passes and runs them on all cores (GOMAXPROCS workers);
// a remote embedder sends at most 4 requests at a time. It returns the
// first error (ctx done, or as for Embed); on error no vectors are returned.
func (e *Embedder) EmbedBatch(ctx context.Context, texts []string) ([][]float32, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.remote != nil {
		return e.embedBatchRemote(ctx, texts)
	}
	return embedBuiltin(ctx, texts)
}

// Tokens returns the built-in model's token ids for text, all of them (only
// the first MaxTokens are embedded), or nil for a remote embedder, whose
// tokenizer is unknown. It is safe for concurrent use.
func (e *Embedder) Tokens(text string) []int {
	if e.remote != nil {
		return nil
	}
	tok, err := BuiltinTokenizer()
	if err != nil {
		return nil
	}
	return tok.Encode(text)
}

// Preload loads the built-in model now instead of on the first Embed
// (decoding the embedded weights takes a fraction of a second). It is a
// no-op for remote embedders and returns the load error, if any.
func (e *Embedder) Preload() error {
	if e.remote != nil {
		return nil
	}
	_, _, err := builtinEngine()
	return err
}

// Builtin returns the built-in Universal Sentence Encoder Lite embedder
// (name "use-lite", 512 dimensions). Its weights are embedded in the
// binary and decoded once, on first use, shared by every Builtin embedder.
func Builtin() *Embedder {
	e := &Embedder{name: BuiltinName}
	e.dim.Store(Dim)
	return e
}
