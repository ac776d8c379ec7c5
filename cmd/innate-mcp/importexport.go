package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/kb"
)

// importLine is one JSONL lesson: the export format (kb.Lesson), of which
// only content is required.
type importLine struct {
	ID          string            `json:"id"`
	Content     string            `json:"content"`
	Trigger     string            `json:"trigger"`
	AntiTrigger string            `json:"anti_trigger"`
	Tags        []string          `json:"tags"`
	Project     string            `json:"project"`
	Origin      kb.Origin         `json:"origin"`
	Kind        kb.Kind           `json:"kind"`
	State       kb.State          `json:"state"`
	Confidence  float64           `json:"confidence"`
	Counters    kb.Counters       `json:"counters"`
	Source      string            `json:"source"`
	CreatedAt   time.Time         `json:"created_at"`
	UpdatedAt   time.Time         `json:"updated_at"`
	LastUsedAt  *time.Time        `json:"last_used_at"`
	Hash        string            `json:"content_hash"`
	Tier        string            `json:"tier"` // derived from the confidence state
	Conf        *confidence.State `json:"confidence_state"`
	// Directive is derived again from content and trigger by the knowledge
	// base; the exported one is accepted and ignored.
	Directive json.RawMessage `json:"directive"`
}

func (l importLine) newLesson() kb.NewLesson {
	return kb.NewLesson{ID: l.ID, Content: l.Content, Trigger: l.Trigger, AntiTrigger: l.AntiTrigger, Tags: l.Tags,
		Project: l.Project, Origin: l.Origin, Kind: l.Kind, State: l.State, Confidence: l.Confidence,
		Counters: l.Counters, Source: l.Source, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, LastUsedAt: l.LastUsedAt,
		Conf: l.Conf}
}

// readLessonsFile reads one file of lessons: JSONL by extension, otherwise
// a Markdown rule file (CLAUDE.md, AGENTS.md, .cursorrules, .mdc, *.md).
func readLessonsFile(path, project string) ([]kb.NewLesson, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(path), ".jsonl") || strings.EqualFold(filepath.Ext(path), ".ndjson") {
		return parseJSONL(data)
	}
	return kb.RuleFileLessons(path, project, data)
}

// parseJSONL decodes lesson lines, refusing unknown fields; blank lines are
// skipped and errors name the line.
func parseJSONL(data []byte) ([]kb.NewLesson, error) {
	var out []kb.NewLesson
	err := eachJSONLine(data, func(_ int, b []byte) error {
		var l importLine
		if err := decodeStrict(bytes.NewReader(b), &l); err != nil {
			return err
		}
		out = append(out, l.newLesson())
		return nil
	})
	return out, err
}

func (m *Main) runImport(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var project string
	var global, verbose bool
	fs := newFlagSet("import", g, stderr, "[flags] FILE...")
	fs.StringVar(&project, "project", "", "project the imported rules belong to (default: INNATE_PROJECT or the git root)")
	fs.BoolVar(&global, "global", false, "imported rules apply to every project")
	fs.BoolVar(&verbose, "v", false, "list every lesson's status")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return fmt.Errorf("%w: import needs at least one FILE", errUsage)
	}
	if project == "" && !global {
		project = m.currentProject()
	}
	if global {
		project = ""
	}
	var all []kb.NewLesson
	var files []string
	for _, path := range fs.Args() {
		ls, err := readLessonsFile(path, project)
		if err != nil {
			return fmt.Errorf("import %s: %w", path, err)
		}
		all = append(all, ls...)
		files = append(files, fmt.Sprintf("%s: %d", path, len(ls)))
	}
	a, err := m.open(ctx, g, stderr, m.cliSession())
	if err != nil {
		return err
	}
	defer a.close()
	start := time.Now()
	rep, err := a.kb.Add(ctx, all, func(done int) { a.log.Debug("import progress", "done", done, "of", len(all)) })
	if err != nil {
		return err
	}
	out := struct {
		Files      []string     `json:"files"`
		Added      int          `json:"added"`
		Duplicates int          `json:"duplicates"`
		Reinforced int          `json:"reinforced"`
		Rejected   int          `json:"rejected"`
		Redacted   int          `json:"redacted_secrets"`
		Seconds    float64      `json:"seconds"`
		Items      []kb.AddItem `json:"items,omitempty"`
	}{files, rep.Added, rep.Duplicates, rep.Reinforced, rep.Rejected, rep.Redacted, time.Since(start).Seconds(), nil}
	for _, it := range rep.Items {
		if verbose || it.Status == kb.AddRejected || it.Status == kb.AddReinforced {
			out.Items = append(out.Items, it)
		}
	}
	return writeJSON(stdout, out)
}

func (m *Main) runExport(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var outPath string
	fs := newFlagSet("export", g, stderr, "[--out FILE]")
	fs.StringVar(&outPath, "out", "", "write to FILE instead of standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, m.cliSession())
	if err != nil {
		return err
	}
	defer a.close()
	w := stdout
	var f *os.File
	if outPath != "" {
		if f, err = os.Create(outPath); err != nil {
			return err
		}
		w = f
	}
	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	enc.SetEscapeHTML(false)
	err = a.db.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error { return enc.Encode(l) })
	if ferr := bw.Flush(); err == nil {
		err = ferr
	}
	if f != nil {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

func (m *Main) runReembed(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("reembed", g, stderr, "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, m.cliSession())
	if err != nil {
		return err
	}
	defer a.close()
	start := time.Now()
	n, err := a.kb.Reembed(ctx, nil)
	if err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return writeJSON(stdout, map[string]any{"reembedded": n, "embedder": a.emb.Name(), "dim": a.emb.Dim(), "seconds": time.Since(start).Seconds()})
}
