package sanitize

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// secretValuer logs as a secret, to check that values are resolved first.
type secretValuer struct{}

func (secretValuer) LogValue() slog.Value { return slog.StringValue("token " + fakeSlack) }

func TestNewRedactHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewRedactHandler(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	log = log.With("request", "password=Tr0ub4dor&3x").WithGroup("call")
	log.Debug("tool failed for "+fakeGitHub,
		"err", fmt.Errorf("write trace: %w", errors.New("near "+fakeAWSID)),
		"body", []byte(`{"key":"`+fakeStripe+`"}`),
		"args", map[string]string{"auth": "Authorization: Bearer " + fakeOpenAI},
		"valuer", secretValuer{},
		slog.Group("nested", "jwt", fakeJWT, "n", 3),
		"count", 7, "plain", "nothing to hide")
	out := buf.String()
	for _, s := range []string{fakeGitHub, "Tr0ub4dor&3x", fakeAWSID, fakeStripe, fakeOpenAI, fakeSlack, fakeJWT} {
		if strings.Contains(out, s) {
			t.Errorf("log holds %q:\n%s", s, out)
		}
	}
	for _, s := range []string{"[REDACTED:github-token]", `request="password=[REDACTED:password]"`, "[REDACTED:aws-access-key-id]",
		"call.count=7", `call.plain="nothing to hide"`, "call.nested.n=3", "level=DEBUG"} {
		if !strings.Contains(out, s) {
			t.Errorf("log lacks %q:\n%s", s, out)
		}
	}
}
