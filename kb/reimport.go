package kb

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/terms"
)

// A rule file is the user's own list of rules, and importing it again after
// an edit brings the knowledge base in line with the file: the lessons of
// the file (same path, same project, user-stated) are compared with its
// rules now.
//
//   - A rule whose content hash is a lesson of the file is unchanged: the
//     lesson, its confidence and its history are left as they are, even
//     when it is archived; but if a re-import had archived it (its rule had
//     been removed or reworded) it is restored, since the rule is back.
//   - A rule that is new is added; if it resembles a lesson of the file that
//     no rule matches any more (rewordThreshold), it is a new wording of
//     that lesson, which is superseded by it: archived, never deleted, and
//     linked to it. A restored lesson may be the new wording of another.
//   - A lesson of the file that no rule matches or resembles was removed
//     from the file and is superseded too, with nothing replacing it.
//
// Lessons of other files, other projects or other origins are never
// touched; a rule whose text is such a lesson is a duplicate, as in Add.

// rewordThreshold is the least similarity (the Jaccard index of the
// contents' distinct terms, as package terms makes them) at which a new
// rule is taken for a new wording of a lesson that left the file, rather
// than for a rule removed and another added.
const rewordThreshold = 0.5

// The kinds of link between lessons (Tx.LinkLessons).
const (
	linkSupersedes  = "supersedes"
	linkContradicts = "contradicts"
)

// Replacement is a rule of a re-imported file whose wording changed: the
// lesson of its old wording, now archived as superseded, and the lesson of
// the new one.
type Replacement struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// ImportRules brings the lessons of the rule file at path for project (""
// for global rules) in line with rules, the file's current rules as
// RuleFileLessons made them: see the comment at the top of this file for
// what happens to each rule and lesson. The report says it all: every rule
// is an item (added, changed, unchanged, restored, duplicate or rejected),
// Changed pairs each reworded rule's old lesson with its new one, Removed
// lists the lessons whose rules left the file.
//
// Everything ImportRules writes is written in one transaction, so that a
// re-import is all or nothing: a failure leaves the knowledge base as it
// was, and a reader never sees a file half re-imported (a new wording
// stored but the old one still active). Embedding, the slow part, is done
// before the transaction opens; what remains is a few inserts and updates
// per rule, short for any rule file a person writes (Add's batches of
// addBatch exist for JSONL dumps of tens of thousands of lessons).
//
// ImportRules returns an InputError, having written nothing, when path is
// empty or a lesson in rules is not a user-stated lesson of that file and
// project.
func (k *KB) ImportRules(ctx context.Context, path, project string, rules []NewLesson) (AddReport, error) {
	file := ruleFile(path)
	if file == "" {
		return AddReport{}, inputErrorf("path", "is empty: give the rule file's path")
	}
	for i, nl := range rules {
		if nl.Project != project || ruleFile(nl.Source) != file || (nl.Origin != "" && nl.Origin != OriginUserStated) {
			return AddReport{}, inputErrorf(fmt.Sprintf("rules[%d]", i),
				"is a %s lesson of %q in project %q, not a rule of %s in project %q", nl.Origin, nl.Source, nl.Project, file, project)
		}
		rules[i].Origin = OriginUserStated
	}
	if err := k.checkStore(ctx); err != nil {
		return AddReport{}, err
	}
	// The file's rules already stored stay as they are: they are not
	// embedded again (an edit of one rule in a file of fifty costs one
	// embedding, not fifty). Should one of them go meanwhile (another
	// process re-importing the file), the import runs again embedding all.
	known, err := k.fileHashes(ctx, project, file)
	if err != nil {
		return AddReport{}, err
	}
	originals := slices.Clone(rules)
	done, rep, err := k.reimportOnce(ctx, project, file, rules, known)
	if errors.Is(err, errVanished) {
		done, rep, err = k.reimportOnce(ctx, project, file, originals, nil)
	}
	if err != nil {
		return rep, fmt.Errorf("import %s: %w", file, err)
	}
	for _, it := range done.Items {
		switch it.Status {
		case AddAdded:
			done.Added++
		case AddUnchanged:
			done.Unchanged++
		case AddDuplicate:
			done.Duplicates++
		case AddReinforced:
			done.Reinforced++
		}
	}
	return done, nil
}

