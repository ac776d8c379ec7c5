//go:build race

package main

// startupLessons is the database size TestStartup_largeDatabase spawns the
// server on. Under the race detector, which slows building the database
// some 15×, the test checks the handshake on 2,000 lessons; the 10k figure
// comes from BenchmarkStartup, run without it.
const startupLessons = 2_000
