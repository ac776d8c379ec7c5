package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/innate-mcp/innate-mcp/internal/regfile"
)

// maxJSONLine is the longest line an evaluation JSONL input may hold.
const maxJSONLine = 16 << 20

// eachJSONLine calls fn with the number (from 1) and the trimmed bytes of
// every non-blank line read from r, stopping at the first error, which
// comes back naming its line. A line longer than maxLine bytes is an error
// that names the limit.
func eachJSONLine(r io.Reader, maxLine int, fn func(line int, b []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(maxLine, 1<<20)), maxLine)
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
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return &lineTooLongError{line: line + 1, limit: maxLine}
	} else if err != nil {
		return fmt.Errorf("line %d: %w", line+1, err)
	}
	return nil
}

// lineTooLongError is a JSONL line over its limit.
type lineTooLongError struct{ line, limit int }

func (e *lineTooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than %s, the limit for one line", e.line, regfile.ByteSize(int64(e.limit)))
}
