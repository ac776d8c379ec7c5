package kb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/sanitize"
	"github.com/innate-mcp/innate-mcp/terms"
)

// AddStatus says what became of one lesson given to Add.
type AddStatus string

// The statuses of an added lesson. Unchanged, changed and restored are
// those of a rule file's re-import (ImportRules).
const (
	AddAdded     AddStatus = "added"
	AddDuplicate AddStatus = "duplicate"
	AddRejected  AddStatus = "rejected"
	// AddUnchanged: the rule is a lesson of its file already, left as it
	// is.
	AddUnchanged AddStatus = "unchanged"
	// AddChanged: the rule is a new wording of a lesson of its file; it
	// was added and the old lesson superseded.
	AddChanged AddStatus = "changed"
	// AddRestored: the rule is back in its file, and its lesson, which a
	// re-import had archived, was restored.
	AddRestored AddStatus = "restored"
	// AddReinforced: a near-duplicate of the lesson ID (the same but for
	// its numbers), which it reinforced; it was not stored.
	AddReinforced AddStatus = "reinforced"
)

// AddItem reports one lesson given to Add.
type AddItem struct {
	Index  int       `json:"index"`
	ID     string    `json:"id,omitempty"`
	Status AddStatus `json:"status"`
	Reason string    `json:"reason,omitempty"`
	// Replaces is the lesson a changed or restored rule superseded.
	Replaces string `json:"replaces,omitempty"`
}

// AddReport summarises an Add or an ImportRules. Each lesson given is
// counted once: added, unchanged, duplicate or rejected, or listed in
// Changed or Restored.
type AddReport struct {
	Added      int `json:"added"`
	Duplicates int `json:"duplicates"`
	// Reinforced counts near-duplicates, which reinforced a lesson already
	// held instead of being stored (see AddReinforced).
	Reinforced int `json:"reinforced"`
	Rejected   int `json:"rejected"`
	Redacted   int `json:"redacted"`
	// Unchanged counts the rules of a re-imported file that were lessons
	// of it already.
	Unchanged int `json:"unchanged"`
	// Changed pairs each reworded rule of a re-imported file with the
	// lesson of its old wording, now superseded.
	Changed []Replacement `json:"changed,omitempty"`
	// Removed lists the lessons whose rules left a re-imported file,
	// superseded (archived, restorable).
	Removed []string `json:"removed,omitempty"`
	// Restored lists the lessons brought back because their rules are in
	// the re-imported file again.
	Restored []string `json:"restored,omitempty"`
	// Superseded lists existing lessons the import contradicted and
	// archived (never deleted).
	Superseded []Change  `json:"superseded,omitempty"`
	Items      []AddItem `json:"items"`
}

// addBatch is how many lessons one write transaction inserts.
const addBatch = 256

// Add validates, sanitises, embeds and stores lessons, as import does: a
// lesson carrying a prompt-injection instruction or failing validation is
// rejected and reported, a lesson whose content is already known is counted
// as a duplicate, a near-duplicate of a lesson already held (the same but
// for its numbers, as Record reads them) reinforces that lesson instead of
// being stored, secrets are redacted before embedding or storing. Valid
// lessons are stored in batches of short transactions; progress, when not
// nil, is called with the number of lessons handled so far.
func (k *KB) Add(ctx context.Context, lessons []NewLesson, progress func(done int)) (AddReport, error) {
	if err := k.checkStore(ctx); err != nil {
		return AddReport{}, err
	}
	rep := AddReport{Items: make([]AddItem, len(lessons))}
	for start := 0; start < len(lessons); start += addBatch {
		end := min(start+addBatch, len(lessons))
		var p prepared
		if err := k.prepare(ctx, lessons, start, end, &rep, &p); err != nil {
			return rep, err
		}
		now := k.now().UTC()
		err := k.store.Update(ctx, func(tx Tx) error {
			for j, nl := range p.lessons {
				if err := k.insertLesson(ctx, tx, nl, &rep.Items[p.idx[j]], p.opposed[j], now, &rep.Superseded); err != nil {
					return fmt.Errorf("lesson %d: %w", p.idx[j], err)
				}
			}
			return nil
		})
		if err != nil {
			return rep, err
		}
		for _, i := range p.idx {
			switch rep.Items[i].Status {
			case AddAdded:
				rep.Added++
			case AddReinforced:
				rep.Reinforced++
			default:
				rep.Duplicates++
			}
		}
		if progress != nil {
			progress(end)
		}
	}
	return rep, nil
}

