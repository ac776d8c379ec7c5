// Package rulefile parses the rule files people write for coding agents
// (CLAUDE.md, AGENTS.md, GEMINI.md, .cursorrules, Cursor .mdc rules and other
// Markdown rule files) into lessons, one per rule.
//
// A rule is a list item (with its continuation lines and nested sub-items)
// or a paragraph; code blocks stay with the rule they illustrate, and a fenced
// block is never split. Headings, front matter (description, globs,
// alwaysApply, applyTo) and the file's folder give each rule its trigger and
// tags. Tables of contents, pure link lists and empty items are skipped; very
// short items merge with their heading.
//
// Parsing is pure: no I/O, no mutable global state, safe for concurrent use.
package rulefile
