package confidence

import (
	"slices"
	"time"
)

// MayConfirm reports whether session may give a lesson positive evidence of
// kind k, given the lesson's recent confirmations ([State.Recent]): only
// kinds that [Kind.Confirms] are limited, an empty session may never
// confirm, and each session confirms a lesson at most once per kind. Safe
// for concurrent use.
func MayConfirm(recent []Confirmation, session string, k Kind) bool {
	if !k.Confirms() {
		return true
	}
	if session == "" {
		return false
	}
	for _, c := range recent {
		if c.Session == session && slices.Contains(c.Kinds, k) {
			return false
		}
	}
	return true
}

// markConfirmed returns recent with (session, k) added, moved to the end as
// the newest, and the oldest sessions dropped beyond limit. recent must be
// owned by the caller.
func markConfirmed(recent []Confirmation, session string, k Kind, limit int) []Confirmation {
	i := slices.IndexFunc(recent, func(c Confirmation) bool { return c.Session == session })
	var c Confirmation
	if i >= 0 {
		c = recent[i]
		recent = slices.Delete(recent, i, i+1)
	} else {
		c = Confirmation{Session: session}
	}
	if !slices.Contains(c.Kinds, k) {
		c.Kinds = append(c.Kinds, k)
	}
	recent = append(recent, c)
	if limit > 0 && len(recent) > limit {
		recent = slices.Delete(recent, 0, len(recent)-limit)
	}
	return recent
}

// Result is the outcome of the task a record reports. Values are plain
// data, safe for concurrent use.
type Result string

// The results.
const (
	ResultSuccess Result = "success"
	ResultFailure Result = "failure"
	ResultNeutral Result = "neutral"
)

// Feedback is what the user did with the result, when the record says.
// Values are plain data, safe for concurrent use.
type Feedback string

// The feedback values.
const (
	FeedbackNone      Feedback = ""
	FeedbackAccepted  Feedback = "accepted"
	FeedbackCorrected Feedback = "corrected"
)

// Report is what the agent reported in one record: the outcome, the lessons
// it says it used, and the lessons recall or appraise showed it that it did
// not report as used. Plain value, safe for concurrent use.
type Report struct {
	Session  string
	At       time.Time
	Result   Result
	Feedback Feedback
	// Used are the lesson ids the agent reported as used.
	Used []string
	// Surfaced are lesson ids shown to the agent (recall, appraise); those
	// not also in Used get only appraise-derived evidence.
	Surfaced []string
}

// Attribution is one event for one lesson, produced by [Attribute]. Plain
// data, safe for concurrent use.
type Attribution struct {
	LessonID string
	Event    Event
}

// Attribute turns a report into per-lesson events under the
// no-self-confirmation rules: the outcome (and any user feedback) credits
// only lessons reported as used; lessons that were merely surfaced get a
// [KindAppraised] event marked FromAppraise, which never moves confidence.
// Duplicate ids are collapsed; order is Used then Surfaced, as given. An
// unknown Result is treated as neutral. Safe for concurrent use.
func Attribute(r Report) []Attribution {
	kind := KindAppliedNeutral
	switch r.Result {
	case ResultSuccess:
		kind = KindAppliedSuccess
	case ResultFailure:
		kind = KindAppliedFailure
	}
	seen := make(map[string]bool, len(r.Used)+len(r.Surfaced))
	var out []Attribution
	ev := func(k Kind, appraise bool) Event {
		return Event{Kind: k, At: r.At, Session: r.Session, FromAppraise: appraise}
	}
	for _, id := range r.Used {
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, Attribution{LessonID: id, Event: ev(kind, false)})
		switch r.Feedback {
		case FeedbackAccepted:
			out = append(out, Attribution{LessonID: id, Event: ev(KindUserApproved, false)})
		case FeedbackCorrected:
			out = append(out, Attribution{LessonID: id, Event: ev(KindUserRejected, false)})
		}
	}
	for _, id := range r.Surfaced {
		if seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, Attribution{LessonID: id, Event: ev(KindAppraised, true)})
	}
	return out
}
