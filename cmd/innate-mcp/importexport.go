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
	// Directive is accepted so that an export imports, and ignored: the
	// knowledge base derives it again from content and trigger.
	Directive json.RawMessage `json:"directive"`
}

func (l importLine) newLesson() kb.NewLesson {
	return kb.NewLesson{ID: l.ID, Content: l.Content, Trigger: l.Trigger, AntiTrigger: l.AntiTrigger, Tags: l.Tags,
		Project: l.Project, Origin: l.Origin, Kind: l.Kind, State: l.State, Confidence: l.Confidence,
		Counters: l.Counters, Source: l.Source, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, LastUsedAt: l.LastUsedAt,
		Conf: l.Conf}
}

// lessonsFile is one file given to import, read and parsed.
type lessonsFile struct {
	path string
	// rules is true for an agent rule file, whose lessons are the file's
	// current rules (kb.ImportRules); false for JSONL lessons (kb.Add).
	rules   bool
	lessons []kb.NewLesson
}

// readLessonsFile reads one file of lessons: JSONL by extension, otherwise
// a Markdown rule file (CLAUDE.md, AGENTS.md, .cursorrules, .mdc, *.md).
func readLessonsFile(path, project string) (lessonsFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return lessonsFile{}, err
	}
	if strings.EqualFold(filepath.Ext(path), ".jsonl") || strings.EqualFold(filepath.Ext(path), ".ndjson") {
		ls, err := parseJSONL(data)
		return lessonsFile{path: path, lessons: ls}, err
	}
	ls, err := kb.RuleFileLessons(path, project, data)
	return lessonsFile{path: path, rules: true, lessons: ls}, err
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
	// Every file is read and parsed before anything is written.
	var files []lessonsFile
	var names []string
	total := 0
	for _, path := range fs.Args() {
		f, err := readLessonsFile(path, project)
		if err != nil {
			return fmt.Errorf("import %s: %w", path, err)
		}
		files = append(files, f)
		names = append(names, fmt.Sprintf("%s: %d", path, len(f.lessons)))
		total += len(f.lessons)
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), writeAccess)
	if err != nil {
		return err
	}
	defer a.close()
	start := time.Now()
	// A rule file is imported as a whole, in one transaction, so that a
	// re-import after an edit supersedes what left the file; JSONL lessons
	// are only added.
	var rep kb.AddReport
	done := 0
	for _, f := range files {
		var r kb.AddReport
		if f.rules {
			r, err = a.kb.ImportRules(ctx, f.path, project, f.lessons)
		} else {
			r, err = a.kb.Add(ctx, f.lessons, func(n int) { a.log.Debug("import progress", "done", done+n, "of", total) })
		}
		if err != nil {
			return err
		}
		mergeReport(&rep, r, done)
		done += len(f.lessons)
	}
	out := struct {
		Files      []string         `json:"files"`
		Added      int              `json:"added"`
		Unchanged  int              `json:"unchanged"`
		Duplicates int              `json:"duplicates"`
		Reinforced int              `json:"reinforced"`
		Rejected   int              `json:"rejected"`
		Redacted   int              `json:"redacted_secrets"`
		Changed    []kb.Replacement `json:"changed,omitempty"`
		Removed    []string         `json:"removed,omitempty"`
		Restored   []string         `json:"restored,omitempty"`
		Superseded []kb.Change      `json:"superseded,omitempty"`
		Seconds    float64          `json:"seconds"`
		Items      []kb.AddItem     `json:"items,omitempty"`
	}{Files: names, Added: rep.Added, Unchanged: rep.Unchanged, Duplicates: rep.Duplicates, Reinforced: rep.Reinforced, Rejected: rep.Rejected,
		Redacted: rep.Redacted, Changed: rep.Changed, Removed: rep.Removed, Restored: rep.Restored,
		Superseded: rep.Superseded, Seconds: time.Since(start).Seconds()}
	for _, it := range rep.Items {
		if verbose || it.Status == kb.AddRejected || it.Status == kb.AddReinforced {
			out.Items = append(out.Items, it)
		}
	}
	return writeJSON(stdout, out)
}

// mergeReport adds the report of one file, whose lessons start at index
// offset among all the files' lessons, to the command's report.
func mergeReport(rep *kb.AddReport, r kb.AddReport, offset int) {
	rep.Added += r.Added
	rep.Unchanged += r.Unchanged
	rep.Duplicates += r.Duplicates
	rep.Reinforced += r.Reinforced
	rep.Rejected += r.Rejected
	rep.Redacted += r.Redacted
	rep.Changed = append(rep.Changed, r.Changed...)
	rep.Removed = append(rep.Removed, r.Removed...)
	rep.Restored = append(rep.Restored, r.Restored...)
	rep.Superseded = append(rep.Superseded, r.Superseded...)
	for _, it := range r.Items {
		it.Index += offset
		rep.Items = append(rep.Items, it)
	}
}

func (m *Main) runExport(ctx context.Context, g *globals, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var outPath string
	fs := newFlagSet("export", g, stderr, "[--out FILE]")
	fs.StringVar(&outPath, "out", "", "write to FILE instead of standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), readAccess)
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
	a, err := m.open(ctx, g, stderr, m.cliSession(), writeAccess)
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
