package kb_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/innate-mcp/innate-mcp/embed"
	"github.com/innate-mcp/innate-mcp/kb"
)

// BenchmarkAppraise measures appraise beside recall on the same 10k-lesson
// knowledge base, in the same run, so that the ratio holds on a busy
// machine: appraise/candidate folds a 20-term candidate into the query and
// adds the session reads, the critic and the router, and the log writes.
// Query embedding is excluded as in BenchmarkRecall (the benchmark embedder
// is a hash); BenchmarkAppraiseEmbedding measures what the candidate adds
// to the built-in embedder's work.
func BenchmarkAppraise(b *testing.B) {
	for _, n := range []int{10_000} {
		ctx := context.Background()
		db, k := openBenchKB(b, n)
		r := rand.New(rand.NewPCG(9, 9))
		z := rand.NewZipf(rand.New(rand.NewPCG(10, 10)), 1.1, 2, 20000)
		queries := make([]string, 64)
		candidates := make([]string, 64)
		for i := range queries {
			queries[i] = benchText(r, z, 12)
			candidates[i] = benchText(r, z, 20)
		}
		if _, err := k.Recall(ctx, kb.RecallRequest{Query: queries[0]}); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("lessons=%d/recall", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := k.Recall(ctx, kb.RecallRequest{Query: queries[i%len(queries)]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		// recall-same-text searches what appraise-candidate searches (the
		// candidate folded into the query): the ratio of the two is
		// appraise's own overhead on the one scoring path.
		b.Run(fmt.Sprintf("lessons=%d/recall-same-text", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				j := i % len(queries)
				if _, err := k.Recall(ctx, kb.RecallRequest{Query: queries[j] + "\n" + candidates[j]}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("lessons=%d/appraise", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				if _, err := k.Appraise(ctx, kb.AppraiseRequest{Query: queries[i%len(queries)], Session: "bench"}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("lessons=%d/appraise-candidate", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				j := i % len(queries)
				if _, err := k.Appraise(ctx, kb.AppraiseRequest{Query: queries[j], Candidate: candidates[j],
					Message: "why does this fail?", Session: "bench"}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		// A project's own rule file (150 rules that direct), as a user
		// imports one: appraise reads the candidate against its rules.
		if _, err := k.ImportRuleFile(ctx, "CLAUDE.md", "bench-project", benchRuleFile(150)); err != nil {
			b.Fatal(err)
		}
		plans := []string{"npm install lodash and push to main", "Run `gofmt -w x.go`, then `git commit -m \"wip\"`",
			"Use `tool7 --fast` instead of tool8 and open the pull request", "Skip the checks and hand it over"}
		b.Run(fmt.Sprintf("lessons=%d/recall-same-text-project", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				j := i % len(queries)
				if _, err := k.Recall(ctx, kb.RecallRequest{Query: queries[j] + "\n" + plans[j%len(plans)], Project: "bench-project"}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		b.Run(fmt.Sprintf("lessons=%d/appraise-candidate-project", n), func(b *testing.B) {
			i := 0
			for b.Loop() {
				j := i % len(queries)
				if _, err := k.Appraise(ctx, kb.AppraiseRequest{Query: queries[j], Candidate: plans[j%len(plans)],
					Project: "bench-project", Session: "bench"}); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
		db.Close()
	}
}

// benchRuleFile is a synthetic rule file of n rules in sections of ten,
// in the forms rule files use.
func benchRuleFile(n int) []byte {
	var b strings.Builder
	b.WriteString("# Bench project\n")
	forms := []string{"- Use `tool%d`, not tool%d.\n", "- Never run `make gen%d` before step %d.\n",
		"- Always run `check%d --all` before committing change %d.\n", "- Prefer `lib%d` over lib%d for parsing.\n",
		"- Do not edit `generated/file%d.go` by hand (rule %d).\n"}
	for i := 0; i < n; i++ {
		if i%10 == 0 {
			fmt.Fprintf(&b, "\n## Section %d\n\n", i/10)
		}
		fmt.Fprintf(&b, forms[i%len(forms)], i, i+1)
	}
	return []byte(b.String())
}

// BenchmarkAppraiseEmbedding measures the built-in embedder on a situation
// alone (what recall embeds) and with a candidate folded in (what appraise
// embeds): the candidate's share of appraise's cost, reported separately.
func BenchmarkAppraiseEmbedding(b *testing.B) {
	e, err := embed.New(embed.Config{})
	if err != nil {
		b.Fatal(err)
	}
	if err := e.Preload(); err != nil {
		b.Skipf("built-in embedder unavailable: %v", err)
	}
	ctx := context.Background()
	query := "panic: assignment to entry in nil map when writing to the cache map in the request handler"
	candidate := "Initialise the cache map with make in the constructor before the handler writes to it, and guard it with a mutex."
	for name, text := range map[string]string{"situation": kb.DenseText(query), "situation+candidate": kb.DenseText(query + "\n" + candidate)} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Embed(ctx, text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
