package sanitize

import (
	"context"
	"fmt"
	"log/slog"
)

// NewRedactHandler returns a slog.Handler that passes every record to h
// with secrets redacted by [Redact]: in the message, in string attributes,
// in errors (logged as their redacted text) and in any other attribute
// whose formatted value (%+v) holds a secret (logged as that text,
// redacted). Attributes added with WithAttrs are redacted once, when
// added; groups are walked. It is safe for concurrent use if h is.
func NewRedactHandler(h slog.Handler) slog.Handler { return redactHandler{h} }

type redactHandler struct{ h slog.Handler }

func (r redactHandler) Enabled(ctx context.Context, l slog.Level) bool { return r.h.Enabled(ctx, l) }

func (r redactHandler) Handle(ctx context.Context, rec slog.Record) error {
	msg, _ := Redact(rec.Message)
	out := slog.NewRecord(rec.Time, rec.Level, msg, rec.PC)
	rec.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(redactAttr(a))
		return true
	})
	return r.h.Handle(ctx, out)
}

func (r redactHandler) WithAttrs(as []slog.Attr) slog.Handler {
	red := make([]slog.Attr, len(as))
	for i, a := range as {
		red[i] = redactAttr(a)
	}
	return redactHandler{r.h.WithAttrs(red)}
}

func (r redactHandler) WithGroup(name string) slog.Handler { return redactHandler{r.h.WithGroup(name)} }

// redactAttr returns a with the secrets in its value redacted.
func redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	switch v.Kind() {
	case slog.KindString:
		s, _ := Redact(v.String())
		return slog.String(a.Key, s)
	case slog.KindGroup:
		g := v.Group()
		red := make([]slog.Attr, len(g))
		for i, x := range g {
			red[i] = redactAttr(x)
		}
		return slog.Attr{Key: a.Key, Value: slog.GroupValue(red...)}
	case slog.KindAny:
		switch x := v.Any().(type) {
		case error:
			s, _ := Redact(x.Error())
			return slog.String(a.Key, s)
		case []byte:
			s, _ := Redact(string(x))
			return slog.String(a.Key, s)
		default:
			if s, rs := Redact(fmt.Sprintf("%+v", x)); len(rs) > 0 {
				return slog.String(a.Key, s)
			}
		}
	}
	return slog.Attr{Key: a.Key, Value: v}
}
