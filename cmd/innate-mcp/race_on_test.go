//go:build race

package main

// startupLessons is the database size TestStartup_largeDatabase spawns the
// server on. Under the race detector, which slows building the database
// many times over, the test checks the handshake on 2,000 lessons; the
// figure for 10k lessons comes from BenchmarkStartup, run without it.
const startupLessons = 2_000

// cursorrulesLessons is how many of the cursorrules lessons
// TestStats_cursorrulesPlusReplay builds its database from. Under the race
// detector, which makes importing them the bulk of the package's test
// time, it takes the first 250; without it, all of them.
const cursorrulesLessons = 250
