package mcpserver

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/innate-mcp/innate-mcp/rulesync"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// ProjectResolver finds the current project for a call that names none:
// the client's first MCP root when it offers roots, else the project root
// of the server's working directory (ProjectRoot), else none (global). A
// working directory that is neither in a git repository nor holds rule
// files is never used: some clients start servers in the home directory,
// which would let every project bleed into one.
type ProjectResolver struct {
	server *server.MCPServer

	mu         sync.Mutex
	roots      string
	rootsKnown bool

	gitOnce sync.Once
	cwd     string
	gitRoot string

	// onProject is told of each recall's, appraise's and hesitate's
	// project (OnProject).
	onProject func(ctx context.Context, project string)
}

// OnProject sets fn to be called before each recall, appraise and
// hesitate runs, with the call's project (the one it names, else the one
// resolved; "" when global): the server's sync of rule files (package
// rulesync) runs there, so that the first call naming a project finds its
// rules. fn must not fail the call: it logs what goes wrong and returns.
// Call it before the server serves.
func (p *ProjectResolver) OnProject(fn func(ctx context.Context, project string)) {
	p.onProject = fn
}

// seen tells onProject of a call's project.
func (p *ProjectResolver) seen(ctx context.Context, project string) {
	if p.onProject != nil {
		p.onProject(ctx, project)
	}
}

// NewProjectResolver returns the resolver for a server whose working
// directory is cwd ("" for none).
func NewProjectResolver(cwd string) *ProjectResolver {
	return &ProjectResolver{cwd: cwd}
}

// resolve returns the current project; it is safe for concurrent use.
func (p *ProjectResolver) resolve(ctx context.Context) string {
	if r := p.fromRoots(ctx); r != "" {
		return r
	}
	p.gitOnce.Do(func() { p.gitRoot = ProjectRoot(p.cwd) })
	return p.gitRoot
}

// forgetRoots drops the cached roots after the client says they changed.
func (p *ProjectResolver) forgetRoots() {
	p.mu.Lock()
	p.rootsKnown = false
	p.mu.Unlock()
}

// fromRoots asks the client for its roots once (and again after a change
// notification) and returns the first file root's path.
func (p *ProjectResolver) fromRoots(ctx context.Context) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.rootsKnown {
		return p.roots
	}
	p.rootsKnown = true
	p.roots = ""
	if p.server == nil || !clientHasRoots(ctx) {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	res, err := p.server.RequestRoots(ctx, mcp.ListRootsRequest{})
	if err != nil || res == nil {
		return ""
	}
	for _, r := range res.Roots {
		u, err := url.Parse(r.URI)
		if err == nil && u.Scheme == "file" && u.Path != "" {
			p.roots = filepath.Clean(filepath.FromSlash(u.Path))
			break
		}
	}
	return p.roots
}

// clientHasRoots reports whether the calling client declared the roots
// capability.
func clientHasRoots(ctx context.Context) bool {
	s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo)
	return ok && s.GetClientCapabilities().Roots != nil
}

// ProjectRoot is the project a directory belongs to: the root of its git
// repository, else the directory itself when it holds rule files at its
// root (a project that is not a git repository), else "" (none).
func ProjectRoot(dir string) string {
	if r := GitRoot(dir); r != "" {
		return r
	}
	if rulesync.HoldsRules(dir) {
		return filepath.Clean(dir)
	}
	return ""
}

// GitRoot returns the nearest ancestor of dir (or dir itself) holding a
// .git entry, or "" when there is none.
func GitRoot(dir string) string {
	if dir == "" {
		return ""
	}
	dir = filepath.Clean(dir)
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