// prepared holds admitted lessons, embedded and checked for
// contradictions, ready for a write transaction.
type prepared struct {
	lessons []*NewLesson
	idx     []int      // each lesson's index in the caller's list
	opposed [][]string // the existing lessons each one contradicts
	// known holds content hashes of lessons the caller already stores
	// and will leave as they are (a re-import's unchanged rules): such a
	// lesson is admitted but neither embedded nor searched for
	// contradictions, so it has no vectors.
	known map[string]bool
}

// prepare does what Add does before a write transaction opens, for
// lessons[start:end], and appends the result to p: each lesson is admitted
// (a rejection is reported in rep, redactions counted), the admitted ones
// are embedded with one batch call and searched for the existing lessons
// they contradict (except those p.known holds).
func (k *KB) prepare(ctx context.Context, lessons []NewLesson, start, end int, rep *AddReport, p *prepared) error {
	var admitted, batch []*NewLesson
	for i := start; i < end; i++ {
		nl := &lessons[i]
		rep.Items[i] = AddItem{Index: i, ID: nl.ID}
		reason, n := k.admit(nl)
		if reason != "" {
			rep.Items[i].Status, rep.Items[i].Reason = AddRejected, reason
			rep.Rejected++
			continue
		}
		rep.Redacted += n
		admitted = append(admitted, nl)
		p.idx = append(p.idx, i)
		if !p.knows(nl) {
			batch = append(batch, nl)
		}
	}
	if err := k.embedLessons(ctx, batch); err != nil {
		return err
	}
	for _, nl := range admitted {
		var ids []string
		if !p.knows(nl) {
			var err error
			if ids, err = k.opposing(ctx, nl); err != nil {
				return err
			}
		}
		p.lessons = append(p.lessons, nl)
		p.opposed = append(p.opposed, ids)
	}
	return nil
}

// knows reports whether the caller already stores the lesson nl would be
// (p.known holds the hashes of its lessons of nl's project).
func (p *prepared) knows(nl *NewLesson) bool {
	return p.known[LessonHash(nl.Content, nl.Trigger, nl.Project)] || p.known[ContentHash(nl.Content, nl.Trigger)]
}

// sameLesson returns the stored lesson a new lesson of project would be:
// the one with its hash; else, stored before the project counted in the
// hash, one of the same project with its text's hash; else a global lesson
// with the same text, which holds in every project already. Another
// project's lesson is never it. ErrNotFound when there is none.
func sameLesson(ctx context.Context, tx Tx, content, trigger, project string) (Lesson, error) {
	l, err := tx.LessonByHash(ctx, LessonHash(content, trigger, project))
	if project == "" || !errors.Is(err, ErrNotFound) {
		return l, err
	}
	l, err = tx.LessonByHash(ctx, ContentHash(content, trigger))
	if err != nil {
		return Lesson{}, err
	}
	if l.Project != project && l.Project != "" {
		return Lesson{}, ErrNotFound
	}
	return l, nil
}

// insertLesson stores one prepared lesson in tx and reports it in it: a
// duplicate when a lesson with its content hash exists, otherwise added,
// with its contradictions of the lessons in opposed resolved (see
// resolveContradictions; the lessons superseded are appended to changes).
func (k *KB) insertLesson(ctx context.Context, tx Tx, nl *NewLesson, it *AddItem, opposed []string, now time.Time, changes *[]Change) error {
	existing, err := sameLesson(ctx, tx, nl.Content, nl.Trigger, nl.Project)
	if err == nil {
		it.ID, it.Status = existing.ID, AddDuplicate
		return nil
	}
	if !errors.Is(err, ErrNotFound) {
		return err
	}
	if near, ok, err := nearDuplicate(ctx, tx, *nl); err != nil {
		return err
	} else if ok {
		var r RecordResult
		if err := k.reinforce(ctx, tx, near.ID, now, &r); err != nil {
			return err
		}
		it.ID, it.Status, it.Reason = near.ID, AddReinforced, reinforceWhat
		if n := len(r.Changes); n > 0 {
			it.Reason = r.Changes[n-1].What
		}
		return nil
	}
	k.initConfidence(nl, now)
	l, err := tx.InsertLesson(ctx, *nl, now)
	if err != nil {
		return fmt.Errorf("insert lesson: %w", err)
	}
	it.ID, it.Status = l.ID, AddAdded
	if err := restoreChecks(ctx, tx, l.ID, nl.Restore, now); err != nil {
		return err
	}
	return k.resolveContradictions(ctx, tx, l.ID, opposed, now, changes)
}

