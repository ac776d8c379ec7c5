package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/stats"
)

// ReportFunc computes the stats report.
type ReportFunc func(context.Context) (stats.Report, error)

// statsResource is the read-only MCP resource innate://stats: the same
// report as `innate-mcp stats --json`.
func statsResource(report ReportFunc) (mcp.Resource, server.ResourceHandlerFunc) {
	res := mcp.NewResource("innate://stats", "innate-mcp stats",
		mcp.WithResourceDescription("The knowledge base's health: lessons by tier and state, recall empty rate, hesitation trigger rate and reviews, contradictions, each health figure against its healthy range."),
		mcp.WithMIMEType("application/json"))
	return res, func(ctx context.Context, req mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		r, err := report(ctx)
		if err != nil {
			return nil, err
		}
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return nil, err
		}
		return []mcp.ResourceContents{mcp.TextResourceContents{URI: "innate://stats", MIMEType: "application/json", Text: string(b)}}, nil
	}
}
