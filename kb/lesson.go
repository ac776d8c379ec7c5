package kb

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/innate-mcp/innate-mcp/internal/clip"

	"github.com/innate-mcp/innate-mcp/check"
	"github.com/innate-mcp/innate-mcp/confidence"
	"github.com/innate-mcp/innate-mcp/directive"
	"github.com/innate-mcp/innate-mcp/terms"
)

// Origin says where a lesson came from; it weighs as evidence. It is
// confidence.Origin, the one definition the packages share, named here so
// that callers of kb need not import confidence.
type Origin = confidence.Origin

// The origins of a lesson (see confidence.Origin).
const (
	OriginUserStated    = confidence.OriginUserStated    // the user said it; active at once
	OriginAgentInferred = confidence.OriginAgentInferred // the agent concluded it; pending until confirmed
	OriginImported      = confidence.OriginImported      // from a rule file or JSONL import
)

// State is a lesson's lifecycle state.
type State string

// The lifecycle states of a lesson.
const (
	StatePending  State = "pending"  // recalled at most once per call, marked, penalised
	StateActive   State = "active"   // recalled normally
	StateArchived State = "archived" // kept, never recalled; restorable
)

// Valid reports whether s is a known state.
func (s State) Valid() bool {
	switch s {
	case StatePending, StateActive, StateArchived:
		return true
	}
	return false
}

// Kind says whether a lesson is a rule to follow or a caution learned from a
// failure or a correction; cautions give appraise its caution valence.
type Kind string

// The kinds of a lesson.
const (
	KindRule    Kind = "rule"
	KindCaution Kind = "caution"
)

// Counters are a lesson's evidence: how often it was returned, used, and with
// what outcome, and what people said of it.
type Counters struct {
	Recalls   int `json:"recalls"`   // times a recall returned it
	Uses      int `json:"uses"`      // times an agent reported using it
	Successes int `json:"successes"` // uses followed by a successful outcome
	Failures  int `json:"failures"`  // uses followed by a failed outcome
	Approvals int `json:"approvals"` // feedback up
	Rejects   int `json:"rejects"`   // feedback down
	Observed  int `json:"observed"`  // times the same lesson was stated again
}

// Lesson is one piece of knowledge the agent may load before it acts.
type Lesson struct {
	ID          string          `json:"id"`
	Content     string          `json:"content"`
	Trigger     string          `json:"trigger,omitempty"`
	AntiTrigger string          `json:"anti_trigger,omitempty"`
	Tags        []string        `json:"tags,omitempty"`
	Project     string          `json:"project,omitempty"`
	Origin      Origin          `json:"origin"`
	Kind        Kind            `json:"kind"`
	State       State           `json:"state"`
	Confidence  float64         `json:"confidence"`
	Tier        confidence.Tier `json:"tier"`
	Counters    Counters        `json:"counters"`
	Source      string          `json:"source,omitempty"`
	CreatedAt   time.Time       `json:"created_at"`
	UpdatedAt   time.Time       `json:"updated_at"`
	LastUsedAt  *time.Time      `json:"last_used_at,omitempty"`
	Hash        string          `json:"content_hash"`
	// Conf is the lesson's confidence state (package confidence): the
	// evidence and timestamps its Confidence, Tier and State derive from.
	Conf confidence.State `json:"confidence_state"`
	// ConfRaw is the stored confidence state when a store defers decoding
	// it (search candidates, most of which are never returned): Conf is
	// then zero until decodeConf runs. Confidence, Tier and State are
	// always set.
	ConfRaw []byte `json:"-"`
	// Directive is what the lesson requires, forbids and prefers (package
	// directive), derived from its content and trigger; nil until derived.
	Directive *directive.Directive `json:"directive,omitempty"`
}

// decodeConf decodes a deferred confidence state.
func (l *Lesson) decodeConf() error {
	if len(l.ConfRaw) == 0 {
		return nil
	}
	raw := l.ConfRaw
	l.ConfRaw = nil
	if err := json.Unmarshal(raw, &l.Conf); err != nil {
		return fmt.Errorf("lesson %s: bad confidence state: %w", l.ID, err)
	}
	return nil
}

