package rulesync_test

import (
	"encoding/json"
	"io"
	"log/slog"
)

func slogTo(w io.Writer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
