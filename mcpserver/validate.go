package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	textmsg "golang.org/x/text/message"
)

// argValidator checks a tool's arguments against its input schema and says
// in words what is wrong: "top must be an integer", "query is required",
// "unknown field bogus; the fields are …". mcp-go's own validation
// (server.WithInputSchemaValidation) prints the validator's Go structs
// ("/top: &{Got:string Want:[integer]}"), which an agent cannot act on, so
// the server validates here instead. An argValidator is immutable once
// built and safe for concurrent use.
type argValidator struct {
	schema *jsonschema.Schema
	doc    map[string]any // the schema as JSON, for field descriptions and bounds
}

// newArgValidator compiles a tool's input schema.
func newArgValidator(tool mcp.Tool) (*argValidator, error) {
	raw := tool.RawInputSchema
	if len(raw) == 0 {
		var err error
		if raw, err = json.Marshal(tool.InputSchema); err != nil {
			return nil, fmt.Errorf("encode %s input schema: %w", tool.Name, err)
		}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("decode %s input schema: %w", tool.Name, err)
	}
	url := "mem:///innate-mcp/" + tool.Name + ".json"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("register %s input schema: %w", tool.Name, err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compile %s input schema: %w", tool.Name, err)
	}
	v := &argValidator{schema: s}
	if m, ok := doc.(map[string]any); ok {
		v.doc = m
	}
	return v, nil
}

// validate checks raw JSON arguments; the error lists every problem, one
// sentence each, joined with "; ".
func (v *argValidator) validate(raw []byte) error {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("the arguments are not valid JSON: %v", err)
	}
	err = v.schema.Validate(inst)
	var verr *jsonschema.ValidationError
	if err == nil || !errors.As(err, &verr) {
		return err
	}
	var msgs []string
	for _, leaf := range leaves(verr) {
		if m := v.sentence(leaf); m != "" && !slices.Contains(msgs, m) {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) == 0 {
		return errors.New("the arguments do not match the tool's input schema")
	}
	return errors.New(strings.Join(msgs, "; "))
}

// leaves returns the innermost causes of a validation error.
func leaves(e *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return []*jsonschema.ValidationError{e}
	}
	var out []*jsonschema.ValidationError
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}

// sentence says what one violation is and what to send instead.
func (v *argValidator) sentence(e *jsonschema.ValidationError) string {
	printer := textmsg.NewPrinter(language.English)
	field := fieldName(e.InstanceLocation)
	node := v.node(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var parts []string
		for _, m := range k.Missing {
			name := m
			if field != "" {
				name = field + "." + m
			}
			s := name + " is required"
			if d := describe(v.child(node, m)); d != "" {
				s += " (" + d + ")"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, "; ")
	case *kind.AdditionalProperties:
		where := "the arguments"
		if field != "" {
			where = field
		}
		noun := "field"
		if len(k.Properties) > 1 {
			noun = "fields"
		}
		return fmt.Sprintf("unknown %s %s in %s; the fields are %s", noun, strings.Join(k.Properties, ", "), where, strings.Join(v.fields(node), ", "))
	case *kind.Type:
		// A slice may be null in the schema; an agent should send the array.
		want := slices.DeleteFunc(slices.Clone(k.Want), func(w string) bool { return w == "null" })
		if len(want) == 0 {
			want = k.Want
		}
		return fmt.Sprintf("%s must be %s%s, not %s", nameOr(field), article(strings.Join(want, " or ")), bounds(node), k.Got)
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprint(w))
		}
		return fmt.Sprintf("%s must be one of %s, not %v", nameOr(field), strings.Join(want, ", "), k.Got)
	case *kind.Minimum, *kind.Maximum, *kind.ExclusiveMinimum, *kind.ExclusiveMaximum:
		return fmt.Sprintf("%s must be %s%s", nameOr(field), typeOf(node), bounds(node))
	case *kind.MinLength, *kind.MaxLength, *kind.MinItems, *kind.MaxItems, *kind.Pattern, *kind.Format:
		s := fmt.Sprintf("%s: %s", nameOr(field), e.ErrorKind.LocalizedString(printer))
		if d := describe(node); d != "" {
			s += " (" + d + ")"
		}
		return s
	}
	return fmt.Sprintf("%s: %s", nameOr(field), e.ErrorKind.LocalizedString(printer))
}

// fieldName renders an instance location as a field path: lesson.content,
// feedback[0].signal.
func fieldName(loc []string) string {
	var b strings.Builder
	for _, seg := range loc {
		if seg != "" && strings.Trim(seg, "0123456789") == "" {
			b.WriteString("[" + seg + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

func nameOr(field string) string {
	if field == "" {
		return "the arguments"
	}
	return field
}

// node returns the schema object describing the value at loc.
func (v *argValidator) node(loc []string) map[string]any {
	n := v.doc
	for _, seg := range loc {
		if n == nil {
			return nil
		}
		if strings.Trim(seg, "0123456789") == "" && seg != "" {
			n, _ = n["items"].(map[string]any)
			continue
		}
		n = v.child(n, seg)
	}
	return n
}

// child returns the schema of a property of an object schema.
func (v *argValidator) child(n map[string]any, name string) map[string]any {
	if n == nil {
		return nil
	}
	props, _ := n["properties"].(map[string]any)
	c, _ := props[name].(map[string]any)
	return c
}

// fields lists the properties an object schema allows.
func (v *argValidator) fields(n map[string]any) []string {
	props, _ := n["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// describe is a property's description, on one line.
func describe(n map[string]any) string {
	d, _ := n["description"].(string)
	return strings.Join(strings.Fields(d), " ")
}

// typeOf names a schema's type with its article: "an integer".
func typeOf(n map[string]any) string {
	t, _ := n["type"].(string)
	if t == "" {
		return "a value"
	}
	return article(t)
}

// bounds says the range a number must be in: " from 1 to 50", " of at
// least 0".
func bounds(n map[string]any) string {
	lo, hasLo := n["minimum"].(json.Number)
	hi, hasHi := n["maximum"].(json.Number)
	switch {
	case hasLo && hasHi:
		return " from " + lo.String() + " to " + hi.String()
	case hasLo:
		return " of at least " + lo.String()
	case hasHi:
		return " of at most " + hi.String()
	}
	return ""
}

// article prefixes a JSON type with "a" or "an".
func article(t string) string {
	switch {
	case t == "":
		return "a value"
	case strings.ContainsRune("aeiou", rune(t[0])):
		return "an " + t
	}
	return "a " + t
}