// authoredTrigger is a trigger without what the reader derived from the
// content ("; about: " and the rule's subject): those words are the
// content's, read for injection there with their negation ("never bypass
// the hooks"), which the subject alone ("bypass hooks") has lost.
func authoredTrigger(content, trigger string) string {
	i := strings.LastIndex(trigger, directive.AboutPrefix)
	if i < 0 {
		return trigger
	}
	before := strings.TrimSuffix(strings.TrimSpace(trigger[:i]), ";")
	if strings.TrimSpace(trigger[i+len(directive.AboutPrefix):]) != directive.Parse(content, before).Subject {
		return trigger
	}
	return before
}

// admit validates and sanitises one lesson in place; it returns a reason
// when the lesson must be rejected, and the number of secrets redacted.
func (k *KB) admit(nl *NewLesson) (string, int) {
	if nl.Origin == "" {
		nl.Origin = OriginImported
	}
	if err := nl.validate(); err != nil {
		return err.Error(), 0
	}
	n := 0
	for _, p := range []*string{&nl.Content, &nl.Trigger, &nl.AntiTrigger} {
		scanned := *p
		if p == &nl.Trigger {
			scanned = authoredTrigger(nl.Content, nl.Trigger)
		}
		if f, bad := sanitize.Injection(scanned); bad {
			return "carries a prompt-injection instruction (" + f.Rule + ")", 0
		}
		var rs []sanitize.Redaction
		*p, rs = sanitize.Redact(*p)
		n += len(rs)
	}
	nl.deriveDirective()
	return "", n
}

// deriveDirective reads the lesson's directive with the current parser:
// every new lesson is stored with it (admit for add and edit, learnLesson
// for record).
func (nl *NewLesson) deriveDirective() {
	d := directive.Parse(nl.Content, nl.Trigger)
	nl.Directive = &d
	nl.deriveChecks()
}

// embedLessons fills the content and trigger vectors of lessons with one
// batch call to the embedder.
func (k *KB) embedLessons(ctx context.Context, lessons []*NewLesson) error {
	if len(lessons) == 0 {
		return nil
	}
	texts := make([]string, 0, 2*len(lessons))
	for _, nl := range lessons {
		texts = append(texts, DenseText(nl.Content))
		if nl.Trigger != "" {
			texts = append(texts, DenseText(nl.Trigger))
		}
	}
	vecs, err := k.emb.EmbedBatch(ctx, texts)
	if err != nil {
		return fmt.Errorf("embed lessons: %w", err)
	}
	if len(vecs) != len(texts) {
		return fmt.Errorf("embed lessons: embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	i := 0
	for _, nl := range lessons {
		nl.ContentVec = vecs[i]
		i++
		if nl.Trigger != "" {
			nl.TriggerVec = vecs[i]
			i++
		}
	}
	return nil
}

// DenseText prepares text for the embedder, whose window is short: runs of
// white space collapse to one space and identifiers are split into words
// (parseHTTPRequest → parse HTTP Request), which a sentence encoder reads
// far better than one long unknown piece.
func DenseText(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, field := range strings.Fields(s) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		writeSplitWords(&b, field)
	}
	return b.String()
}

// writeSplitWords writes field with every identifier inside it split.
func writeSplitWords(b *strings.Builder, field string) {
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		parts := terms.SplitIdentifier(field[start:end])
		b.WriteString(strings.Join(parts, " "))
		start = -1
	}
	for i, r := range field {
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		flush(i)
		b.WriteRune(r)
	}
	flush(len(field))
}
