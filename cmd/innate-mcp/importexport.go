package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	// Checks are the lesson's checks: a person's and a consultant's are
	// stored again, and every check keeps its state and record.
	Checks []kb.StoredCheck `json:"checks"`
	// Compile is what a consultant said of the rule; stored again after
	// the import.
	Compile *kb.Compile `json:"compile"`
}

func (l importLine) newLesson() kb.NewLesson {
	return kb.NewLesson{ID: l.ID, Content: l.Content, Trigger: l.Trigger, AntiTrigger: l.AntiTrigger, Tags: l.Tags,
		Project: l.Project, Origin: l.Origin, Kind: l.Kind, State: l.State, Confidence: l.Confidence,
		Counters: l.Counters, Source: l.Source, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, LastUsedAt: l.LastUsedAt,
		Conf: l.Conf, Restore: l.Checks, Compile: l.Compile}
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
	done, stored := 0, 0 // lessons handled; of those, in committed batches
	prog := newProgress(stderr, m.IsTerminal != nil && m.IsTerminal(stderr), "import", "lessons", total)
	for _, f := range files {
		var r kb.AddReport
		if f.rules {
			r, err = a.kb.ImportRules(ctx, f.path, project, f.lessons)
		} else {
			r, err = a.kb.Add(ctx, f.lessons, func(n int) {
				stored = done + n
				prog.report(stored)
				a.log.Debug("import progress", "done", stored, "of", total)
			})
		}
		if err != nil {
			prog.end()
			if stored > 0 {
				return fmt.Errorf("import stopped after %d of %d lessons: %w; run the same import again to resume: "+
					"the lessons already imported are skipped as duplicates", stored, total, err)
			}
			return err
		}
		mergeReport(&rep, r, done)
		var compiles []kb.Compile
		for _, l := range f.lessons {
			if l.Compile != nil {
				c := *l.Compile
				c.Project = l.Project
				compiles = append(compiles, c)
			}
		}
		if err := a.kb.RestoreCompiles(ctx, compiles); err != nil {
			prog.end()
			return err
		}
		done += len(f.lessons)
		stored = done
		prog.report(done)
	}
	prog.end()
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
	fs.StringVar(&outPath, "out", "", "write to FILE (mode 0600, replaced whole; not through a symbolic link) instead of standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if outPath != "" {
		// Refused before the database is opened.
		if err := checkTarget(outPath); err != nil {
			return fmt.Errorf("export --out %s: %w", outPath, err)
		}
	}
	a, err := m.open(ctx, g, stderr, m.cliSession(), readAccess)
	if err != nil {
		return err
	}
	defer a.close()
	export := func(w io.Writer) error {
		bw := bufio.NewWriter(w)
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		compiles := map[string]map[string]kb.Compile{} // by project
		err := a.store.Lessons(ctx, kb.LessonFilter{}, func(l kb.Lesson) error {
			cs, err := a.store.Checks(ctx, kb.CheckFilter{Lesson: l.ID})
			if err != nil {
				return err
			}
			pc, ok := compiles[l.Project]
			if !ok && l.Project != "" {
				if pc, err = a.kb.Compiles(ctx, l.Project); err != nil {
					return err
				}
				compiles[l.Project] = pc
			}
			return enc.Encode(exportLine{Lesson: l, Checks: cs, Compile: kb.CompileOf(l, pc)})
		})
		if err != nil {
			return err
		}
		return bw.Flush()
	}
	if outPath == "" {
		return export(stdout)
	}
	if err := writeFileAtomic(outPath, export); err != nil {
		return fmt.Errorf("export --out %s: %w", outPath, err)
	}
	return nil
}

// exportLine is one lesson of an export, with its checks.
type exportLine struct {
	kb.Lesson
	Checks  []kb.StoredCheck `json:"checks,omitempty"`
	Compile *kb.Compile      `json:"compile,omitempty"`
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
