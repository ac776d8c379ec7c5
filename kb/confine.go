package kb

import (
	"context"
	"slices"
)

// confineKey is the context key of a confinement to projects.
type confineKey struct{}

// ConfineTo returns a context in which the knowledge base's answers
// (recall, appraise, hesitate) draw only on the lessons of the given
// projects and on global lessons: a team server's token limited to
// projects reads nothing of another project, not even as a contributor to
// a verdict. No projects: no confinement.
func ConfineTo(ctx context.Context, projects []string) context.Context {
	if len(projects) == 0 {
		return ctx
	}
	return context.WithValue(ctx, confineKey{}, slices.Clone(projects))
}

// visible reports whether a lesson may be drawn on in ctx.
func visible(ctx context.Context, l Lesson) bool {
	projects, ok := ctx.Value(confineKey{}).([]string)
	return !ok || l.Project == "" || slices.Contains(projects, l.Project)
}
