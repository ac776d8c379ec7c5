package dashboard

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/kb"
)

// checkView is one check of a lesson as its page shows it.
type checkView struct {
	ID, Says, By, State string
	Kind                check.Kind
	Approved, Asks      bool
	Fired, Overridden   int
	LastFired           string
}

// lessonChecks reads a lesson's checks for its page.
func (srv *Server) lessonChecks(r *http.Request, id string) ([]checkView, error) {
	cs, err := srv.cfg.KB.Checks(r.Context(), kb.CheckFilter{Lesson: id})
	if err != nil {
		return nil, fmt.Errorf("read the checks of %s: %w", id, err)
	}
	var out []checkView
	for _, c := range cs {
		v := checkView{ID: c.ID, Says: check.Describe(c.Check), By: string(c.Check.From.By), State: string(c.State), Kind: c.Check.Kind,
			Approved: c.Approved, Asks: c.Asks(), Fired: c.Fired, Overridden: c.Overridden}
		if c.Check.From.Version > 0 {
			v.By += fmt.Sprintf(" v%d", c.Check.From.Version)
		}
		if c.LastFired != nil {
			v.LastFired = c.LastFired.Format("2006-01-02 15:04")
		}
		out = append(out, v)
	}
	return out, nil
}

// checkState sets a check's state as a person decides (approve, remind,
// disable), as `innate-mcp rules` does.
func (srv *Server) checkState(w http.ResponseWriter, r *http.Request) {
	id, cid := r.PathValue("id"), r.PathValue("check")
	state, ok := map[string]kb.CheckState{"approve": kb.CheckActive, "remind": kb.CheckRemind, "disable": kb.CheckDisabled}[r.PostForm.Get("state")]
	if !ok {
		srv.fail(w, r, fmt.Errorf("%w: state must be approve, remind or disable", kb.ErrInput))
		return
	}
	if _, err := srv.cfg.KB.SetCheckState(r.Context(), cid, state); err != nil {
		srv.fail(w, r, err)
		return
	}
	srv.done(w, r, "/lessons/"+pathEscape(id), fmt.Sprintf("check %s: %s", cid, state))
}

// checkAdd adds a person's check to a lesson (kb.AddCheck): a person's
// checks of a lesson replace the reader's.
func (srv *Server) checkAdd(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	f := r.PostForm
	target := strings.TrimSpace(f.Get("target"))
	var c check.Check
	switch f.Get("what") {
	case "forbid-command":
		p, err := check.ParseCommand(target)
		if err != nil {
			srv.fail(w, r, fmt.Errorf("%w: %v", kb.ErrInput, err))
			return
		}
		c = check.Check{Kind: check.Forbid, Command: p}
	case "forbid-write":
		c = check.Check{Kind: check.Forbid, Write: &check.WritePattern{Paths: []string{target}}}
	case "require-before":
		b, err := check.ParseCommand(target)
		if err == nil {
			var t *check.CommandPattern
			if t, err = check.ParseCommand(f.Get("then")); err == nil {
				c = check.Check{Kind: check.RequireBefore, Command: t, Before: b}
			}
		}
		if err != nil {
			srv.fail(w, r, fmt.Errorf("%w: %v", kb.ErrInput, err))
			return
		}
	case "message-must":
		c = check.Check{Kind: check.Require, Message: &check.MessagePattern{Must: target, Name: strings.TrimSpace(f.Get("name"))}}
	default:
		srv.fail(w, r, fmt.Errorf("%w: choose what the check does", kb.ErrInput))
		return
	}
	if in := strings.TrimSpace(f.Get("instead")); in != "" && c.Kind == check.Forbid {
		c.Kind, c.Instead = check.PreferInstead, in
	}
	c.From = check.Provenance{By: check.ByPerson, Note: "dashboard"}
	sc, err := srv.cfg.KB.AddCheck(r.Context(), id, c)
	if err != nil {
		srv.fail(w, r, err)
		return
	}
	srv.done(w, r, "/lessons/"+pathEscape(id), "added check "+sc.ID+": "+check.Describe(sc.Check))
}