// NewLesson is a lesson to add, before it has an identity in the store.
type NewLesson struct {
	ID          string // optional; kept on import when free, generated otherwise
	Content     string
	Trigger     string
	AntiTrigger string
	Tags        []string
	Project     string
	Origin      Origin
	Kind        Kind
	Source      string
	// State and Confidence are derived from Origin by the KB when zero.
	State      State
	Confidence float64
	// Conf is kept on a lossless import; a new lesson gets a fresh state.
	Conf *confidence.State
	// Counters and times are kept on a lossless import of an export; zero
	// for a new lesson (the times then default to now).
	Counters   Counters
	CreatedAt  time.Time
	UpdatedAt  time.Time
	LastUsedAt *time.Time
	// Directive is derived by the KB from Content and Trigger, and so are
	// Checks (the built-in reader's, which InsertLesson stores).
	Directive *directive.Directive
	Checks    []check.Check
	// Restore are the checks an export held for the lesson: a person's and
	// a consultant's are stored again, and every check the lesson has
	// again keeps its state and record (a lossless import).
	Restore []StoredCheck
	// Compile is what a consultant said of the rule, as an export held it;
	// RestoreCompiles stores it again after the import.
	Compile *Compile
	// Vectors are filled by the KB before the lesson reaches the store.
	ContentVec []float32
	TriggerVec []float32 // nil when the lesson has no trigger
}

// Size limits on text the KB accepts; larger input is refused with an
// InputError rather than truncated silently.
const (
	MaxContentBytes = 64 << 10 // a lesson's content
	MaxTriggerBytes = 4 << 10  // a trigger or anti-trigger
	MaxQueryBytes   = 16 << 10 // a recall query or candidate
	MaxErrorBytes   = 32 << 10 // an error message in a situation
	MaxTags         = 32
)

// LessonHash is the identity a lesson is stored under: ContentHash of its
// content and trigger, and for a project's lesson its project too, so
// that two projects with the same rule line each keep their own lesson
// (and its checks). Lessons stored before the project counted keep the
// hash they had; Same and sameLesson read both.
func LessonHash(content, trigger, project string) string {
	if project == "" {
		return ContentHash(content, trigger)
	}
	return ContentHash(content, trigger+"\x00"+project)
}

// Same reports whether the stored lesson l says what a new lesson of
// project would: its hash is the new one's, or, for a lesson stored before
// the project counted, its text's alone.
func (l Lesson) Same(content, trigger, project string) bool {
	return l.Hash == LessonHash(content, trigger, project) || l.Project == project && l.Hash == ContentHash(content, trigger)
}

// ContentHash is the dedup key of a lesson's text: SHA-256 over its
// whitespace- and case-normalised content and trigger.
func ContentHash(content, trigger string) string {
	h := sha256.New()
	h.Write([]byte(normSpace(strings.ToLower(content))))
	h.Write([]byte{0})
	h.Write([]byte(normSpace(strings.ToLower(trigger))))
	return hex.EncodeToString(h.Sum(nil))
}

// ShapeHash is the near-duplicate key of a lesson: its ContentHash with
// every number in the content and the trigger masked (terms.MaskNumbers), so
// that "Concurrent lesson number 1: keep handlers small." and "… number 2:
// …" share it while "utf8" and "utf16" do not. See Record for what a lesson
// with the shape of one already held does.
func ShapeHash(content, trigger string) string {
	return ContentHash(terms.MaskNumbers(content), terms.MaskNumbers(trigger))
}

