package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/innate-mcp/innate-mcp/consult"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/kb"
)

// Compiler is what compile_rules needs of the knowledge base; *kb.KB
// implements it.
type Compiler interface {
	RulesToCompile(ctx context.Context, project string, all bool) ([]kb.RuleFile, error)
	ApplyCompile(ctx context.Context, project string, a consult.Answer, o kb.ApplyOptions) (kb.ApplyReport, error)
}

// CompileRequest is compile_rules' input.
type CompileRequest struct {
	Answer  map[string]any `json:"answer,omitempty" jsonschema_description:"Your answer to the prompt a call without answer returned: a JSON object of the schema the prompt ends with. Omit it to get the prompt."`
	File    string         `json:"file,omitempty" jsonschema_description:"The rule file to compile (as a call without answer names it). Default: the first file with rules to compile."`
	All     bool           `json:"all,omitempty" jsonschema_description:"Also the rules the built-in reader compiled (their phrasings help recall)."`
	Project string         `json:"project,omitempty" jsonschema_description:"Project identifier (a repository root path). Defaults to the client's workspace root."`
}

// CompileResult is compile_rules' output: a prompt to answer, or what an
// answer stored.
type CompileResult struct {
	// File, Rules and Prompt: the prompt to answer for one file.
	File         string `json:"file,omitempty"`
	Rules        int    `json:"rules,omitempty"`
	Prompt       string `json:"prompt,omitempty"`
	PromptTokens int    `json:"prompt_tokens,omitempty"`
	// FilesLeft are the rule files with rules to compile after this one.
	FilesLeft []string `json:"files_left,omitempty"`
	// Stored is what an answer stored.
	Stored       *Stored `json:"stored,omitempty"`
	AnswerTokens int     `json:"answer_tokens,omitempty"`
	Note         string  `json:"note"`
}

// Stored is what compile_rules stored of an answer, and what it refused.
type Stored struct {
	Rules     int               `json:"rules"`
	Checks    int               `json:"checks"`
	Phrasings int               `json:"phrasings"`
	Refused   []consult.Refusal `json:"refused,omitempty"`
	// Unknown are rules the answer names that the project no longer has.
	Unknown []string `json:"unknown,omitempty"`
}

// compileTool returns the compile_rules tool and its handler.
func compileTool(c Compiler, proj *ProjectResolver, recorded func() []string, log *slog.Logger) (mcp.Tool, server.ToolHandlerFunc) {
	tool := mcp.NewTool("compile_rules",
		mcp.WithToolTitle("Compile the project's rules"),
		mcp.WithDescription("Once per rule file, when innate-mcp asks for it: call without answer to get the prompt for the project's rules that have no compile, "+
			"then call again with your answer. Your answer becomes checks the hooks enforce at zero tokens (as reminders until the user approves them) "+
			"and phrasings that let recall find each rule from other words. Checks are validated against their examples; what is refused comes back with the reason. "+
			"Nothing is compiled twice: a rule is asked about again only when its text changes."),
		mcp.WithInputSchema[CompileRequest](),
		mcp.WithOutputSchema[CompileResult](),
		mcp.WithToolAnnotation(mcp.ToolAnnotation{Title: "Compile the project's rules",
			ReadOnlyHint: mcp.ToBoolPtr(false), DestructiveHint: mcp.ToBoolPtr(false),
			IdempotentHint: mcp.ToBoolPtr(true), OpenWorldHint: mcp.ToBoolPtr(false)}),
	)
	return tool, handler(log, tool, func(ctx context.Context, req CompileRequest) (CompileResult, error) {
		if req.Project == "" {
			req.Project = proj.resolve(ctx)
		}
		proj.seen(ctx, req.Project)
		if req.Answer != nil {
			raw, err := json.Marshal(req.Answer)
			if err != nil {
				return CompileResult{}, err
			}
			ans, err := consult.Parse(raw)
			if err != nil {
				return CompileResult{}, fmt.Errorf("%w: answer: %v", kb.ErrInput, err)
			}
			var rec []string
			if recorded != nil {
				rec = recorded()
			}
			rep, err := c.ApplyCompile(ctx, req.Project, ans, kb.ApplyOptions{Validate: consult.Options{Recorded: rec}})
			if err != nil {
				return CompileResult{}, err
			}
			st := &Stored{Rules: rep.Rules, Checks: rep.Checks, Phrasings: rep.Phrasing, Refused: rep.Refused, Unknown: rep.Unknown}
			res := CompileResult{Stored: st, AnswerTokens: clip.Tokens(string(raw)), Note: "stored; the checks remind until the user approves them (innate-mcp rules approve ID)"}
			if len(rep.Refused) > 0 {
				res.Note = "stored what passed; the refused parts are listed with the reason: fix them and call again with those rules only, or leave them"
			}
			return res, nil
		}
		files, err := c.RulesToCompile(ctx, req.Project, req.All)
		if err != nil {
			return CompileResult{}, err
		}
		var pick *kb.RuleFile
		var left []string
		for i := range files {
			switch {
			case pick == nil && (req.File == "" || files[i].File == req.File):
				pick = &files[i]
			default:
				left = append(left, files[i].File)
			}
		}
		if pick == nil {
			return CompileResult{Note: "nothing to compile: every rule of the project's rule files has a compile of its current text"}, nil
		}
		p := consult.Prompt(pick.File, pick.Rules)
		return CompileResult{File: pick.File, Rules: len(pick.Rules), Prompt: p, PromptTokens: clip.Tokens(p), FilesLeft: left,
			Note: "answer the prompt with JSON of its schema and call compile_rules again with it as answer (and this file)"}, nil
	})
}
