package embed

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeServer serves Ollama's /api/embeddings and the OpenAI /v1/embeddings
// shape. vec returns the vector for a text; status, when non-zero, is
// returned instead.
type fakeServer struct {
	t        *testing.T
	vec      func(text string) []float32
	status   int
	requests atomic.Int64
	lastAuth atomic.Value
}

func (f *fakeServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.lastAuth.Store(r.Header.Get("Authorization"))
	if f.status != 0 {
		http.Error(w, "boom", f.status)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		f.t.Errorf("read body: %v", err)
		return
	}
	var req struct {
		Model  string `json:"model"`
		Prompt string `json:"prompt"`
		Input  string `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		f.t.Errorf("bad request body %s: %v", body, err)
		return
	}
	if req.Model != "m1" {
		f.t.Errorf("model=%q, want m1", req.Model)
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api/embeddings":
		json.NewEncoder(w).Encode(map[string]any{"embedding": f.vec(req.Prompt)})
	case "/v1/embeddings":
		json.NewEncoder(w).Encode(map[string]any{"data": []any{map[string]any{"embedding": f.vec(req.Input)}}})
	default:
		f.t.Errorf("unexpected path %s", r.URL.Path)
		http.NotFound(w, r)
	}
}

// lengthVec returns an unnormalised 3-d vector derived from the text.
func lengthVec(text string) []float32 { return []float32{float32(len(text)), 3, 4} }

func newFake(t *testing.T, vec func(string) []float32) (*fakeServer, *httptest.Server) {
	t.Helper()
	f := &fakeServer{t: t, vec: vec}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv
}

func TestRemote_Providers(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		provider, path, name string
	}{
		{ProviderOllama, "/api", "ollama:m1"},
		{ProviderOllama, "", "ollama:m1"}, // "/api" is appended
		{ProviderOpenAI, "/v1", "openai:m1"},
	} {
		t.Run(c.provider+c.path, func(t *testing.T) {
			f, srv := newFake(t, lengthVec)
			e, err := New(Config{Provider: c.provider, Model: "m1", BaseURL: srv.URL + c.path, APIKey: "k"})
			if err != nil {
				t.Fatal(err)
			}
			if n := f.requests.Load(); n != 0 {
				t.Fatalf("New made %d requests, want 0", n)
			}
			if e.Name() != c.name || !e.Remote() || e.Dim() != 0 || e.Tokens("x") != nil {
				t.Fatalf("Name=%q Remote=%v Dim=%d; want %q true 0", e.Name(), e.Remote(), e.Dim(), c.name)
			}
			v, err := e.Embed(ctx, "")
			if err != nil {
				t.Fatal(err)
			}
			// (0,3,4)/5
			if len(v) != 3 || math.Abs(float64(v[1])-0.6) > 1e-6 || math.Abs(float64(v[2])-0.8) > 1e-6 {
				t.Fatalf("Embed=%v, want [0 0.6 0.8]", v)
			}
			if e.Dim() != 3 {
				t.Errorf("Dim after first call=%d, want 3", e.Dim())
			}
			vs, err := e.EmbedBatch(ctx, []string{"a", "bb", "ccc", "dddd", "eeeee", "ffffff"})
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range vs {
				want := lengthVec(strings.Repeat("x", i+1))
				n := math.Sqrt(float64(want[0]*want[0] + 25))
				if math.Abs(float64(v[0])-float64(want[0])/n) > 1e-6 {
					t.Errorf("batch[%d]=%v, out of order or not normalised", i, v)
				}
			}
			var fn Func = e.Func()
			if _, err := fn(ctx, "z"); err != nil {
				t.Fatal(err)
			}
			if c.provider == ProviderOpenAI {
				if got := f.lastAuth.Load(); got != "Bearer k" {
					t.Errorf("Authorization=%q, want Bearer k", got)
				}
			}
		})
	}
}

func TestRemote_Errors(t *testing.T) {
	ctx := context.Background()
	t.Run("http error", func(t *testing.T) {
		f, srv := newFake(t, lengthVec)
		f.status = http.StatusInternalServerError
		e, _ := New(Config{Provider: ProviderOpenAI, Model: "m1", BaseURL: srv.URL + "/v1"})
		_, err := e.Embed(ctx, "x")
		if err == nil || !strings.Contains(err.Error(), "openai:m1") {
			t.Errorf("err=%v, want an error naming openai:m1", err)
		}
		if _, err := e.EmbedBatch(ctx, []string{"a", "b", "c"}); err == nil {
			t.Error("EmbedBatch: want error")
		}
	})
	t.Run("dimension change", func(t *testing.T) {
		_, srv := newFake(t, func(s string) []float32 { v := make([]float32, 2+len(s)%2); v[0] = 1; return v })
		e, _ := New(Config{Provider: ProviderOllama, Model: "m1", BaseURL: srv.URL})
		if _, err := e.Embed(ctx, "aa"); err != nil {
			t.Fatal(err)
		}
		if _, err := e.Embed(ctx, "a"); !errors.Is(err, ErrDimMismatch) {
			t.Errorf("err=%v, want ErrDimMismatch", err)
		}
	})
	t.Run("configured dimension", func(t *testing.T) {
		_, srv := newFake(t, lengthVec)
		e, _ := New(Config{Provider: ProviderOllama, Model: "m1", BaseURL: srv.URL, Dim: 768})
		if e.Dim() != 768 {
			t.Fatalf("Dim=%d, want 768", e.Dim())
		}
		if _, err := e.Embed(ctx, "a"); !errors.Is(err, ErrDimMismatch) {
			t.Errorf("err=%v, want ErrDimMismatch", err)
		}
	})
	t.Run("zero vector", func(t *testing.T) {
		_, srv := newFake(t, func(string) []float32 { return []float32{0, 0, 0} })
		e, _ := New(Config{Provider: ProviderOpenAI, Model: "m1", BaseURL: srv.URL + "/v1"})
		if _, err := e.Embed(ctx, "a"); !errors.Is(err, ErrBadVector) {
			t.Errorf("err=%v, want ErrBadVector", err)
		}
	})
	t.Run("canceled", func(t *testing.T) {
		_, srv := newFake(t, lengthVec)
		e, _ := New(Config{Provider: ProviderOllama, Model: "m1", BaseURL: srv.URL})
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := e.EmbedBatch(cctx, []string{"a"}); !errors.Is(err, context.Canceled) {
			t.Errorf("err=%v, want context.Canceled", err)
		}
	})
}

func TestConfigFromEnv(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want Config
	}{
		{"defaults", nil, Config{Provider: "builtin"}},
		{"ollama", map[string]string{"INNATE_EMBEDDER": " Ollama ", "INNATE_EMBED_MODEL": "nomic-embed-text", "INNATE_EMBED_URL": "http://h:1/api"},
			Config{Provider: "ollama", Model: "nomic-embed-text", BaseURL: "http://h:1/api"}},
		{"openai key fallback", map[string]string{"INNATE_EMBEDDER": "openai", "INNATE_EMBED_MODEL": "text-embedding-3-small", "OPENAI_API_KEY": "sk-1", "INNATE_EMBED_DIM": "1536"},
			Config{Provider: "openai", Model: "text-embedding-3-small", APIKey: "sk-1", Dim: 1536}},
		{"own key wins", map[string]string{"INNATE_EMBEDDER": "openai", "INNATE_EMBED_API_KEY": "k2", "OPENAI_API_KEY": "sk-1"},
			Config{Provider: "openai", APIKey: "k2"}},
		{"no openai fallback for ollama", map[string]string{"INNATE_EMBEDDER": "ollama", "OPENAI_API_KEY": "sk-1"},
			Config{Provider: "ollama"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ConfigFromEnv(func(k string) string { return c.env[k] })
			if got != c.want {
				t.Errorf("got=%+v, want %+v", got, c.want)
			}
		})
	}
}

func TestNew_Errors(t *testing.T) {
	env := func(m map[string]string) Config { return ConfigFromEnv(func(k string) string { return m[k] }) }
	cases := []struct {
		name string
		cfg  Config
		want error
	}{
		{"unknown provider", Config{Provider: "cohere"}, ErrUnknownProvider},
		{"builtin other model", Config{Model: "bert"}, ErrUnknownModel},
		{"builtin wrong dim", Config{Dim: 384}, ErrInvalidDim},
		{"negative dim", Config{Provider: "ollama", Model: "m", Dim: -1}, ErrInvalidDim},
		{"bad dim env", env(map[string]string{"INNATE_EMBED_DIM": "big"}), ErrInvalidDim},
		{"ollama no model", Config{Provider: "ollama"}, ErrMissingModel},
		{"openai no model", Config{Provider: "openai", APIKey: "k"}, ErrMissingModel},
		{"openai no key", Config{Provider: "openai", Model: "m"}, ErrMissingAPIKey},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := New(c.cfg); !errors.Is(err, c.want) {
				t.Errorf("err=%v, want %v", err, c.want)
			}
		})
	}
	for _, cfg := range []Config{
		{},
		{Provider: "builtin", Model: "use-lite", Dim: 512},
		{Provider: "openai", Model: "m", BaseURL: "http://localhost:1/v1"}, // local endpoint: no key needed
		{Provider: "ollama", Model: "m"},
	} {
		if _, err := New(cfg); err != nil {
			t.Errorf("New(%+v): %v", cfg, err)
		}
	}
	if _, err := New(Config{Provider: "ollama", Model: "m", BaseURL: "localhost:11434"}); err == nil {
		t.Error("New with a URL without scheme: want error")
	}
}

func TestParseName(t *testing.T) {
	for _, c := range []struct {
		name, provider, model string
		err                   error
	}{
		{"use-lite", "builtin", "", nil},
		{"ollama:nomic-embed-text", "ollama", "nomic-embed-text", nil},
		{"openai:text-embedding-3-small", "openai", "text-embedding-3-small", nil},
		{"ollama:library/model:latest", "ollama", "library/model:latest", nil},
		{"bert", "", "", ErrUnknownProvider},
		{"cohere:embed", "", "", ErrUnknownProvider},
		{"openai:", "", "", ErrMissingModel},
	} {
		p, m, err := ParseName(c.name)
		if p != c.provider || m != c.model || !errors.Is(err, c.err) {
			t.Errorf("ParseName(%q)=%q, %q, %v; want %q, %q, %v", c.name, p, m, err, c.provider, c.model, c.err)
		}
	}
	// Names round-trip through New.
	for _, name := range []string{"use-lite", "ollama:m1", "openai:m1"} {
		p, m, err := ParseName(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := New(Config{Provider: p, Model: m, BaseURL: "http://localhost:1/v1"})
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() != name {
			t.Errorf("New(ParseName(%q)).Name()=%q", name, e.Name())
		}
	}
}
