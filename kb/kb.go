package kb

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/innate-mcp/innate-mcp/appraise"
	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/hesitation"
	"github.com/innate-mcp/innate-mcp/internal/randid"
	"github.com/innate-mcp/innate-mcp/route"
	"github.com/innate-mcp/innate-mcp/terms"
)

// Config configures a KB. Store and Embedder are required.
type Config struct {
	Store Store
	// Embedder embeds situations and lessons; every text is redacted
	// (sanitize.Redact) before it reaches it.
	Embedder Embedder
	// Weights of the fused score; DefaultWeights when nil.
	Weights *Weights
	// Hesitation configures hesitate; hesitation.DefaultConfig when nil.
	Hesitation *hesitation.Config
	// Confidence configures the lesson lifecycle; confidence.DefaultConfig
	// when nil.
	Confidence *confidence.Config
	// Session identifies the agent session (one server process); it scopes
	// per-session rules such as one confirmation per lesson per session.
	Session string
	// Logger receives diagnostics; slog.Default() when nil.
	Logger *slog.Logger
	// Now returns the current time; time.Now when nil. Tests set it.
	Now func() time.Time
	// Appraise configures the critic; appraise.DefaultConfig() when nil.
	Appraise *appraise.Config
	// Route holds the engagement router's weights; route.DefaultWeights()
	// when nil.
	Route *route.Weights
	// ReadOnly marks a store that cannot be written (a read-only database):
	// recall, appraise and hesitate answer without writing their traces,
	// and record and every other write fail with an error wrapping
	// ErrReadOnly that ends with ReadOnlyReason.
	ReadOnly bool
	// ReadOnlyReason says why the store is read-only and what to do about
	// it; a generic sentence when empty.
	ReadOnlyReason string
}

// KB is the knowledge base service: recall, record and lesson import over a
// Store and an Embedder. It is safe for concurrent use.
type KB struct {
	store      Store
	emb        Embedder
	weights    Weights
	hesitation atomic.Pointer[hesitation.Config] // replaced whole when the regulator retunes it
	conf       confidence.Config
	session    string
	log        *slog.Logger
	now        func() time.Time

	checkMu sync.Mutex
	checked bool        // the database's embedder matches
	derived atomic.Bool // the stored directives are of this parser's version

	readOnly    bool
	readOnlyWhy string

	appraiseCfg atomic.Pointer[appraise.Config] // replaced whole when the regulator retunes it
	patterns    directive.Patterns              // compiled patterns of rules' objects, for appraise
	prepared    preparedCache                   // checks with their regular expressions compiled
	routeW      atomic.Pointer[route.Weights]
	cal         calibrationCache
	phr         phrasingCache // the rules' phrasings a consultant wrote, by project
}

// New returns a KB. It does no I/O: the embedder recorded in the database
// is checked on first use, so that a server can answer the MCP handshake
// before it touches the database.
func New(cfg Config) (*KB, error) {
	if cfg.Store == nil {
		return nil, errors.New("kb: no store")
	}
	if cfg.Embedder == nil {
		return nil, errors.New("kb: no embedder")
	}
	w := DefaultWeights()
	if cfg.Weights != nil {
		w = *cfg.Weights
	}
	if err := w.Validate(); err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	h := hesitation.DefaultConfig()
	if cfg.Hesitation != nil {
		h = *cfg.Hesitation
	}
	if err := h.Validate(); err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	cc := confidence.DefaultConfig()
	if cfg.Confidence != nil {
		cc = *cfg.Confidence
	}
	if err := cc.Validate(); err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	ac := appraise.DefaultConfig()
	if cfg.Appraise != nil {
		ac = *cfg.Appraise
	}
	if err := ac.Validate(); err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	rw := route.DefaultWeights()
	if cfg.Route != nil {
		rw = *cfg.Route
	}
	if err := rw.Validate(); err != nil {
		return nil, fmt.Errorf("kb: %w", err)
	}
	k := &KB{store: cfg.Store, emb: redactingEmbedder{cfg.Embedder}, weights: w, conf: cc, session: cfg.Session, log: cfg.Logger, now: cfg.Now,
		readOnly: cfg.ReadOnly, readOnlyWhy: cfg.ReadOnlyReason}
	if k.readOnlyWhy == "" {
		k.readOnlyWhy = "the knowledge base was opened read-only"
	}
	k.hesitation.Store(&h)
	k.appraiseCfg.Store(&ac)
	k.routeW.Store(&rw)
	if k.log == nil {
		k.log = slog.Default()
	}
	if k.now == nil {
		k.now = time.Now
	}
	if k.session == "" {
		k.session = newID("s_")
	}
	return k, nil
}

// HesitationConfig returns the configuration hesitate runs with.
func (k *KB) HesitationConfig() hesitation.Config { return *k.hesitation.Load() }

// SetHesitationConfig replaces the configuration hesitate runs with (the
// regulator's retuned thresholds); an invalid configuration is refused.
func (k *KB) SetHesitationConfig(c hesitation.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	k.hesitation.Store(&c)
	return nil
}

// SetAppraiseConfig replaces appraise's configuration (the regulator's
// retuned floors); an invalid one is refused.
func (k *KB) SetAppraiseConfig(c appraise.Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	k.appraiseCfg.Store(&c)
	return nil
}

// RouteWeights returns the engagement router's weights.
func (k *KB) RouteWeights() route.Weights { return *k.routeW.Load() }

