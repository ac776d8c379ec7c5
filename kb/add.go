package kb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/sanitize"
	"github.com/innate-mcp/innate-mcp/terms"
)

// AddStatus says what became of one lesson given to Add.
type AddStatus string

// The statuses of an added lesson.
const (
	AddAdded     AddStatus = "added"
	AddDuplicate AddStatus = "duplicate"
	AddRejected  AddStatus = "rejected"
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
}

// AddReport summarises an Add.
type AddReport struct {
	Added      int `json:"added"`
	Duplicates int `json:"duplicates"`
	// Reinforced counts near-duplicates, which reinforced a lesson already
	// held instead of being stored (see AddReinforced).
	Reinforced int `json:"reinforced"`
	Rejected   int `json:"rejected"`
	Redacted   int `json:"redacted"`
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
	if err := k.checkEmbedder(ctx); err != nil {
		return AddReport{}, err
	}
	rep := AddReport{Items: make([]AddItem, len(lessons))}
	for start := 0; start < len(lessons); start += addBatch {
		end := min(start+addBatch, len(lessons))
		var batch []*NewLesson
		var idx []int
		for i := start; i < end; i++ {
			nl := &lessons[i]
			rep.Items[i] = AddItem{Index: i, ID: nl.ID}
			if reason, n := k.admit(nl); reason != "" {
				rep.Items[i].Status, rep.Items[i].Reason = AddRejected, reason
				rep.Rejected++
				continue
			} else {
				rep.Redacted += n
			}
			batch = append(batch, nl)
			idx = append(idx, i)
		}
		if err := k.embedLessons(ctx, batch); err != nil {
			return rep, err
		}
		opposed := make([][]string, len(batch))
		for j, nl := range batch {
			ids, err := k.opposing(ctx, nl)
			if err != nil {
				return rep, err
			}
			opposed[j] = ids
		}
		now := k.now().UTC()
		err := k.store.Update(ctx, func(tx Tx) error {
			for j, nl := range batch {
				it := &rep.Items[idx[j]]
				existing, err := tx.LessonByHash(ctx, ContentHash(nl.Content, nl.Trigger))
				if err == nil {
					it.ID, it.Status = existing.ID, AddDuplicate
					continue
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
					continue
				}
				k.initConfidence(nl, now)
				l, err := tx.InsertLesson(ctx, *nl, now)
				if err != nil {
					return fmt.Errorf("insert lesson %d: %w", idx[j], err)
				}
				it.ID, it.Status = l.ID, AddAdded
				var changes []Change
				if err := k.resolveContradictions(ctx, tx, l.ID, opposed[j], now, &changes); err != nil {
					return err
				}
				for _, c := range changes {
					rep.Superseded = append(rep.Superseded, c)
				}
			}
			return nil
		})
		if err != nil {
			return rep, err
		}
		for _, i := range idx {
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
		if f, bad := sanitize.Injection(*p); bad {
			return "carries a prompt-injection instruction (" + f.Rule + ")", 0
		}
		var rs []sanitize.Redaction
		*p, rs = sanitize.Redact(*p)
		n += len(rs)
	}
	d := directive.Parse(nl.Content, nl.Trigger)
	nl.Directive = &d
	return "", n
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
