// Package dashboard is the local web dashboard of `innate-mcp ui`: six
// server-rendered pages over a knowledge base (overview, lessons, one
// lesson, calibration, review, routing) and a person's actions on it
// (approve, reject, edit, archive and restore a lesson; confirm or reject a
// held draft; revert a regulator change), each recorded as the command
// line would record it. Pages are html/template with embedded assets and
// inline SVG charts; there is no build step and a little plain JavaScript.
//
// Security: the dashboard binds loopback unless told otherwise; a random
// one-time token in the printed URL sets a session cookie (HttpOnly,
// SameSite=Strict); every POST needs the session's CSRF token; a request
// whose Host or Origin is not the dashboard's own is refused (see
// session.go).
package dashboard

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/innate-mcp/innate-mcp/hook"
	"github.com/innate-mcp/innate-mcp/kb"
	"github.com/innate-mcp/innate-mcp/regulate"
	"github.com/innate-mcp/innate-mcp/tuning"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed assets
var assetFS embed.FS

// Config is what a dashboard serves.
type Config struct {
	// Store is the knowledge base's store; KB the knowledge base over it.
	Store kb.Admin
	KB    *kb.KB
	// Addr is the address the dashboard listens on (host:port, the port
	// resolved): requests must name it as their Host.
	Addr string
	// Where names the store in the page footer (a file, or a PostgreSQL
	// URL without its password).
	Where string
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Log receives errors; slog.Default() when nil.
	Log *slog.Logger
	// HookSessions returns the hooks' kept session states, for the context
	// they added (stats.HookContext); nil shows none.
	HookSessions func() []hook.SessionState
}

// Server is a dashboard: its pages, actions and session. Safe for
// concurrent use.
type Server struct {
	cfg      Config
	act      kb.DashboardReader // the store's reads for the dashboard
	reg      *tuning.Regulator
	registry *regulate.Registry
	pages    map[string]*template.Template
	sessions *sessions
	hosts    map[string]bool
	handler  http.Handler
	census   *census
}

// New returns a dashboard over cfg's store, with a fresh one-time login
// token (LoginURL).
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || cfg.KB == nil {
		return nil, errors.New("dashboard: no store or knowledge base")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	hosts, err := hostsFor(cfg.Addr)
	if err != nil {
		return nil, err
	}
	ss, err := newSessions()
	if err != nil {
		return nil, err
	}
	reg, err := tuning.New()
	if err != nil {
		return nil, fmt.Errorf("dashboard: regulator: %w", err)
	}
	registry, err := regulate.DefaultRegistry()
	if err != nil {
		return nil, fmt.Errorf("dashboard: parameters: %w", err)
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	srv := &Server{cfg: cfg, reg: reg, registry: registry, pages: pages, sessions: ss, hosts: hosts}
	srv.act = cfg.Store
	srv.census = &census{now: cfg.Now, read: func(ctx context.Context, fn func(kb.Lesson) error) error {
		return cfg.Store.Lessons(ctx, kb.LessonFilter{}, fn)
	}}
	srv.handler = srv.guard(srv.routes())
	return srv, nil
}

// Warm reads the lesson snapshot the overview and the lessons table share
// (see census), so that the first page does not wait for it.
func (srv *Server) Warm(ctx context.Context) error {
	_, _, err := srv.census.snapshot(ctx)
	return err
}

// LoginURL is the URL to print: the dashboard's address with the one-time
// token. It works once: later uses are refused.
func (srv *Server) LoginURL() string {
	srv.sessions.mu.Lock()
	defer srv.sessions.mu.Unlock()
	return "http://" + srv.cfg.Addr + "/?token=" + url.QueryEscape(srv.sessions.login)
}

// ServeHTTP serves the dashboard.
func (srv *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { srv.handler.ServeHTTP(w, r) }

// routes is the dashboard's mux, behind guard.
func (srv *Server) routes() http.Handler {
	mux := http.NewServeMux()
	assets, _ := fs.Sub(assetFS, "assets")
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(assets)))
	mux.HandleFunc("GET /{$}", srv.overview)
	mux.HandleFunc("GET /lessons", srv.lessons)
	mux.HandleFunc("GET /lessons/{id}", srv.lesson)
	mux.HandleFunc("POST /lessons/{id}/action", srv.lessonAction)
	mux.HandleFunc("POST /lessons/{id}/edit", srv.lessonEdit)
	mux.HandleFunc("POST /lessons/{id}/checks", srv.checkAdd)
	mux.HandleFunc("POST /lessons/{id}/checks/{check}", srv.checkState)
	mux.HandleFunc("GET /calibration", srv.calibration)
	mux.HandleFunc("GET /review", srv.review)
	mux.HandleFunc("POST /review/{trace}", srv.reviewAction)
	mux.HandleFunc("GET /routing", srv.routing)
	mux.HandleFunc("POST /routing/revert", srv.revert)
	return mux
}

// page is what every template gets: the page's own data and the layout's.
type page struct {
	Title string
	Nav   string // the current page's nav entry
	CSRF  string
	Where string
	Note  string // the outcome of the last action (?note=)
	Data  any
}

type csrfKey struct{}

// withCSRF carries the session's CSRF token to the handlers.
func withCSRF(r *http.Request, csrf string) *http.Request {
	return r.WithContext(context.WithValue(r.Context(), csrfKey{}, csrf))
}

// render writes a page with the layout.
func (srv *Server) render(w http.ResponseWriter, r *http.Request, status int, name, title string, data any) {
	t := srv.pages[name]
	csrf, _ := r.Context().Value(csrfKey{}).(string)
	p := page{Title: title, Nav: name, CSRF: csrf, Where: srv.cfg.Where, Note: r.URL.Query().Get("note"), Data: data}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := t.ExecuteTemplate(w, "layout", p); err != nil {
		srv.cfg.Log.Error("dashboard: render", "page", name, "err", err)
	}
}

// refuse answers a request the dashboard will not serve, saying why.
func (srv *Server) refuse(w http.ResponseWriter, r *http.Request, status int, msg string) {
	srv.render(w, r, status, "error", http.StatusText(status), msg)
}

// fail answers a failed read or action: an input error or a missing lesson
// with its message, anything else as an internal error (logged).
func (srv *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	switch {
	case errors.Is(err, kb.ErrInput), errors.Is(err, tuning.ErrNotRevertible):
		srv.refuse(w, r, http.StatusBadRequest, err.Error())
	case errors.Is(err, kb.ErrNotFound):
		srv.refuse(w, r, http.StatusNotFound, err.Error())
	case errors.Is(err, kb.ErrReadOnly):
		srv.refuse(w, r, http.StatusConflict, err.Error())
	default:
		srv.cfg.Log.Error("dashboard", "path", r.URL.Path, "err", err)
		srv.refuse(w, r, http.StatusInternalServerError, err.Error())
	}
}

// done redirects after an action to path with a note of what it did.
// Every action may change lessons: the census is read again before the
// next page (see census).
func (srv *Server) done(w http.ResponseWriter, r *http.Request, path, note string) {
	srv.census.invalidate()
	http.Redirect(w, r, path+"?note="+url.QueryEscape(note), http.StatusSeeOther)
}

// parsePages parses each page's template with the layout.
func parsePages() (map[string]*template.Template, error) {
	out := map[string]*template.Template{}
	for _, name := range []string{"overview", "lessons", "lesson", "calibration", "review", "routing", "error"} {
		t, err := template.New(name).Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+name+".html")
		if err != nil {
			return nil, fmt.Errorf("dashboard: template %s: %w", name, err)
		}
		out[name] = t
	}
	return out, nil
}
