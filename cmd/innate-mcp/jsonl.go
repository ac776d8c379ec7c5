package main

import (
	"bufio"
	"bytes"
	"fmt"
)

// maxJSONLine is the longest line a JSONL input may hold.
const maxJSONLine = 16 << 20

// eachJSONLine calls fn with the number (from 1) and the trimmed bytes of
// every non-blank line of data, stopping at the first error, which comes
// back naming its line.
func eachJSONLine(data []byte, fn func(line int, b []byte) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), maxJSONLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if err := fn(line, b); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return nil
}
