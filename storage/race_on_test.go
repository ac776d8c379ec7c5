//go:build race

package storage

// raceEnabled is true under the race detector, which slows SQLite some
// 15×: the soak then makes soakRaceCalls calls with a smaller retention.
const raceEnabled = true
