// Package setup registers innate-mcp with the agent clients a user has
// installed (Claude Code, Cursor, Codex CLI, Gemini CLI, VS Code, Windsurf)
// and installs Claude Code's hooks, by editing each client's documented
// configuration file, or through the client's own CLI where it has one.
//
// Every edit is a splice: setup owns exactly its entries (the "innate"
// server, its hook groups) and leaves every other byte of a file as it
// was, comments included. It is idempotent, writes a backup beside each
// file it changes, never leaves a half-written file, and its uninstall
// removes exactly what it added: the original bytes when nothing else
// changed the file since, else only innate's entries.
package setup
