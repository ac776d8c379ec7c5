//go:build !race

package main

// startupLessons is the database size TestStartup_largeDatabase spawns the
// server on.
const startupLessons = 10_000

// cursorrulesLessons is how many of the cursorrules lessons
// TestStats_cursorrulesPlusReplay builds its database from: 0 for all.
const cursorrulesLessons = 0
