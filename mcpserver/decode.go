package mcpserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/innate-mcp/innate-mcp/kb"
)

// DecodeStrict decodes one JSON value from r, refusing unknown fields and
// trailing data, as the tools decode their arguments: the CLI decodes the
// same arguments from stdin with it. Errors wrap kb.ErrInput and say what
// to fix.
func DecodeStrict(r io.Reader, v any) error {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%w: %s", kb.ErrInput, jsonErrorText(err))
	}
	if dec.More() {
		return fmt.Errorf("%w: trailing data after the JSON object", kb.ErrInput)
	}
	return nil
}

// jsonErrorText turns a JSON decoding error into advice for the caller.
func jsonErrorText(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "no JSON input: pass the tool arguments as a JSON object"
	case errors.As(err, &se):
		return fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Sprintf("field %s has the wrong type: want %s, got %s", te.Field, te.Type, te.Value)
	case strings.HasPrefix(err.Error(), "json: unknown field"):
		return strings.TrimPrefix(err.Error(), "json: ") + ": remove it (see the tool's input schema)"
	}
	return err.Error()
}
