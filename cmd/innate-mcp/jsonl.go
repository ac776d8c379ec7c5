package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
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
	return fmt.Sprintf("line %d is longer than %s, the limit for one line", e.line, byteSize(int64(e.limit)))
}

// byteSize prints a size limit in the largest binary unit that divides it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
