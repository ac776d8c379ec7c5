package hesitation

import (
	"time"

	"github.com/innate-mcp/innate-mcp/runlog"
)

// Situation is what the agent knows besides its draft: the evidence that
// can back a claim. Everything is optional; an empty Situation means the
// draft stands on its own, so every specific in it is unsupported.
type Situation struct {
	// Query is the user's request. Details it mentions count as given, a
	// creative request ("write a poem") mutes the factual-claim signals,
	// and references in it ("this article", a URL, "the attached
	// screenshot") must be backed by Sources, ToolOutputs or Files.
	Query string `json:"query,omitempty"`
	// ToolOutputs are outputs of tools and commands run for this draft
	// (test runs, greps, fetched docs). They back specifics and, when they
	// look like test output, success claims.
	ToolOutputs []string `json:"tool_outputs,omitempty"`
	// TestsRun says a test suite was run after the last change, whether
	// or not its output is in ToolOutputs.
	TestsRun bool `json:"tests_run,omitempty"`
	// Sources are cited sources: URLs, document excerpts, lessons recalled.
	Sources []string `json:"sources,omitempty"`
	// Files are paths or contents of files read for this draft.
	Files []string `json:"files,omitempty"`
	// Now is the time of the check, used to decay error patterns. The
	// zero time disables decay.
	Now time.Time `json:"now,omitempty"`
}

// evidenceTexts returns every text that can back a specific.
func (s Situation) evidenceTexts() []string {
	out := make([]string, 0, 1+len(s.ToolOutputs)+len(s.Sources)+len(s.Files))
	out = append(out, s.Query)
	out = append(out, s.ToolOutputs...)
	out = append(out, s.Sources...)
	out = append(out, s.Files...)
	return out
}

// hasMaterial reports whether the situation holds anything beyond the
// query: tool output, sources or files.
func (s Situation) hasMaterial() bool {
	return len(s.ToolOutputs) > 0 || len(s.Sources) > 0 || len(s.Files) > 0
}

// testEvidence reports whether tests were run (flag or test-like tool
// output) and whether the output reports failures. A runner's own summary
// lines decide where an output has them (package runlog: go test's "ok
// pkg 1.1s", pytest's "=== 3 passed in 0.1s ===", …): a run whose summary
// reports a failure is failing whatever else passed. Output without a
// summary falls back to the lexicon's run, pass and fail words, failing
// only with no pass word.
func (s Situation) testEvidence() (ran, failing bool) {
	ran = s.TestsRun
	pass, fail := false, false
	for _, out := range s.ToolOutputs {
		switch r := runlog.Read(out); r.Outcome {
		case runlog.Failed:
			ran, failing = true, true
			continue
		case runlog.Passed:
			ran = true
			continue
		}
		sc := scanText(out)
		if sc.has(catTestRun) {
			ran = true
		}
		pass = pass || sc.has(catTestPass)
		fail = fail || sc.has(catTestFail)
	}
	return ran, failing || ran && fail && !pass
}
