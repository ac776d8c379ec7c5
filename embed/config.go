package embed

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/philippgille/chromem-go"
)

// Providers accepted in Config.Provider / INNATE_EMBEDDER.
const (
	ProviderBuiltin = "builtin"
	ProviderOllama  = "ollama"
	ProviderOpenAI  = "openai"
)

// Default endpoints of the remote providers.
const (
	DefaultOllamaURL = "http://localhost:11434/api"
	DefaultOpenAIURL = "https://api.openai.com/v1"
)

// Config selects an embedder; see ConfigFromEnv for the environment
// variables behind each field.
type Config struct {
	// Provider is "builtin" (the default when empty), "ollama" or "openai"
	// (any OpenAI-compatible /embeddings endpoint).
	Provider string
	// Model is the remote model name (required for ollama and openai); for
	// the built-in provider it must be empty or "use-lite".
	Model string
	// BaseURL is the API base: DefaultOllamaURL or DefaultOpenAIURL when
	// empty. An Ollama URL without a path gets "/api" appended.
	BaseURL string
	// APIKey is sent as a bearer token to OpenAI-compatible endpoints; it is
	// required only for the default OpenAI URL.
	APIKey string
	// Dim is the expected vector dimension; 0 means "learn it from the first
	// vector" for remote providers. The built-in model accepts only 0 or 512.
	Dim int

	dimText string // invalid INNATE_EMBED_DIM text, reported by New
}

// ConfigFromEnv reads the embedder configuration through getenv (os.Getenv
// in production):
//
//	INNATE_EMBEDDER       provider: builtin (default), ollama, openai
//	INNATE_EMBED_MODEL    model name, e.g. nomic-embed-text, text-embedding-3-small
//	INNATE_EMBED_URL      API base URL (default per provider, see Config.BaseURL)
//	INNATE_EMBED_API_KEY  API key; for openai, OPENAI_API_KEY when unset
//	INNATE_EMBED_DIM      expected dimension (optional positive integer)
//
// Values are trimmed; the provider is lower-cased. ConfigFromEnv never
// fails: New reports invalid values. It is safe for concurrent use if
// getenv is.
func ConfigFromEnv(getenv func(string) string) Config {
	get := func(k string) string { return strings.TrimSpace(getenv(k)) }
	cfg := Config{
		Provider: strings.ToLower(get("INNATE_EMBEDDER")),
		Model:    get("INNATE_EMBED_MODEL"),
		BaseURL:  get("INNATE_EMBED_URL"),
		APIKey:   get("INNATE_EMBED_API_KEY"),
	}
	if cfg.Provider == "" {
		cfg.Provider = ProviderBuiltin
	}
	if cfg.APIKey == "" && cfg.Provider == ProviderOpenAI {
		cfg.APIKey = get("OPENAI_API_KEY")
	}
	if d := get("INNATE_EMBED_DIM"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n <= 0 {
			cfg.dimText = d
		} else {
			cfg.Dim = n
		}
	}
	return cfg
}

// New returns the embedder cfg describes. It never contacts the network:
// a remote endpoint is first called by Embed. Errors: ErrUnknownProvider,
// ErrUnknownModel, ErrMissingModel, ErrMissingAPIKey, ErrInvalidDim, or a
// wrapped URL parse error.
func New(cfg Config) (*Embedder, error) {
	if cfg.dimText != "" {
		return nil, fmt.Errorf("%w: INNATE_EMBED_DIM=%q is not a positive integer", ErrInvalidDim, cfg.dimText)
	}
	if cfg.Dim < 0 {
		return nil, fmt.Errorf("%w: %d", ErrInvalidDim, cfg.Dim)
	}
	switch p := strings.ToLower(cfg.Provider); p {
	case "", ProviderBuiltin:
		if cfg.Model != "" && cfg.Model != BuiltinName {
			return nil, fmt.Errorf("%w %q: the built-in provider has only %q (for a remote model set INNATE_EMBEDDER=ollama or openai)", ErrUnknownModel, cfg.Model, BuiltinName)
		}
		if cfg.Dim != 0 && cfg.Dim != Dim {
			return nil, fmt.Errorf("%w: %s has %d dimensions, not %d", ErrInvalidDim, BuiltinName, Dim, cfg.Dim)
		}
		return Builtin(), nil
	case ProviderOllama, ProviderOpenAI:
		if cfg.Model == "" {
			return nil, fmt.Errorf("%w: set INNATE_EMBED_MODEL for provider %s", ErrMissingModel, p)
		}
		base, err := baseURL(p, cfg.BaseURL)
		if err != nil {
			return nil, err
		}
		var fn chromem.EmbeddingFunc
		if p == ProviderOllama {
			fn = chromem.NewEmbeddingFuncOllama(cfg.Model, base)
		} else {
			if cfg.APIKey == "" && base == DefaultOpenAIURL {
				return nil, fmt.Errorf("%w: set INNATE_EMBED_API_KEY or OPENAI_API_KEY", ErrMissingAPIKey)
			}
			// Ask chromem for the raw vector; embedRemote normalises it
			// (and rejects a zero vector instead of dividing by zero).
			raw := true
			fn = chromem.NewEmbeddingFuncOpenAICompat(base, cfg.APIKey, cfg.Model, &raw)
		}
		if fn == nil {
			return nil, fmt.Errorf("embed: no embedding function for provider %s", p)
		}
		e := &Embedder{name: p + ":" + cfg.Model, remote: &remote{fn: fn}}
		e.dim.Store(int64(cfg.Dim))
		return e, nil
	default:
		return nil, fmt.Errorf("%w %q: use builtin, ollama or openai", ErrUnknownProvider, cfg.Provider)
	}
}

// baseURL returns the provider's API base without a trailing slash.
func baseURL(provider, raw string) (string, error) {
	if raw == "" {
		if provider == ProviderOllama {
			return DefaultOllamaURL, nil
		}
		return DefaultOpenAIURL, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("embed: base URL %q: want http(s)://host[:port][/path]", raw)
	}
	if provider == ProviderOllama && (u.Path == "" || u.Path == "/") {
		u.Path = "/api"
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// ParseName splits an embedder name as Name returns it (and as a knowledge
// base records it) into provider and model: "use-lite" is the built-in
// model, "ollama:MODEL" and "openai:MODEL" are remote ones. It returns
// ErrUnknownProvider or ErrMissingModel for other names. The CLI's --model
// flag can use it to override ConfigFromEnv's Provider and Model.
func ParseName(name string) (provider, model string, err error) {
	if name == BuiltinName {
		return ProviderBuiltin, "", nil
	}
	p, m, ok := strings.Cut(name, ":")
	switch {
	case !ok:
		return "", "", fmt.Errorf("%w %q: want %s, ollama:MODEL or openai:MODEL", ErrUnknownProvider, name, BuiltinName)
	case p != ProviderOllama && p != ProviderOpenAI:
		return "", "", fmt.Errorf("%w %q in %q: want ollama or openai", ErrUnknownProvider, p, name)
	case m == "":
		return "", "", fmt.Errorf("%w in %q", ErrMissingModel, name)
	}
	return p, m, nil
}
