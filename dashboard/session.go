package dashboard

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// The session: `innate-mcp ui` prints a URL carrying a random one-time
// token; its first use sets an HttpOnly, SameSite=Strict session cookie and
// redirects to the same URL without the token; a second use is refused.
// Every request needs the session; every POST also needs the CSRF token
// bound to it (a hidden form field); a request whose Host or Origin is not
// the dashboard's own is refused (DNS rebinding).

// cookieName is the session cookie's name.
const cookieName = "innate_session"

// sessions holds the one-time login token and the live sessions, each
// with its CSRF token. Safe for concurrent use.
type sessions struct {
	mu    sync.Mutex
	login string            // the one-time token
	used  bool              // whether login was exchanged already
	live  map[string]string // session id → CSRF token
}

// newSessions makes a random one-time login token.
func newSessions() (*sessions, error) {
	tok, err := randomToken()
	if err != nil {
		return nil, err
	}
	return &sessions{login: tok, live: map[string]string{}}, nil
}

// randomToken is 32 bytes of crypto/rand in hex.
func randomToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("make a random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// redeem exchanges the one-time token for a new session id; false when the
// token is wrong or was used already.
func (s *sessions) redeem(token string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.used || subtle.ConstantTimeCompare([]byte(token), []byte(s.login)) != 1 {
		return "", false, nil
	}
	id, err := randomToken()
	if err != nil {
		return "", false, err
	}
	csrf, err := randomToken()
	if err != nil {
		return "", false, err
	}
	s.used = true
	s.live[id] = csrf
	return id, true, nil
}

// csrfOf returns the CSRF token of the request's session; false when the
// request has no live session.
func (s *sessions) csrfOf(r *http.Request) (string, bool) {
	c, err := r.Cookie(cookieName)
	if err != nil || c.Value == "" {
		return "", false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	csrf, ok := s.live[c.Value]
	return csrf, ok
}

// guard wraps the dashboard's handler with the session's rules: the
// Host and Origin checks, the one-time token's exchange, the session, and
// the CSRF token of every POST.
func (srv *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setSecurityHeaders(w)
		if !srv.allowedHost(r.Host) {
			srv.refuse(w, r, http.StatusForbidden, "This request names the host "+r.Host+", not the dashboard's; it is refused (DNS rebinding). Open the URL innate-mcp ui printed.")
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !srv.allowedOrigin(o) {
			srv.refuse(w, r, http.StatusForbidden, "This request comes from the page of another origin ("+o+"); it is refused.")
			return
		}
		if tok := r.URL.Query().Get("token"); tok != "" {
			srv.login(w, r, tok)
			return
		}
		csrf, ok := srv.sessions.csrfOf(r)
		if !ok {
			srv.refuse(w, r, http.StatusUnauthorized, "No session: open the URL innate-mcp ui printed (its token works once; run innate-mcp ui again for a new one).")
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			r.Body = http.MaxBytesReader(w, r.Body, maxFormBytes)
			if err := r.ParseForm(); err != nil {
				srv.refuse(w, r, http.StatusBadRequest, "The form could not be read: "+err.Error())
				return
			}
			if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("csrf")), []byte(csrf)) != 1 {
				srv.refuse(w, r, http.StatusForbidden, "The form's CSRF token is missing or not this session's: reload the page and try again.")
				return
			}
		}
		next.ServeHTTP(w, withCSRF(r, csrf))
	})
}

// maxFormBytes limits a POSTed form (an edited lesson is at most 64 KiB).
const maxFormBytes = 256 << 10

// login exchanges the one-time token for a session cookie and redirects to
// the URL without the token; a used or wrong token is refused, unless the
// request already holds a valid session (the printed link opened again).
func (srv *Server) login(w http.ResponseWriter, r *http.Request, tok string) {
	if r.Method != http.MethodGet {
		srv.refuse(w, r, http.StatusMethodNotAllowed, "The token is exchanged by a GET of the printed URL.")
		return
	}
	id, ok, err := srv.sessions.redeem(tok)
	if err != nil {
		srv.refuse(w, r, http.StatusInternalServerError, err.Error())
		return
	}
	if !ok {
		if _, live := srv.sessions.csrfOf(r); !live {
			srv.refuse(w, r, http.StatusForbidden, "This token was used already or is wrong: each URL innate-mcp ui prints works once. Run innate-mcp ui again for a new one.")
			return
		}
		// The printed link opened again in the browser that redeemed it:
		// its session is valid, so the page is shown.
	} else {
		http.SetCookie(w, &http.Cookie{Name: cookieName, Value: id, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	u := *r.URL
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	u.Scheme, u.Host = "", ""
	http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
}

// allowedHost reports whether a Host header names the dashboard: its
// address, or for a loopback address also localhost and 127.0.0.1 with its
// port.
func (srv *Server) allowedHost(host string) bool {
	return srv.hosts[strings.ToLower(host)]
}

// allowedOrigin reports whether an Origin header is the dashboard's own.
func (srv *Server) allowedOrigin(origin string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && u.Path == "" && srv.allowedHost(u.Host)
}

// hostsFor lists the Host values that name a dashboard listening on addr.
func hostsFor(addr string) (map[string]bool, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("dashboard address %q: %w (give host:port)", addr, err)
	}
	hosts := map[string]bool{strings.ToLower(net.JoinHostPort(host, port)): true}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			hosts[net.JoinHostPort(h, port)] = true
		}
	}
	return hosts, nil
}

// setSecurityHeaders forbids framing, inline scripts, other origins
// resources, caching, and referrers to other origins.
func setSecurityHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; connect-src 'self'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin") // "no-referrer" would make a form POST carry Origin: null
	h.Set("Cache-Control", "no-store")
}
