// Package action reads what a coding agent is about to do, as syntax rather
// than prose: a shell command parsed with mvdan.cc/sh/v3/syntax into the
// programs it runs (pipelines, lists, subshells, command substitutions,
// environment assignments and redirections), wrappers unwrapped (sudo, env,
// time, xargs, `bash -c '…'`, and runners such as npx, pnpm dlx, uv run and
// poetry run); the files it writes (a file tool's path and new text, and
// through the shell `>`/`>>`, tee, sed -i, cp, mv, rm, touch, mkdir); and
// the commit messages and pull-request titles it writes (git commit -m/-F,
// gh pr create --title).
//
// Paths are made relative to the project root, so nothing read here
// depends on where a checkout sits on disk. A command that does not parse
// reads as nothing (Action.Parsed is false): a hook fails open. What the
// shell would only know when it runs (an expansion, `$(…)` other than a
// here-document read by cat) is unknown, never a guess.
//
// Everything here is pure, deterministic and safe for concurrent use.
package action
