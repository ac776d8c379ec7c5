package kb_test

import (
	"testing"

	"github.com/innate-mcp/innate-mcp/kb"
)

func TestLessonFilter_Matches(t *testing.T) {
	shop := kb.Lesson{Project: "shop", State: kb.StateActive, Origin: kb.OriginUserStated}
	global := kb.Lesson{State: kb.StatePending, Origin: kb.OriginImported}
	for _, tc := range []struct {
		name         string
		f            kb.LessonFilter
		shop, global bool
	}{
		{"all", kb.LessonFilter{}, true, true},
		{"project", kb.LessonFilter{Project: "shop"}, true, false},
		{"global ignores project", kb.LessonFilter{Global: true, Project: "shop"}, false, true},
		{"states", kb.LessonFilter{States: []kb.State{kb.StatePending}}, false, true},
		{"origin", kb.LessonFilter{Origin: kb.OriginUserStated}, true, false},
	} {
		if got := tc.f.Matches(shop); got != tc.shop {
			t.Errorf("%s: shop lesson %v, want %v", tc.name, got, tc.shop)
		}
		if got := tc.f.Matches(global); got != tc.global {
			t.Errorf("%s: global lesson %v, want %v", tc.name, got, tc.global)
		}
	}
}
