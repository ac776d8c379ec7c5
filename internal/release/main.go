// Command release builds innate-mcp's release into an output directory:
// static binaries (CGO_ENABLED=0, -trimpath, stripped, the version stamped
// in with -X main.version) for linux, darwin and windows on amd64 and
// arm64; one archive per target (tar.gz, zip for windows); SHA256SUMS over
// the archives; and the npm packages: the launcher `innate-mcp` and one
// package per platform (@innate-mcp/linux-x64, …) holding its binary,
// generated from the templates in npm/.
//
// Run it from the repository's root:
//
//	go run ./internal/release -version 0.2.0 -out dist
//	go run ./internal/release -version 0.2.0 -out dist -targets host
//
// The output is reproducible: the same source, version and Go toolchain
// give byte-identical binaries and archives (archive entries sorted, with
// fixed times, owners and modes; SOURCE_DATE_EPOCH sets the time). Nothing
// is published: `npm publish DIR` on each directory under OUT/npm
// (platforms first, the launcher last) does that.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// run parses the command line and builds the release.
func run(ctx context.Context, args []string, getenv func(string) string, stderr io.Writer) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	fs.SetOutput(stderr)
	version := fs.String("version", "", "the version to stamp in and give the npm packages (semantic version, e.g. 0.2.0; a leading v is dropped)")
	out := fs.String("out", "dist", "the output directory: absent or empty")
	src := fs.String("src", ".", "the repository's root (where go.mod and npm/ are)")
	targets := fs.String("targets", "all", `what to build: "all" (the six targets), "host" (this machine's), or a comma-separated list such as linux/amd64,darwin/arm64`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: unexpected argument %q", flag.ErrHelp, fs.Arg(0))
	}
	if *version == "" {
		fs.Usage()
		return fmt.Errorf("%w: -version is required (e.g. -version 0.2.0)", flag.ErrHelp)
	}
	ts, err := parseTargets(*targets)
	if err != nil {
		return err
	}
	mtime, err := sourceDate(getenv("SOURCE_DATE_EPOCH"))
	if err != nil {
		return err
	}
	_, err = Build(ctx, Options{
		Src:      *src,
		Out:      *out,
		Version:  strings.TrimPrefix(*version, "v"),
		Targets:  ts,
		MTime:    mtime,
		Progress: stderr,
	})
	return err
}

// defaultMTime is the time given to every archive entry when
// SOURCE_DATE_EPOCH is not set.
func defaultMTime() time.Time { return time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC) }

// sourceDate reads SOURCE_DATE_EPOCH (seconds since 1970), the
// reproducible-builds convention for the time stamped into archives.
func sourceDate(env string) (time.Time, error) {
	if env == "" {
		return defaultMTime(), nil
	}
	s, err := strconv.ParseInt(env, 10, 64)
	if err != nil || s < 315532800 { // zip cannot store times before 1980
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: want seconds since 1970, from 1980 on (e.g. git log -1 --format=%%ct)", env)
	}
	return time.Unix(s, 0).UTC(), nil
}

// parseTargets reads the -targets flag.
func parseTargets(s string) ([]Target, error) {
	switch s {
	case "all":
		return AllTargets(), nil
	case "host":
		return []Target{{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH}}, nil
	}
	var ts []Target
	for _, f := range strings.Split(s, ",") {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(f), "/")
		t := Target{GOOS: goos, GOARCH: goarch}
		if !ok || !t.supported() {
			return nil, fmt.Errorf("-targets: %q is not one of all, host or %s", f, strings.Join(targetNames(AllTargets()), ", "))
		}
		ts = append(ts, t)
	}
	return ts, nil
}
