package kb

import (
	"strings"
	"unicode"

	"github.com/innate-mcp/innate-mcp/confidence"
)

// A lesson's origin decides how far it is trusted: a user-stated lesson is
// active at once and recalled on a lower relevance floor, in every
// project when it is global. The origin a record carries is the caller's
// claim, so Record takes it on trust only from a person:
//
//   - AuthorPerson (the innate-mcp record command): the origin as given.
//   - AuthorAgent (the MCP record tool, and any caller that does not say):
//     a lesson is agent_inferred and pending, whatever origin it claims,
//     unless it claims user_stated, is for the current project (not
//     global), and its content is the user's own words: whole sentences of
//     the request's message (the user's latest message, verbatim), as
//     QuotedIn defines. Then it is user_stated and active.
//
// A pending lesson becomes active when a person approves it (innate-mcp
// lessons approve), or by the lifecycle's evidence (package confidence).
// Rule files and JSONL imported with innate-mcp import are a person's act
// and keep their origin (Add, ImportRules).

// Author says who writes a lesson through Record. The zero value is the
// agent, the least trusted.
type Author int

// The authors of a record.
const (
	// AuthorAgent is the agent, through the MCP record tool: a lesson's
	// origin is its claim.
	AuthorAgent Author = iota
	// AuthorPerson is a person at the command line (innate-mcp record):
	// a lesson's origin is taken as given.
	AuthorPerson
	// AuthorHook is the agent hooks, reading the user's message as the
	// client sent it: a lesson that claims user_stated is taken as the
	// user's when its content is a verbatim part of that message (the
	// directive of a correction: "use pnpm, not npm" of "No, I told you to
	// use pnpm, not npm!").
	AuthorHook
)

// The sources Record gives the lessons it stores; ProvenanceOf reads them.
// Lessons recorded before authors were told apart have the source
// "record".
const (
	SourceRecordCLI     = "record:cli"          // a person, innate-mcp record
	SourceRecordMessage = "record:mcp:message"  // the agent, quoting the user's message
	SourceRecordHook    = "record:hook:message" // the hooks, quoting the user's message
	SourceRecordAgent   = "record:mcp"          // the agent, on its own word
	// SourceRecordClaimed is the agent's lesson that claimed user_stated
	// without the user's words to show for it.
	SourceRecordClaimed = "record:mcp:claimed-user_stated"
	sourceRecordLegacy  = "record"
)

// ProvenanceKind says where a lesson came from.
type ProvenanceKind string

// The provenances of a lesson.
const (
	ProvenanceRuleFile    ProvenanceKind = "rule_file"    // a rule of a file a person imported; Source is its path
	ProvenanceUserCLI     ProvenanceKind = "user_cli"     // recorded by a person with innate-mcp record
	ProvenanceUserMessage ProvenanceKind = "user_message" // recorded by the agent, quoting the user's message
	ProvenanceAgent       ProvenanceKind = "agent"        // recorded by the agent on its own word
	ProvenanceImported    ProvenanceKind = "imported"     // from a JSONL corpus a person imported
	ProvenanceRecorded    ProvenanceKind = "recorded"     // recorded before authors were told apart
)

// Provenance tells the agent where a recalled lesson came from, so that
// it can weigh it: a rule the user wrote in a rule file is not a lesson
// another agent session inferred.
type Provenance struct {
	Kind ProvenanceKind `json:"kind" jsonschema:"enum=rule_file,enum=user_cli,enum=user_message,enum=agent,enum=imported,enum=recorded" jsonschema_description:"Where the lesson came from: rule_file (a rule of a file the user imported; source is its path), user_cli (the user recorded it with the innate-mcp CLI), user_message (an agent recorded it quoting the user's message), agent (an agent recorded it on its own word: weigh it as a guess unless approved), imported (a corpus the user imported), recorded (recorded before innate-mcp told these apart)."`
	// Source is the rule file's path (with the rule's place in it) or the
	// imported lesson's own source.
	Source string `json:"source,omitempty" jsonschema_description:"The rule file and the rule's place in it, or an imported lesson's source."`
	// Approved is set when a person approved the lesson explicitly.
	Approved bool `json:"approved,omitempty" jsonschema_description:"true when the user approved the lesson explicitly (innate-mcp lessons approve, or stating it themselves)."`
}

