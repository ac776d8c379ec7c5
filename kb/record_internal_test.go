package kb

import (
	"strings"
	"testing"
)

// TestRecordRequest_cleaned: the cleaned copy has the message read as a
// correction and the secrets redacted; the request it came from, and what
// its pointers point to, are unchanged.
func TestRecordRequest_cleaned(t *testing.T) {
	const secret = "ghp_R7kD2mQ9vX4tL8nB3cF6hJ1pW5sZ0yA2uE9g"
	lesson := &LessonInput{Content: "Use the token " + secret + " only in CI."}
	req := RecordRequest{Lesson: lesson, Message: "No, that's wrong: I told you to run the tests first."}
	got, n, err := req.cleaned()
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 || strings.Contains(got.Lesson.Content, secret) {
		t.Fatalf("cleaned lesson %q, %d redacted, want the token redacted once", got.Lesson.Content, n)
	}
	if got.Correction == nil || got.Correction.Text != req.Message || len(got.correctionCues) == 0 {
		t.Fatalf("cleaned correction = %+v, cues %v, want the message read as a correction", got.Correction, got.correctionCues)
	}
	if req.Correction != nil || req.correctionCues != nil || req.Lesson != lesson || !strings.Contains(lesson.Content, secret) {
		t.Fatalf("cleaned changed its input: %+v, lesson %q", req, lesson.Content)
	}
}
