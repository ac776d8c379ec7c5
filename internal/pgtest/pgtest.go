// Package pgtest starts a throwaway PostgreSQL cluster for tests: initdb
// and pg_ctl in a temporary directory, on 127.0.0.1 and a free port, as an
// unprivileged user (PostgreSQL refuses to run as root), stopped and
// removed when the test ends. Tests that need it are skipped where
// PostgreSQL is not installed; `.ci/run` installs it (Debian postgresql).
package pgtest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cluster is a running throwaway cluster.
type Cluster struct {
	// DSN connects to its database "postgres" as its superuser, over TCP
	// on 127.0.0.1 with no password (trust authentication, loopback only).
	DSN  string
	Port int
	// Bin is the directory of the PostgreSQL programs (psql among them).
	Bin  string
	User string
}

// binDirs are where Debian and other systems keep the server programs.
var binDirs = []string{"/usr/lib/postgresql/*/bin", "/usr/local/pgsql/bin", "/usr/pgsql-*/bin", "/opt/homebrew/opt/postgresql@*/bin", "/usr/local/opt/postgresql@*/bin"}

// findBin returns the directory holding initdb and pg_ctl, the newest
// version first, or "".
func findBin() string {
	if p, err := exec.LookPath("pg_ctl"); err == nil {
		if _, err := exec.LookPath("initdb"); err == nil {
			// Links (as /usr/local/bin may hold) lead to the directory
			// with the other programs.
			if r, err := filepath.EvalSymlinks(p); err == nil {
				p = r
			}
			return filepath.Dir(p)
		}
	}
	for _, pat := range binDirs {
		m, _ := filepath.Glob(pat)
		for i := len(m) - 1; i >= 0; i-- {
			if _, err := os.Stat(filepath.Join(m[i], "pg_ctl")); err == nil {
				return m[i]
			}
		}
	}
	return ""
}

// RequireEnv names the environment variable that turns a skip into a
// failure: CI sets it where PostgreSQL is installed, so that its tests can
// never be skipped there unnoticed.
const RequireEnv = "INNATE_REQUIRE_POSTGRES"

// skip skips t saying why, or fails it when RequireEnv is set.
func skip(t testing.TB, why string) {
	t.Helper()
	if os.Getenv(RequireEnv) != "" {
		t.Fatalf("%s is set but PostgreSQL cannot run: %s", RequireEnv, why)
	}
	t.Skip(why)
}

// Start starts a cluster for t and stops it when t ends. It skips t when
// PostgreSQL is not installed, and fails it when the cluster cannot start.
func Start(t testing.TB) *Cluster {
	t.Helper()
	bin := findBin()
	if bin == "" {
		skip(t, "PostgreSQL is not installed (Debian: apt-get install postgresql-15)")
	}
	dir, err := os.MkdirTemp("", "innate-pg-*")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	run, owner, err := asUser(dir)
	if err != nil {
		skip(t, err.Error())
	}
	data := filepath.Join(dir, "data")
	if out, err := run(filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	opts := fmt.Sprintf("-c listen_addresses=127.0.0.1 -c port=%d -c unix_socket_directories=%s -c fsync=off -c full_page_writes=off -c synchronous_commit=off", port, dir)
	logFile := filepath.Join(dir, "pg.log")
	if out, err := run(filepath.Join(bin, "pg_ctl"), "-D", data, "-l", logFile, "-o", opts, "-w", "-t", "60", "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(logFile)
		t.Fatalf("pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	t.Cleanup(func() {
		if out, err := run(filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop").CombinedOutput(); err != nil {
			t.Logf("pg_ctl stop: %v\n%s", err, out)
		}
	})
	return &Cluster{
		DSN:  fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port),
		Port: port, Bin: bin, User: owner,
	}
}

// asUser returns how to run the server programs: directly when this
// process is not root, else as the user "postgres" (or nobody) through
// runuser or su, with dir handed to that user.
func asUser(dir string) (func(name string, args ...string) *exec.Cmd, string, error) {
	if os.Geteuid() != 0 {
		u, _ := user.Current()
		name := ""
		if u != nil {
			name = u.Username
		}
		return exec.Command, name, nil
	}
	var u *user.User
	for _, name := range []string{"postgres", "nobody"} {
		if v, err := user.Lookup(name); err == nil {
			u = v
			break
		}
	}
	if u == nil {
		return nil, "", errors.New("running as root and there is no postgres or nobody user to run PostgreSQL as")
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, "", err
	}
	wrap, err := exec.LookPath("runuser")
	useRunuser := err == nil
	if !useRunuser {
		if wrap, err = exec.LookPath("su"); err != nil {
			return nil, "", errors.New("running as root without runuser or su to run PostgreSQL as another user")
		}
	}
	return func(name string, args ...string) *exec.Cmd {
		if useRunuser {
			return exec.Command(wrap, append([]string{"-u", u.Username, "--", name}, args...)...)
		}
		q := make([]string, 0, len(args)+1)
		for _, a := range append([]string{name}, args...) {
			q = append(q, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
		}
		return exec.Command(wrap, "-s", "/bin/sh", u.Username, "-c", strings.Join(q, " "))
	}, u.Username, nil
}

// freePort returns a TCP port on 127.0.0.1 that nothing listens on now.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// Psql runs SQL through psql against the cluster and returns its output
// (unaligned, tuples only).
func (c *Cluster) Psql(sql string) (string, error) {
	psql := filepath.Join(c.Bin, "psql")
	if _, err := os.Stat(psql); err != nil {
		if psql, err = exec.LookPath("psql"); err != nil {
			return "", errors.New("psql is not installed")
		}
	}
	cmd := exec.Command(psql, "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", c.DSN, "-c", sql)
	cmd.Env = append(os.Environ(), "PGCONNECT_TIMEOUT=10")
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-done
		return string(out), errors.New("psql: no answer in 30 s")
	}
	return strings.TrimSpace(string(out)), err
}

// NewDatabase creates an empty database of that name in the cluster and
// returns its DSN. Tests that need several independent stores create one
// each.
func (c *Cluster) NewDatabase(t testing.TB, name string) string {
	t.Helper()
	if out, err := c.Psql(`CREATE DATABASE ` + name); err != nil {
		t.Fatalf("create database %s: %v\n%s", name, err, out)
	}
	return strings.Replace(c.DSN, "/postgres?", "/"+name+"?", 1)
}
