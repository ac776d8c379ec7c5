//go:build !race

package main

// startupLessons is the database size TestStartup_largeDatabase spawns the
// server on.
const startupLessons = 10_000
