// Package rulefile parses agent rule files into lessons.
//
// PLACEHOLDER: replaced by the full implementation from the ingest branch.
package rulefile

import (
	"errors"
	"strings"
)

// Rule is one rule parsed from a file.
type Rule struct {
	Content string
	Trigger string
	Tags    []string
	Source  string
}

// Parse splits a rule file into paragraphs.
func Parse(name string, data []byte) ([]Rule, error) {
	if len(data) == 0 {
		return nil, errors.New("empty")
	}
	var out []Rule
	for _, p := range strings.Split(string(data), "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, Rule{Content: p})
		}
	}
	return out, nil
}
