// Package consultant reaches the consultant the user configured: a
// program that reads a prompt on standard input and writes its answer on
// standard output (the user's own agent, e.g. `claude -p`), or an
// OpenAI-compatible or Ollama endpoint. Only what the user configured is
// reached; nothing here runs on a hook's path (the hooks start `innate-mcp
// rules compile --run` in the background).
package consultant

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// Target is a configured consultant: Command, or Endpoint with API
// ("openai" or "ollama"), Model and, for OpenAI-compatible APIs, APIKey.
type Target struct {
	Command  []string
	Endpoint string
	API      string
	Model    string
	APIKey   string
	Timeout  time.Duration
	// Client makes the HTTP requests; http.DefaultClient when nil.
	Client *http.Client
}

// maxAnswerBytes bounds what is read of an answer.
const maxAnswerBytes = 4 << 20

// Reply is a consultant's answer, with the model that wrote it when the
// consultant says.
type Reply struct {
	Text  string
	Model string
}

// Ask gives the consultant a prompt and returns its answer.
func (t Target) Ask(ctx context.Context, prompt string) (Reply, error) {
	if t.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t.Timeout)
		defer cancel()
	}
	switch {
	case len(t.Command) > 0:
		return t.run(ctx, prompt)
	case t.Endpoint != "" && t.API == "openai":
		return t.openAI(ctx, prompt)
	case t.Endpoint != "" && t.API == "ollama":
		return t.ollama(ctx, prompt)
	}
	return Reply{}, errors.New("no consultant is configured: set consultant.command or consultant.endpoint in your hooks.json (docs/consultant.md)")
}

// run runs the configured program with the prompt on its standard input.
func (t Target) run(ctx context.Context, prompt string) (Reply, error) {
	cmd := exec.CommandContext(ctx, t.Command[0], t.Command[1:]...)
	cmd.Stdin = strings.NewReader(prompt)
	var out, errb limited
	out.n, errb.n = maxAnswerBytes, 4<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return Reply{}, fmt.Errorf("consultant %s: %w: %s", t.Command[0], err, strings.TrimSpace(errb.b.String()))
	}
	if out.over {
		return Reply{}, fmt.Errorf("consultant %s: the answer exceeds %d bytes", t.Command[0], maxAnswerBytes)
	}
	return Reply{Text: out.b.String(), Model: t.Command[0]}, nil
}

// limited keeps the first n bytes written to it.
type limited struct {
	b    bytes.Buffer
	n    int
	over bool
}

func (l *limited) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room < len(p) {
		l.over = true
		l.b.Write(p[:max(room, 0)])
		return len(p), nil
	}
	return l.b.Write(p)
}

// openAI asks an OpenAI-compatible chat completions endpoint.
func (t Target) openAI(ctx context.Context, prompt string) (Reply, error) {
	body := map[string]any{"model": t.Model, "temperature": 0,
		"messages": []map[string]string{{"role": "user", "content": prompt}}}
	var res struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := t.post(ctx, strings.TrimSuffix(t.Endpoint, "/")+"/chat/completions", body, &res); err != nil {
		return Reply{}, err
	}
	if len(res.Choices) == 0 {
		return Reply{}, errors.New("consultant: the endpoint answered no choice")
	}
	model := res.Model
	if model == "" {
		model = t.Model
	}
	return Reply{Text: res.Choices[0].Message.Content, Model: model}, nil
}

// ollama asks an Ollama server's chat endpoint for JSON.
func (t Target) ollama(ctx context.Context, prompt string) (Reply, error) {
	body := map[string]any{"model": t.Model, "stream": false, "format": "json", "options": map[string]any{"temperature": 0},
		"messages": []map[string]string{{"role": "user", "content": prompt}}}
	var res struct {
		Model   string `json:"model"`
		Message struct {
			Content string `json:"content"`
		} `json:"message"`
	}
	if err := t.post(ctx, strings.TrimSuffix(t.Endpoint, "/")+"/api/chat", body, &res); err != nil {
		return Reply{}, err
	}
	model := res.Model
	if model == "" {
		model = t.Model
	}
	return Reply{Text: res.Message.Content, Model: model}, nil
}

// post sends a JSON request and decodes the JSON answer.
func (t Target) post(ctx context.Context, url string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return fmt.Errorf("consultant: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if t.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+t.APIKey)
	}
	c := t.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("consultant: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes))
	if err != nil {
		return fmt.Errorf("consultant: read the answer: %w", err)
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("consultant: %s answered %s: %s", url, resp.Status, strings.TrimSpace(string(data[:min(len(data), 300)])))
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("consultant: %s answered no JSON of its API: %w", url, err)
	}
	return nil
}
