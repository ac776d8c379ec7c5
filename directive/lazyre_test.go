package directive

import (
	"regexp"
	"testing"
)

// TestLazyRegexps compiles every pattern of the package: one that does
// not compile would otherwise panic at its first use, in a hook.
func TestLazyRegexps(t *testing.T) {
	if len(lazyPatterns) < 100 {
		t.Fatalf("only %d patterns registered", len(lazyPatterns))
	}
	for _, l := range lazyPatterns {
		if _, err := regexp.Compile(l.src); err != nil {
			t.Errorf("%q: %v", l.src, err)
		}
	}
}
