package embed

import (
	"context"
	"testing"

	"github.com/philippgille/chromem-go"
)

// TestFunc_Chromem uses the built-in embedder as a chromem-go embedding
// function: the conversion compiles, documents embed, and the query finds
// the related lesson first.
func TestFunc_Chromem(t *testing.T) {
	ctx := context.Background()
	db := chromem.NewDB()
	col, err := db.CreateCollection("lessons", nil, chromem.EmbeddingFunc(Builtin().Func()))
	if err != nil {
		t.Fatal(err)
	}
	docs := []chromem.Document{
		{ID: "nil", Content: "null reference crash in request handler"},
		{ID: "cake", Content: "bake a chocolate cake"},
		{ID: "sql", Content: "database migration was not applied before the tests ran"},
	}
	if err := col.AddDocuments(ctx, docs, 2); err != nil {
		t.Fatal(err)
	}
	res, err := col.Query(ctx, "fix nil pointer panic in handler", 3, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 3 || res[0].ID != "nil" {
		t.Fatalf("results %v, want nil first", res)
	}
	if res[0].Similarity-res[2].Similarity < 0.3 {
		t.Errorf("similarities %.3f .. %.3f: not discriminating", res[0].Similarity, res[2].Similarity)
	}
}
