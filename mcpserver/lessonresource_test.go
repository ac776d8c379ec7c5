package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/kb"
)

// lessonsByID is a Service that knows only lessons; the tools are not
// called here.
type lessonsByID struct {
	Service
	lessons map[string]kb.Lesson
}

func (s lessonsByID) Lesson(ctx context.Context, id string) (kb.Lesson, error) {
	l, ok := s.lessons[id]
	if !ok {
		return kb.Lesson{}, fmt.Errorf("lesson %s: %w", id, kb.ErrNotFound)
	}
	return l, nil
}

// rpc sends one JSON-RPC request to an in-process server and decodes the
// response.
func rpc(t *testing.T, svc Service, method string, params any) map[string]any {
	t.Helper()
	s := New("test", svc, nil, NewProjectResolver(""), slog.New(slog.DiscardHandler), func() {})
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(s.HandleMessage(context.Background(), req))
	if err != nil {
		t.Fatal(err)
	}
	var msg map[string]any
	if err := json.Unmarshal(b, &msg); err != nil {
		t.Fatal(err)
	}
	return msg
}

func TestLessonResource(t *testing.T) {
	d := directive.Parse("Use `pnpm`, not npm.", "")
	svc := lessonsByID{lessons: map[string]kb.Lesson{
		"L0123abcd": {ID: "L0123abcd", Content: "# Rules\n\n- Use `pnpm`, not npm.\n", Origin: kb.OriginImported, State: kb.StateActive,
			Tier: "moderate", Confidence: 0.4321, Source: "rules/AGENTS.md", Directive: &d},
		"my rule/1": {ID: "my rule/1", Content: "An id that needs escaping.", Origin: kb.OriginUserStated, State: kb.StateActive},
	}}

	list := rpc(t, svc, "resources/templates/list", map[string]any{})
	if !strings.Contains(fmt.Sprint(list["result"]), lessonURITemplate) {
		t.Fatalf("resources/templates/list = %v, want %s", list, lessonURITemplate)
	}
	for _, tc := range []struct {
		id        string
		directive bool
	}{{"L0123abcd", true}, {"my rule/1", false}} {
		t.Run(tc.id, func(t *testing.T) {
			uri := kb.LessonURI(tc.id)
			msg := rpc(t, svc, "resources/read", map[string]any{"uri": uri})
			var res struct {
				Result struct {
					Contents []struct{ URI, MIMEType, Text string }
				}
			}
			b, _ := json.Marshal(msg)
			if err := json.Unmarshal(b, &res); err != nil || len(res.Result.Contents) != 1 {
				t.Fatalf("resources/read %s = %s (%v)", uri, b, err)
			}
			c := res.Result.Contents[0]
			var doc LessonDoc
			if err := json.Unmarshal([]byte(c.Text), &doc); err != nil {
				t.Fatalf("resource text is not a lesson: %v\n%s", err, c.Text)
			}
			want := svc.lessons[tc.id]
			if c.URI != uri || c.MIMEType != "application/json" || doc.ID != tc.id || doc.Content != want.Content ||
				doc.Origin != want.Origin || doc.Source != want.Source || (doc.Directive != nil) != tc.directive {
				t.Fatalf("resources/read %s = %+v, %+v; want the whole lesson %+v", uri, c, doc, want)
			}
			if tc.directive && doc.Directive.Polarity != d.Polarity {
				t.Fatalf("directive = %+v, want %+v", doc.Directive, d)
			}
		})
	}

	for _, uri := range []string{kb.LessonURI("Lnope"), "innate://lesson/"} {
		msg := rpc(t, svc, "resources/read", map[string]any{"uri": uri})
		e, _ := msg["error"].(map[string]any)
		text, _ := e["message"].(string)
		if e == nil || msg["result"] != nil || !strings.Contains(text, uri) {
			t.Errorf("resources/read %s = %v, want an error that names the address", uri, msg)
		}
	}
}
