package storerow

import "fmt"

// Meta reads the value stored under key in a store's meta table; ok is
// false when there is none.
type Meta func(key string) (value string, ok bool, err error)

// EmbedderInfo reads the embedder a store's vectors were made with (see
// kb.Store's EmbedderInfo) from its meta table: ok is false when none is
// recorded. A stored dimension that is not a whole number is an error (it
// would otherwise read as 0, the value that turns the dimension check
// off); a missing one reads as 0, unknown.
func EmbedderInfo(meta Meta) (model string, dim int, ok bool, err error) {
	model, ok, err = meta("embedder_model")
	if err != nil || !ok {
		return "", 0, false, err
	}
	dimS, ok, err := meta("embedder_dim")
	if err != nil {
		return "", 0, false, err
	}
	if ok {
		if _, err := fmt.Sscan(dimS, &dim); err != nil {
			return "", 0, false, fmt.Errorf("stored embedder dimension %q is not a number (%v): run `innate-mcp reembed` to record the embedder again", dimS, err)
		}
	}
	return model, dim, true, nil
}

// EmbedderMeta are the meta keys and values that record an embedder,
// which EmbedderInfo reads.
func EmbedderMeta(model string, dim int) [][2]string {
	return [][2]string{{"embedder_model", model}, {"embedder_dim", fmt.Sprint(dim)}}
}