// ProvenanceOf returns where a lesson came from, from its source and
// origin.
func ProvenanceOf(l Lesson) Provenance {
	p := Provenance{Approved: l.Conf.Verdict == confidence.VerdictApproved}
	switch {
	case l.Source == SourceRecordCLI:
		p.Kind = ProvenanceUserCLI
	case l.Source == SourceRecordMessage || l.Source == SourceRecordHook:
		p.Kind = ProvenanceUserMessage
	case l.Source == SourceRecordAgent || strings.HasPrefix(l.Source, SourceRecordAgent+":"):
		p.Kind = ProvenanceAgent
	case l.Source == sourceRecordLegacy:
		p.Kind = ProvenanceRecorded
	case l.Origin == OriginUserStated && l.Source != "":
		p.Kind, p.Source = ProvenanceRuleFile, l.Source
	default:
		p.Kind, p.Source = ProvenanceImported, l.Source
	}
	return p
}

// recordTrust is what Record made of a new lesson's claimed origin.
type recordTrust struct {
	origin Origin
	source string
	// person is set when a person wrote the lesson (AuthorPerson).
	person bool
	// note says why a claim was not taken, for the record's result.
	note string
}

// trustLesson decides the origin and source of the lesson of a record
// request, as the comment at the top of this file says.
func trustLesson(req RecordRequest) recordTrust {
	in := req.Lesson
	claim := in.Origin
	if claim == "" {
		claim = OriginAgentInferred
	}
	switch {
	case req.Author == AuthorPerson:
		return recordTrust{origin: claim, source: SourceRecordCLI, person: true}
	case req.Author == AuthorHook && claim == OriginUserStated && !in.Global &&
		strings.TrimSpace(in.Content) != "" && strings.Contains(req.Message, strings.TrimSpace(in.Content)):
		return recordTrust{origin: OriginUserStated, source: SourceRecordHook}
	case claim != OriginUserStated:
		return recordTrust{origin: OriginAgentInferred, source: SourceRecordAgent}
	case in.Global:
		return recordTrust{origin: OriginAgentInferred, source: SourceRecordClaimed,
			note: "origin user_stated not taken: a global lesson recorded by the agent starts pending in every project; the user makes it active with `innate-mcp lessons approve ID` or `innate-mcp record --global`"}
	case QuotedIn(in.Content, req.Message):
		return recordTrust{origin: OriginUserStated, source: SourceRecordMessage}
	}
	note := "origin user_stated not taken: the lesson's content is not whole sentences of message (the user's latest message, verbatim); stored agent_inferred, pending until the user approves it (`innate-mcp lessons approve ID`)"
	if req.Message == "" {
		note = "origin user_stated not taken: no message; pass the user's latest message verbatim as message, with the lesson's content one or more of its sentences word for word, or the lesson stays pending until the user approves it (`innate-mcp lessons approve ID`)"
	}
	return recordTrust{origin: OriginAgentInferred, source: SourceRecordClaimed, note: note}
}

// QuotedIn reports whether content is quoted from message: it is one or
// more whole, consecutive sentences of message. Both are cut into
// sentences (at ".", "!", "?" or ":" before white space or the end, at
// ";" and at line breaks) and each sentence is folded (letters to lower
// case, apostrophes dropped, every run of other characters that are not
// letters or digits to one space); content's sentences, with at least two
// words in all, must equal a run of message's. Case, punctuation and
// spacing may differ; no word may be added, dropped or changed, and a
// sentence may not be cut, so a quote cannot drop the "never" or the
// "unless" the user said with it.
func QuotedIn(content, message string) bool {
	c, m := sentencesFolded(content), sentencesFolded(message)
	if len(c) == 0 || len(c) == 1 && !strings.Contains(c[0], " ") {
		return false
	}
	for i := 0; i+len(c) <= len(m); i++ {
		match := true
		for j := range c {
			if m[i+j] != c[j] {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// sentencesFolded cuts s into sentences and folds each for QuotedIn,
// leaving out the empty ones.
func sentencesFolded(s string) []string {
	var out []string
	start := 0
	emit := func(end int) {
		if f := foldWords(s[start:end]); f != "" {
			out = append(out, f)
		}
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ';' || c == '\n':
		case c == '.' || c == '!' || c == '?' || c == ':':
			if i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\n' && s[i+1] != '\t' && s[i+1] != '\r' {
				continue // errors.Is, https://
			}
		default:
			continue
		}
		emit(i)
		start = i + 1
	}
	emit(len(s))
	return out
}

// foldWords folds one sentence for QuotedIn.
func foldWords(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for _, r := range s {
		switch {
		case r == '\'' || r == '\u2018' || r == '\u2019' || r == '\u02bc':
			// "don't" and "dont", 'tabs' and tabs read alike.
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if gap && b.Len() > 0 {
				b.WriteByte(' ')
			}
			gap = false
			b.WriteRune(unicode.ToLower(r))
		default:
			gap = true
		}
	}
	return b.String()
}
