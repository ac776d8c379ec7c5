package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/internal/metric"
	"github.com/innate-mcp/innate-mcp/kb"
)

// lessonURITemplate is the address of a whole lesson; kb.LessonURI expands
// it.
const lessonURITemplate = "innate://lesson/{id}"

// LessonDoc is what innate://lesson/{id} serves: the whole lesson as the
// agent reads it, without its counters and confidence evidence.
type LessonDoc struct {
	ID          string               `json:"id"`
	Content     string               `json:"content"`
	Trigger     string               `json:"trigger,omitempty"`
	AntiTrigger string               `json:"anti_trigger,omitempty"`
	Tags        []string             `json:"tags,omitempty"`
	Project     string               `json:"project,omitempty"`
	Origin      kb.Origin            `json:"origin"`
	Kind        kb.Kind              `json:"kind"`
	State       kb.State             `json:"state"`
	Tier        confidence.Tier      `json:"tier"`
	Confidence  float64              `json:"confidence"`
	Source      string               `json:"source,omitempty"`
	Provenance  kb.Provenance        `json:"provenance"`
	Directive   *directive.Directive `json:"directive,omitempty"`
}

// lessonResource is the read-only MCP resource template
// innate://lesson/{id}: one lesson, whole, as JSON. Recall returns a long
// lesson as an excerpt and names this address; an unknown id is an error
// that says so.
func lessonResource(svc Service) (mcp.ResourceTemplate, server.ResourceTemplateHandlerFunc) {
	tmpl := mcp.NewResourceTemplate(lessonURITemplate, "innate-mcp lesson",
		mcp.WithTemplateTitle("Lesson"),
		mcp.WithTemplateDescription("One lesson of the knowledge base, whole: content, trigger, tags, project, origin, state, tier, "+
			"confidence, source, provenance and, for a rule, its directive (what it requires and forbids). "+
			"Read it when recall returns a lesson with truncated: true (an excerpt); the id is the lesson's id."),
		mcp.WithTemplateMIMEType("application/json"))
	return tmpl, func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		ids, ok := req.Params.Arguments["id"].([]string)
		if !ok || len(ids) != 1 || ids[0] == "" {
			return nil, fmt.Errorf("read %s: no lesson id in the address; use %s with an id recall returned", req.Params.URI, lessonURITemplate)
		}
		l, err := svc.Lesson(ctx, ids[0])
		if errors.Is(err, kb.ErrNotFound) {
			return nil, fmt.Errorf("read %s: %w: no lesson has id %q; use an id that recall returned", req.Params.URI, kb.ErrNotFound, ids[0])
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", req.Params.URI, err)
		}
		b, err := json.MarshalIndent(LessonDoc{ID: l.ID, Content: l.Content, Trigger: l.Trigger, AntiTrigger: l.AntiTrigger,
			Tags: l.Tags, Project: l.Project, Origin: l.Origin, Kind: l.Kind, State: l.State, Tier: l.Tier,
			Confidence: metric.Round4(l.Confidence), Source: l.Source, Provenance: kb.ProvenanceOf(l), Directive: l.Directive}, "", "  ")
		if err != nil {
			return nil, fmt.Errorf("encode lesson %s: %w", l.ID, err)
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(b)}}, nil
	}
}