// normSpace collapses runs of white space into one space and trims the ends.
func normSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// validate checks a new lesson's fields and normalises them in place.
func (nl *NewLesson) validate() error {
	nl.Content = strings.TrimSpace(nl.Content)
	nl.Trigger = strings.TrimSpace(nl.Trigger)
	nl.AntiTrigger = strings.TrimSpace(nl.AntiTrigger)
	switch {
	case nl.Content == "":
		return inputErrorf("lesson.content", "is empty: give the lesson text")
	case len(nl.Content) > MaxContentBytes:
		return inputErrorf("lesson.content", "is %d bytes; the limit is %d: split it into smaller lessons", len(nl.Content), MaxContentBytes)
	case len(nl.Trigger) > MaxTriggerBytes:
		return inputErrorf("lesson.trigger", "is %d bytes; the limit is %d: describe the situation briefly", len(nl.Trigger), MaxTriggerBytes)
	case len(nl.AntiTrigger) > MaxTriggerBytes:
		return inputErrorf("lesson.anti_trigger", "is %d bytes; the limit is %d", len(nl.AntiTrigger), MaxTriggerBytes)
	case len(nl.Tags) > MaxTags:
		return inputErrorf("lesson.tags", "has %d tags; the limit is %d", len(nl.Tags), MaxTags)
	case !utf8.ValidString(nl.Content) || !utf8.ValidString(nl.Trigger) || !utf8.ValidString(nl.AntiTrigger):
		return inputErrorf("lesson", "is not valid UTF-8")
	}
	// A NUL byte is refused rather than stripped: it is no part of a
	// lesson's text, and silently editing what the caller stated would
	// store something other than what it asked for.
	for _, f := range []struct{ name, v string }{{"lesson.content", nl.Content}, {"lesson.trigger", nl.Trigger},
		{"lesson.anti_trigger", nl.AntiTrigger}, {"lesson.tags", strings.Join(nl.Tags, "")}} {
		if strings.IndexByte(f.v, 0) >= 0 {
			return inputErrorf(f.name, "holds a NUL byte (\\x00): remove it; a lesson is plain text")
		}
	}
	if nl.Origin == "" {
		nl.Origin = OriginAgentInferred
	}
	if !nl.Origin.Valid() {
		return inputErrorf("lesson.origin", "is %q; use user_stated or agent_inferred", nl.Origin)
	}
	if nl.Kind == "" {
		nl.Kind = KindRule
	}
	if nl.Kind != KindRule && nl.Kind != KindCaution {
		return inputErrorf("lesson.kind", "is %q; use rule or caution", nl.Kind)
	}
	if nl.ID != "" && !validID(nl.ID) {
		return inputErrorf("lesson.id", "%q is not a valid id: use 1-64 letters, digits, '-', '_' or '.'", nl.ID)
	}
	tags := nl.Tags[:0:0]
	for _, t := range nl.Tags {
		if t = strings.TrimSpace(t); t != "" && len(t) <= 64 {
			tags = append(tags, t)
		}
	}
	nl.Tags = tags
	if nl.State == "" {
		nl.State = initialState(nl.Origin)
	}
	if !nl.State.Valid() {
		return inputErrorf("lesson.state", "is %q; use pending, active or archived", nl.State)
	}
	if nl.Confidence < 0 || nl.Confidence > 1 || nl.Confidence != nl.Confidence {
		return inputErrorf("lesson.confidence", "is %v; want a value in [0, 1]", nl.Confidence)
	}
	if nl.Confidence == 0 {
		nl.Confidence = initialConfidence(nl.Origin)
	}
	return nil
}

// validID reports whether id is usable as a lesson id.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
		default:
			return false
		}
	}
	return true
}

// initialState is where a lesson of the given origin starts.
func initialState(o Origin) State {
	if o == OriginAgentInferred {
		return StatePending
	}
	return StateActive
}

// initialConfidence is the prior confidence of a lesson of the given origin:
// what the user said outweighs an import, which outweighs an agent's guess.
func initialConfidence(o Origin) float64 {
	switch o {
	case OriginUserStated:
		return 0.7
	case OriginImported:
		return 0.6
	default:
		return 0.4
	}
}

// String gives a short description of a lesson for logs.
func (l Lesson) String() string {
	return fmt.Sprintf("%s(%s %s %.2f): %s", l.ID, l.State, l.Origin, l.Confidence, clip.Line(l.Content, 60))
}
