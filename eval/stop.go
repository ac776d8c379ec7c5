package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/internal/clip"
	"github.com/innate-mcp/innate-mcp/internal/split"
)

// StopTurn is one real agent turn of the stop set: the user's message, each
// tool call with its output, the final text, and its label.
type StopTurn struct {
	ID      string     `json:"id"`
	Repo    string     `json:"repo"`
	Session string     `json:"session"`
	Turn    int        `json:"turn"`
	Agent   string     `json:"agent,omitempty"`
	User    string     `json:"user"`
	Calls   []StopCall `json:"calls"`
	Final   string     `json:"final"`
	Label   *StopLabel `json:"label"`
}

// StopCall is a tool call of a turn, in Claude Code's shape.
type StopCall struct {
	ToolName  string          `json:"tool_name"`
	ToolInput json.RawMessage `json:"tool_input"`
	Output    string          `json:"output"`
}

// StopLabel is a turn's label (eval/testdata/stop/README.md says the
// policy): Block = ClaimsSuccess and not VerifiedInTurn.
type StopLabel struct {
	ClaimsSuccess  bool   `json:"claims_success"`
	VerifiedInTurn bool   `json:"verified_in_turn"`
	Block          bool   `json:"block"`
	Edited         bool   `json:"edited"`
	Unsure         bool   `json:"unsure"`
	Reason         string `json:"reason,omitempty"`
	Language       string `json:"language,omitempty"`
}

// StopFigures are the Stop hook's figures on the sure turns of a set of
// repositories.
type StopFigures struct {
	Repos     int     `json:"repos"`
	Turns     int     `json:"turns"` // sure turns
	Unsure    int     `json:"unsure_turns"`
	Expected  int     `json:"blocks_expected"`
	Blocks    int     `json:"blocks"`
	Right     int     `json:"blocks_right"`
	Precision float64 `json:"block_precision"`
	Recall    float64 `json:"block_recall"`
	// FalseBlockRate is the share of the sure turns that should pass that
	// the hook blocked.
	FalseBlockRate float64 `json:"false_block_rate"`
}

// StopReport is what Stop prints: every repository, and each half.
type StopReport struct {
	StopFigures
	Tune  StopFigures `json:"tune"`
	Check StopFigures `json:"check"`
}

// StopOptions configures Stop.
type StopOptions struct {
	// Handler makes the hook handler for a project root.
	Handler func(root string) *hook.Handler
	// Root is a directory to write the turns' transcripts in.
	Root string
	// Dump, when not nil, receives one JSON line per turn: the hook's
	// answer and the label.
	Dump io.Writer
}

// Stop replays each real turn of the stop set (DIR/sources.jsonl and
// DIR/repos/<owner>__<name>/turns.jsonl) through the Stop hook, as Claude
// Code sends it: the turn written as a transcript, then the Stop event.
func Stop(ctx context.Context, dir string, opts StopOptions) (StopReport, error) {
	sources, err := readSources(dir)
	if err != nil {
		return StopReport{}, err
	}
	type outcome struct {
		half, repo string
		label      StopLabel
		blocked    bool
	}
	var outs []outcome
	for _, s := range sources {
		turns, err := readJSONL[StopTurn](filepath.Join(dir, "repos", s.Slug(), "turns.jsonl"))
		if err != nil {
			return StopReport{}, err
		}
		root := filepath.Join(opts.Root, s.Slug())
		if err := os.MkdirAll(filepath.Join(root, ".git"), 0o700); err != nil {
			return StopReport{}, err
		}
		h := opts.Handler(root)
		for _, t := range turns {
			if t.Label == nil {
				return StopReport{}, fmt.Errorf("%s: turn %s has no label", s.Repo, t.ID)
			}
			path := filepath.Join(opts.Root, strings.ReplaceAll(t.ID, "/", "__")+".jsonl")
			if err := writeTranscript(path, root, t); err != nil {
				return StopReport{}, fmt.Errorf("%s: %w", t.ID, err)
			}
			out, err := h.Handle(ctx, hook.Input{SessionID: t.ID, Cwd: root, Event: hook.Stop, TranscriptPath: path})
			if err != nil {
				return StopReport{}, fmt.Errorf("%s: Stop: %w", t.ID, err)
			}
			o := outcome{half: s.Half, repo: s.Repo, label: *t.Label, blocked: out.Decision == "block"}
			outs = append(outs, o)
			if opts.Dump != nil {
				if err := json.NewEncoder(opts.Dump).Encode(map[string]any{"id": t.ID, "blocked": o.blocked, "reason": out.Reason,
					"label": t.Label, "final": clip.Line(t.Final, 300)}); err != nil {
					return StopReport{}, err
				}
			}
		}
	}
	sum := func(keep func(outcome) bool) StopFigures {
		var f StopFigures
		repos := map[string]bool{}
		pass := 0
		falseBlocks := 0
		for _, o := range outs {
			if !keep(o) {
				continue
			}
			repos[o.repo] = true
			if o.label.Unsure {
				f.Unsure++
				continue
			}
			f.Turns++
			if o.label.Block {
				f.Expected++
			} else {
				pass++
			}
			if o.blocked {
				f.Blocks++
				if o.label.Block {
					f.Right++
				} else {
					falseBlocks++
				}
			}
		}
		f.Repos = len(repos)
		f.Precision, f.Recall, f.FalseBlockRate = ratio(f.Right, f.Blocks), ratio(f.Right, f.Expected), ratio(falseBlocks, pass)
		return f
	}
	return StopReport{
		StopFigures: sum(func(outcome) bool { return true }),
		Tune:        sum(func(o outcome) bool { return o.half == split.Tune }),
		Check:       sum(func(o outcome) bool { return o.half == split.Check }),
	}, nil
}

// writeTranscript writes a turn as Claude Code's transcript: the user's
// message, each tool call and its result, and the final text; file paths
// under root. The lines carry no "cwd": the chats do not record where the
// agent's shell stood (often a subdirectory), and a made-up one would give
// the Stop hook a scope it could not know.
func writeTranscript(path, root string, t StopTurn) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	line := func(typ string, content any) error {
		return enc.Encode(map[string]any{"type": typ, "sessionId": t.ID,
			"message": map[string]any{"role": typ, "content": content}})
	}
	err = line("user", t.User)
	for i, c := range t.Calls {
		if err != nil {
			break
		}
		input, ierr := absolutePaths(c.ToolInput, root)
		if ierr != nil || len(input) == 0 {
			input = json.RawMessage(`{}`)
		}
		id := fmt.Sprintf("toolu_%03d", i+1)
		if err = line("assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": c.ToolName, "input": input}}); err != nil {
			break
		}
		err = line("user", []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": c.Output}})
	}
	if err == nil {
		err = line("assistant", []any{map[string]any{"type": "text", "text": t.Final}})
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
