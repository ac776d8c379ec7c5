module github.com/innate-mcp/innate-mcp

go 1.26.0
