// Package kb is the domain of innate-mcp: lessons, situations, traces and the
// recall and record operations over them, with the small interfaces it needs
// from the outside (a Store, an Embedder). It never touches SQL or the network
// itself: storage/ implements Store, embed/ implements Embedder.
//
// A KB is safe for concurrent use by several goroutines, and several
// processes may share one database: every write is a short transaction in
// the Store, and every read sees the other processes' committed writes.
package kb
