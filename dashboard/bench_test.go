package dashboard

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"
)

// BenchmarkPages renders every page over a knowledge base of 10,000
// lessons and reports the server time per page (ms/page); the target is
// at most 100 ms.
func BenchmarkPages(b *testing.B) {
	e := newTestEnv(b, 10000)
	c, _ := e.session(b)
	for _, pg := range []struct{ name, path string }{
		{"overview", "/"}, {"lessons", "/lessons"}, {"lessons_search", "/lessons?q=" + url.QueryEscape(searchQuery)},
		{"lessons_filtered", "/lessons?project=project-3&tier=tentative&sort=uses&dir=desc"},
		{"lesson", "/lessons/" + e.ruleID}, {"calibration", "/calibration"}, {"review", "/review"}, {"routing", "/routing"},
	} {
		b.Run(pg.name, func(b *testing.B) {
			var total time.Duration
			for b.Loop() {
				start := time.Now()
				rec := e.do(httptest.NewRequest("GET", pg.path, nil), c)
				total += time.Since(start)
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d", pg.path, rec.Code)
				}
			}
			b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/page")
		})
	}
}