// errVanished reports that a stored rule ImportRules did not embed again
// was gone by the time its transaction ran.
var errVanished = errors.New("a stored rule of the file changed during the import")

// fileHashes returns the content hashes of the lessons of a rule file in
// a project that a re-import leaves as they are (the recallable ones).
func (k *KB) fileHashes(ctx context.Context, project, file string) (map[string]bool, error) {
	known := map[string]bool{}
	filter := LessonFilter{Project: project, Global: project == "", Origin: OriginUserStated,
		States: []State{StateActive, StatePending}}
	err := k.store.Lessons(ctx, filter, func(l Lesson) error {
		if ruleFile(l.Source) == file {
			known[l.Hash] = true
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read the lessons of %s: %w", file, err)
	}
	return known, nil
}

// reimportOnce prepares rules (embedding those known does not hold) and
// reconciles the file's lessons with them in one transaction; it returns
// the report of the transaction and the report of the preparation.
func (k *KB) reimportOnce(ctx context.Context, project, file string, rules []NewLesson, known map[string]bool) (AddReport, AddReport, error) {
	rep := AddReport{Items: make([]AddItem, len(rules))}
	p := prepared{known: known}
	for start := 0; start < len(rules); start += addBatch {
		if err := k.prepare(ctx, rules, start, min(start+addBatch, len(rules)), &rep, &p); err != nil {
			return AddReport{}, rep, err
		}
	}
	now := k.now().UTC()
	var done AddReport
	err := k.store.Update(ctx, func(tx Tx) error {
		r := reimport{k: k, tx: tx, file: file, now: now, rep: rep}
		r.rep.Items = slices.Clone(rep.Items)
		if err := r.run(ctx, project, p); err != nil {
			return err
		}
		done = r.rep
		return nil
	})
	return done, rep, err
}

// reimport is one ImportRules transaction.
type reimport struct {
	k    *KB
	tx   Tx
	file string // the rule file, as ruleFile gives it
	now  time.Time
	rep  AddReport
}

// revived is an archived lesson of the file whose rule is back in it.
type revived struct {
	old  int // index into the file's lessons
	item int // index into the report's items
}

// run reconciles the file's lessons with the prepared rules p.
func (r *reimport) run(ctx context.Context, project string, p prepared) error {
	olds, err := r.fileLessons(ctx, project)
	if err != nil {
		return err
	}
	byHash := make(map[string]int, len(olds))
	for i, l := range olds {
		byHash[l.Hash] = i
	}
	matched := make([]bool, len(olds))
	first := map[string]int{} // content hash → the item of its first rule
	dupOf := map[int]int{}    // item → the item of the same rule's first copy
	var fresh []int           // indexes into p of the new rules
	var restored []revived
	for j, nl := range p.lessons {
		item := p.idx[j]
		it := &r.rep.Items[item]
		h := LessonHash(nl.Content, nl.Trigger, nl.Project)
		if f, ok := first[h]; ok {
			// The same rule twice in the file: the second copy is a
			// duplicate of whatever the first becomes.
			it.Status, dupOf[item] = AddDuplicate, f
			continue
		}
		first[h] = item
		i, ok := byHash[h]
		if !ok {
			// Stored before the project counted in the hash.
			i, ok = byHash[ContentHash(nl.Content, nl.Trigger)]
		}
		if ok {
			matched[i] = true
			it.ID, it.Status = olds[i].ID, AddUnchanged
			if olds[i].State != StateArchived {
				continue
			}
			ok, err := r.restorable(ctx, olds[i])
			if err != nil {
				return err
			}
			if ok {
				restored = append(restored, revived{old: i, item: item})
			} else {
				it.Reason = fmt.Sprintf("archived (%s); `innate-mcp lessons restore %s` brings it back", olds[i].Conf.ArchiveReason, olds[i].ID)
			}
			continue
		}
		existing, err := sameLesson(ctx, r.tx, nl.Content, nl.Trigger, nl.Project)
		if err == nil {
			it.ID, it.Status = existing.ID, AddDuplicate
			continue
		}
		if !errors.Is(err, ErrNotFound) {
			return err
		}
		if len(nl.ContentVec) == 0 {
			return errVanished // known when prepared, not embedded, gone now
		}
		fresh = append(fresh, j)
	}

	// The lessons of the file that no rule matches were reworded or
	// removed. Those already archived left the file at an earlier import
	// or were archived for a reason of their own: they stay as they are.
	var gone []int // indexes into olds
	leaving := map[string]bool{}
	for i, l := range olds {
		if !matched[i] && l.State != StateArchived {
			gone = append(gone, i)
			leaving[l.ID] = true
		}
	}
	// The new wordings, new rules first and then restored lessons, are
	// paired with the lessons that left.
	var newTexts, oldTexts []ruleText
	for _, j := range fresh {
		newTexts = append(newTexts, ruleText{p.lessons[j].Content, p.lessons[j].Trigger})
	}
	for _, v := range restored {
		newTexts = append(newTexts, ruleText{olds[v.old].Content, olds[v.old].Trigger})
	}
	for _, i := range gone {
		oldTexts = append(oldTexts, ruleText{olds[i].Content, olds[i].Trigger})
	}
	pairs := pairRewordings(newTexts, oldTexts)
	replaced := make([]bool, len(gone))
	reword := func(n int, newID string, it *AddItem) error {
		o, ok := pairs[n]
		if !ok {
			return nil
		}
		old := olds[gone[o]]
		if err := r.supersede(ctx, old.ID, newID, "reworded in "+r.file+" on re-import"); err != nil {
			return err
		}
		it.Replaces, replaced[o] = old.ID, true
		r.rep.Changed = append(r.rep.Changed, Replacement{Old: old.ID, New: newID})
		return nil
	}

	for n, j := range fresh {
		it := &r.rep.Items[p.idx[j]]
		// A lesson leaving the file is no contradiction to resolve: the
		// file settles it here.
		opposed := slices.DeleteFunc(slices.Clone(p.opposed[j]), func(id string) bool { return leaving[id] })
		if err := r.k.insertLesson(ctx, r.tx, p.lessons[j], it, opposed, r.now, &r.rep.Superseded); err != nil {
			return fmt.Errorf("rule %d: %w", p.idx[j], err)
		}
		if it.Status != AddAdded {
			continue
		}
		if err := reword(n, it.ID, it); err != nil {
			return err
		}
		if it.Replaces != "" {
			it.Status = AddChanged
		}
	}
	for n, v := range restored {
		id := olds[v.old].ID
		if err := r.restore(ctx, id); err != nil {
			return err
		}
		it := &r.rep.Items[v.item]
		it.Status = AddRestored
		r.rep.Restored = append(r.rep.Restored, id)
		if err := reword(len(fresh)+n, id, it); err != nil {
			return err
		}
	}
	for o, i := range gone {
		if replaced[o] {
			continue
		}
		if err := r.supersede(ctx, olds[i].ID, "", "removed from "+r.file+" on re-import"); err != nil {
			return err
		}
		r.rep.Removed = append(r.rep.Removed, olds[i].ID)
	}
	for item, f := range dupOf {
		r.rep.Items[item].ID = r.rep.Items[f].ID
	}
	return nil
}

// fileLessons returns the user-stated lessons of project ("" for global
// ones) that came from the re-imported file, in any state.
func (r *reimport) fileLessons(ctx context.Context, project string) ([]Lesson, error) {
	var out []Lesson
	filter := LessonFilter{Project: project, Global: project == "", Origin: OriginUserStated}
	err := r.tx.Lessons(ctx, filter, func(l Lesson) error {
		if ruleFile(l.Source) == r.file {
			out = append(out, l)
		}
		return nil
	})
	return out, err
}

// restorable reports whether an archived lesson of the file, whose rule is
// in the file, was archived by a re-import (removed from the file or
// reworded) and so comes back with its rule. A lesson archived by hand,
// for its failures, or because it lost a contradiction stays archived:
// the file saying it again is no new evidence.
func (r *reimport) restorable(ctx context.Context, l Lesson) (bool, error) {
	if l.Conf.ArchiveReason != confidence.ArchiveSuperseded {
		return false, nil
	}
	links, err := r.tx.Links(ctx, l.ID)
	if err != nil {
		return false, err
	}
	return !lostContradiction(links, l.ID), nil
}

// lostContradiction reports whether links show lesson id superseded by a
// lesson it contradicts (see resolveContradictions).
func lostContradiction(links []Link, id string) bool {
	opposed := map[string]bool{}
	for _, k := range links {
		if k.Kind == linkContradicts {
			opposed[k.A], opposed[k.B] = true, true
		}
	}
	for _, k := range links {
		if k.Kind == linkSupersedes && k.B == id && opposed[k.A] && k.A != id {
			return true
		}
	}
	return false
}

// supersede archives lesson id as superseded by lesson by (none when
// empty), as KB.supersede does.
func (r *reimport) supersede(ctx context.Context, id, by, reason string) error {
	return r.k.supersede(ctx, r.tx, id, by, reason, r.now)
}

// restore brings back an archived lesson whose rule is in the file again.
func (r *reimport) restore(ctx context.Context, id string) error {
	l, err := r.tx.Lesson(ctx, id)
	if err != nil {
		return fmt.Errorf("lesson %s: %w", id, err)
	}
	note := "back in " + r.file + " on re-import"
	if _, err := r.k.apply(ctx, r.tx, &l, confidence.Event{Kind: confidence.KindRestored, At: r.now, Session: r.k.session, Note: note}); err != nil {
		return err
	}
	return r.tx.UpdateLesson(ctx, l)
}

// ruleFile is the rule file a lesson's source names (everything before the
// first "#"), cleaned and with forward slashes, so that "./CLAUDE.md" and
// "CLAUDE.md" are one file; "" when the source names none.
func ruleFile(source string) string {
	file, _, _ := strings.Cut(source, "#")
	if file == "" {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// ruleText is what pairRewordings compares of a rule.
type ruleText struct{ content, trigger string }

// pairRewordings pairs new rules with lessons that left the file, one to
// one: the most similar pair first (jaccard over the contents' distinct
// terms), a pair under the same
// trigger (heading path) before one across headings at equal similarity,
// and only pairs at rewordThreshold or above. It returns, for each new
// rule paired, the index of its old lesson.
func pairRewordings(news, olds []ruleText) map[int]int {
	type pair struct {
		n, o      int
		sim       float64
		sameTrigg bool
	}
	oldTerms := make([]map[string]struct{}, len(olds))
	for o, t := range olds {
		oldTerms[o] = terms.Distinct(t.content)
	}
	var cands []pair
	for n, t := range news {
		nt := terms.Distinct(t.content)
		for o := range olds {
			if sim := jaccard(nt, oldTerms[o]); sim >= rewordThreshold {
				cands = append(cands, pair{n, o, sim, normSpace(t.trigger) == normSpace(olds[o].trigger)})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b pair) int {
		if c := cmp.Compare(b.sim, a.sim); c != 0 {
			return c
		}
		if a.sameTrigg != b.sameTrigg {
			if a.sameTrigg {
				return -1
			}
			return 1
		}
		return 0
	})
	out := map[int]int{}
	taken := map[int]bool{}
	for _, c := range cands {
		if _, ok := out[c.n]; ok || taken[c.o] {
			continue
		}
		out[c.n], taken[c.o] = c.o, true
	}
	return out
}

// jaccard is the Jaccard similarity of two term sets: 0 when both are
// empty.
func jaccard(a, b map[string]struct{}) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	for t := range a {
		if _, ok := b[t]; ok {
			inter++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}
