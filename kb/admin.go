package kb

import (
	"context"
	"time"

	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/regulate"
)

// Admin is a store as the program around the knowledge base uses it: Store,
// plus the settings, the statistics, the regulator's parameters and logs,
// and the operator's reads and removals that the knowledge base itself does
// not need. storage.DB implements it; a command, a hook or a dashboard
// takes an Admin rather than a concrete store. Implementations must be safe
// for concurrent use.
type Admin interface {
	Store
	MetaStore
	StatsReader
	RegulatorStore
	DashboardReader

	// ReadOnly reports whether the store was opened read-only.
	ReadOnly() bool
	// WarmUp builds what the first search needs (the vector index) ahead of
	// it; a server calls it in the background after the handshake.
	WarmUp(ctx context.Context) error
	// History returns a lesson's confidence changes, oldest first.
	History(ctx context.Context, lessonID string) ([]confidence.Change, error)
	// Links returns the links that involve a lesson, oldest first.
	Links(ctx context.Context, id string) ([]Link, error)
	// DeletePattern removes a learned error pattern by id.
	DeletePattern(ctx context.Context, id string) error
	// VerdictFooting returns the footing the verdict log holds for the
	// verdict of an appraise trace; ErrNotFound when there is none.
	VerdictFooting(ctx context.Context, traceID string) (VerdictFooting, error)

	// CreateToken stores a team-server token by the hash of its secret
	// (the secret itself is never stored); ErrExists when its name is
	// taken.
	CreateToken(ctx context.Context, t Token, hash string) error
	// Tokens returns every token, revoked ones included, oldest first.
	Tokens(ctx context.Context) ([]Token, error)
	// TokenByHash returns the token whose secret hashes to hash, revoked
	// or not; ErrNotFound when there is none.
	TokenByHash(ctx context.Context, hash string) (Token, error)
	// RevokeToken marks the token of that name or id revoked at a time;
	// ErrNotFound when there is none.
	RevokeToken(ctx context.Context, nameOrID string, at time.Time) error
}

// Token is a team-server bearer token as stored: never its secret.
type Token struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Scope string `json:"scope"`
	// Projects limits the token to these projects; empty: every project.
	Projects  []string   `json:"projects,omitempty"`
	CreatedAt time.Time  `json:"created_at"`
	RevokedAt *time.Time `json:"revoked_at,omitempty"`
}

// RegulatorStore is the part of a store the regulator (package tuning)
// reads its metrics from and writes its changes to.
type RegulatorStore interface {
	// Params returns the tuned parameter values (only those the regulator
	// has set; defaults come from regulate's registry).
	Params(ctx context.Context) (map[string]float64, error)
	// RegulatorHistory returns the regulator's log, oldest first.
	RegulatorHistory(ctx context.Context) ([]regulate.Change, error)
	// Regulate runs plan on the tuned parameters and the history in one
	// write transaction, and stores and logs the changes it returns.
	Regulate(ctx context.Context, plan func(params map[string]float64, history []regulate.Change) regulate.Result) (regulate.Result, error)
	// HesitationMetrics reads the hesitation log since a time as metrics.
	HesitationMetrics(ctx context.Context, since time.Time) (regulate.HesitationMetrics, error)
	// RoutingMetrics reads the routing log since a time as metrics.
	RoutingMetrics(ctx context.Context, since time.Time) (regulate.RoutingMetrics, error)
	// AppraiseMetrics reads the verdict log since a time as metrics.
	AppraiseMetrics(ctx context.Context, since time.Time) (regulate.AppraiseMetrics, error)
}

// VerdictFooting is what the verdict log keeps of a verdict's footing
// beyond the AppraiseResult: the support and evidence it rested on, how far
// its lessons agreed, and how strongly and how many resonated. Plain data.
type VerdictFooting struct {
	Support      float64
	Evidence     float64
	Agreement    float64
	TopResonance float64
	Resonating   int
}
