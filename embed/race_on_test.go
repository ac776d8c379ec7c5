//go:build race

package embed

// raceEnabled: the race detector slows the portable kernel ~20x, so slow
// tests check fewer texts.
const raceEnabled = true