// SetRouteWeights replaces the router's weights (the regulator's retuned
// values); invalid weights are refused.
func (k *KB) SetRouteWeights(w route.Weights) error {
	if err := w.Validate(); err != nil {
		return err
	}
	k.routeW.Store(&w)
	return nil
}

// Weights returns the weights the KB scores with.
func (k *KB) Weights() Weights { return k.weights }

// Session returns the session id the KB records traces under.
func (k *KB) Session() string { return k.session }

// Embedder returns the KB's embedder, which redacts secrets from every
// text before embedding it.
func (k *KB) Embedder() Embedder { return k.emb }

// checkEmbedder verifies that the database was built with the same
// embedder, and records it on first use of a fresh database. A successful
// check is remembered; a failed one is repeated on the next call, so that a
// `reembed` run by another process takes effect without a restart.
func (k *KB) checkEmbedder(ctx context.Context) error {
	k.checkMu.Lock()
	defer k.checkMu.Unlock()
	if k.checked {
		return nil
	}
	model, dim, ok, err := k.store.EmbedderInfo(ctx)
	if err != nil {
		return fmt.Errorf("read embedder info: %w", err)
	}
	if !ok {
		if k.readOnly {
			// Nothing to compare with, and nothing may be recorded.
			k.checked = true
			return nil
		}
		if err := k.store.SetEmbedderInfo(ctx, k.emb.Name(), k.emb.Dim()); err != nil {
			return err
		}
		k.checked = true
		return nil
	}
	if model != k.emb.Name() || (k.emb.Dim() != 0 && dim != 0 && dim != k.emb.Dim()) {
		return fmt.Errorf("%w: the knowledge base was built with %s (dim %d) but the configured embedder is %s (dim %d); "+
			"run `innate-mcp reembed` to re-embed every lesson with the configured embedder, or configure %s again",
			ErrEmbedderMismatch, model, dim, k.emb.Name(), k.emb.Dim(), model)
	}
	k.checked = true
	return nil
}

// checkStore runs the checks every read and write of lessons needs first:
// the embedder the database was built with (checkEmbedder) and the parser
// version of its directives (checkDirectives, which records the current
// version on a fresh database). Both are remembered once they pass.
func (k *KB) checkStore(ctx context.Context) error {
	if err := k.checkEmbedder(ctx); err != nil {
		return err
	}
	return k.checkDirectives(ctx)
}

// directiveBatch is how many lessons' directives one transaction writes.
const directiveBatch = 500

// checkDirectives derives every lesson's directive again when the stored
// ones come from another version of the parser (or none), so that an
// improved parser applies to lessons imported before it. A successful
// check is remembered; a failed one is repeated on the next call.
func (k *KB) checkDirectives(ctx context.Context) error {
	if k.derived.Load() {
		return nil
	}
	k.checkMu.Lock()
	defer k.checkMu.Unlock()
	if k.derived.Load() {
		return nil
	}
	v, err := k.store.DirectiveVersion(ctx)
	if err != nil {
		return fmt.Errorf("read directive version: %w", err)
	}
	if v == directive.Version {
		k.derived.Store(true)
		return nil
	}
	if k.readOnly {
		k.log.Info("lesson directives are of an older parser and the knowledge base is read-only: appraise reads them as they are",
			"parser_version", directive.Version, "stored", v)
		k.derived.Store(true)
		return nil
	}
	ds := map[string]directive.Directive{}
	cs := map[string][]check.Check{}
	n := 0
	now := k.now().UTC()
	flush := func(version int) error {
		err := k.store.Update(ctx, func(tx Tx) error {
			for id, c := range cs {
				if err := tx.PutChecks(ctx, id, check.ByReader, c, now); err != nil {
					return err
				}
			}
			return tx.SetDirectives(ctx, version, ds)
		})
		clear(ds)
		clear(cs)
		return err
	}
	err = k.store.Lessons(ctx, LessonFilter{}, func(l Lesson) error {
		ds[l.ID] = directive.Parse(l.Content, l.Trigger)
		nl := NewLesson{Content: l.Content, Trigger: l.Trigger, Kind: l.Kind, Tags: l.Tags}
		nl.deriveChecks()
		cs[l.ID] = nl.Checks
		n++
		if len(ds) < directiveBatch {
			return nil
		}
		return flush(v) // the old version until every lesson is done
	})
	if err == nil {
		err = flush(directive.Version)
	}
	if err != nil {
		return fmt.Errorf("derive directives: %w", err)
	}
	if n > 0 {
		k.log.Info("lesson directives derived", "lessons", n, "parser_version", directive.Version, "previous", v)
	}
	k.derived.Store(true)
	return nil
}

// ReadOnly reports whether the knowledge base was opened read-only.
func (k *KB) ReadOnly() bool { return k.readOnly }

// errReadOnly is the error of a write refused because the knowledge base
// is read-only; what names the write.
func (k *KB) errReadOnly(what string) error {
	return fmt.Errorf("%s: %w: nothing was written: %s", what, ErrReadOnly, k.readOnlyWhy)
}

// newID returns a fresh random identifier with the given prefix: 16 hex
// digits, as trace and session ids are.
func newID(prefix string) string { return randid.New(prefix, 8) }

// distinctTerms returns the distinct lexical terms of text.
func distinctTerms(text string) map[string]struct{} { return terms.Distinct(text) }

func sortStrings(s []string) { slices.Sort(s) }
