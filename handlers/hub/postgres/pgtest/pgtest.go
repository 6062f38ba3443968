// Package pgtest gives tests a PostgreSQL database of their own.
//
// [URL] creates a new, empty database for each test. The databases live on
// the server $HUBFORM_POSTGRES_URL names (a postgres:// URL of a role that
// may create databases), or else on a private server that pgtest starts
// from the Debian packages' binaries (/usr/lib/postgresql/*/bin), once per
// test binary, on a free loopback port with its data in a temporary
// directory. Without either, tests calling URL are skipped, unless
// HUBFORM_POSTGRES_TESTS=1, which makes a missing PostgreSQL a failure.
//
// A package whose tests use URL stops the private server when they end:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// or calls [Stop] after m.Run in a TestMain of its own. A server left
// running is still stopped when the test binary exits, but its temporary
// directory stays behind.
package pgtest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

// Environment variables pgtest reads.
const (
	// EnvURL names a server to use instead of starting one.
	EnvURL = "HUBFORM_POSTGRES_URL"
	// EnvRequire, set to 1, fails tests that would be skipped for want
	// of PostgreSQL.
	EnvRequire = "HUBFORM_POSTGRES_TESTS"
)

var (
	mu     sync.Mutex
	admin  *sql.DB // connected to the server's maintenance database
	base   *url.URL
	local  *server // the private server, if one was started
	failed error   // why the server is unavailable, once known
)

// URL returns the URL of a new, empty database, which is dropped when t
// and its subtests end. It skips t, or fails it under
// HUBFORM_POSTGRES_TESTS=1, when there is no PostgreSQL to use.
func URL(t testing.TB) string {
	t.Helper()
	db, u, err := connect()
	if errors.Is(err, errNoPostgres) && os.Getenv(EnvRequire) != "1" {
		t.Skipf("pgtest: %v (set %s=1 to make this a failure)", err, EnvRequire)
	}
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	var b [8]byte
	rand.Read(b[:])
	name := "hubform_test_" + hex.EncodeToString(b[:])
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The name is ours, letters and digits only: safe to splice in.
	if _, err := db.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		t.Fatalf("pgtest: create database: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		// FORCE ends the sessions of handles the test did not close.
		if _, err := db.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("pgtest: drop database %s: %v", name, err)
		}
	})
	dbURL := *u
	dbURL.Path = "/" + name
	return dbURL.String()
}

// Main runs the tests, stops the private server, if one was started, and
// exits with the tests' status.
func Main(m *testing.M) {
	code := m.Run()
	Stop()
	os.Exit(code)
}

// Stop stops the private server, if one was started, and deletes its
// data. Databases handed out before are gone; a later URL starts a new
// server.
func Stop() {
	mu.Lock()
	defer mu.Unlock()
	if admin != nil {
		admin.Close()
		admin = nil
	}
	if local != nil {
		if err := local.stop(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: %v\n", err)
		}
		local = nil
	}
	base, failed = nil, nil
}

// errNoPostgres means neither a server URL nor PostgreSQL's binaries were
// found.
var errNoPostgres = errors.New("no PostgreSQL: set " + EnvURL + " or install postgresql (make postgres)")

// connect returns a connection to the server's maintenance database and
// its URL, starting the private server on first use.
func connect() (*sql.DB, *url.URL, error) {
	mu.Lock()
	defer mu.Unlock()
	if admin != nil || failed != nil {
		return admin, base, failed
	}
	raw := os.Getenv(EnvURL)
	if raw == "" {
		local, failed = start()
		if failed != nil {
			return nil, nil, failed
		}
		raw = local.url
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		// The message leaves out the URL, which may hold a password.
		failed = fmt.Errorf("%s is not a postgres:// URL", EnvURL)
		return nil, nil, failed
	}
	db, err := sql.Open("pgx", raw)
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err = db.PingContext(ctx)
		cancel()
	}
	if err != nil {
		failed = fmt.Errorf("connect: %w", err)
		return nil, nil, failed
	}
	admin, base = db, u
	return admin, base, nil
}

// server is a private PostgreSQL server.
type server struct {
	dir  string // holds the data directory, the socket and the log
	url  string
	cmd  *exec.Cmd
	done chan error // receives the result of cmd.Wait
}

// binDir returns the directory of the newest PostgreSQL's binaries that
// Debian's packages installed.
func binDir() (string, error) {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", errNoPostgres
	}
	version := func(p string) int {
		n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(p))))
		return n
	}
	slices.SortFunc(found, func(a, b string) int { return version(a) - version(b) })
	return filepath.Dir(found[len(found)-1]), nil
}

// start initializes a cluster in a new temporary directory and starts a
// server on it, listening on a free loopback port and a socket in that
// directory only.
func start() (*server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	// PostgreSQL refuses to run as root; tests often are. Run it as the
	// postgres user the package created instead.
	var cred *syscall.Credential
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root, but: %w", err)
		}
		uid, _ := strconv.ParseUint(u.Uid, 10, 32)
		gid, _ := strconv.ParseUint(u.Gid, 10, 32)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "hubform-pgtest-")
	if err != nil {
		return nil, err
	}
	if cred != nil {
		if err := os.Chown(dir, int(cred.Uid), int(cred.Gid)); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
	}
	s := &server{dir: dir}
	data := filepath.Join(dir, "data")
	// --no-sync only skips syncing initdb's own files; the server below
	// syncs its commits. The C locale makes text sort by bytes, so results
	// do not depend on the machine's locales.
	initdb := command(cred, dir, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "--no-locale", "--encoding=UTF8", "--no-sync")
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// A port found free may be taken before the server binds it; try
	// again with another.
	for range 3 {
		if err = s.run(cred, bin, data); err == nil {
			return s, nil
		}
	}
	os.RemoveAll(dir)
	return nil, err
}

// run starts the server on a free port and waits until it accepts
// connections.
func (s *server) run(cred *syscall.Credential, bin, data string) error {
	addr, err := testkit.FreeAddr()
	if err != nil {
		return err
	}
	_, port, _ := net.SplitHostPort(addr)
	logPath := filepath.Join(s.dir, "server.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer logFile.Close()
	s.cmd = command(cred, s.dir, filepath.Join(bin, "postgres"), "-D", data,
		"-c", "listen_addresses=127.0.0.1", "-p", port,
		"-c", "unix_socket_directories="+s.dir,
		// Commits reach the disk, as in production: tests of durable
		// submissions mean nothing otherwise.
		"-c", "fsync=on", "-c", "synchronous_commit=on",
		// Room for the pools of several hubs under test; PostgreSQL's
		// own default of shared buffers (at 32 MB, a benchmark's writes
		// of 20,000 submissions evicted each other's pages, and measured
		// that more than the writes).
		"-c", "max_connections=300", "-c", "shared_buffers=128MB")
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	// If the test binary dies without calling Stop, the kernel tells the
	// server to shut down. It sends the signal when the thread that
	// started the server exits, so that thread stays locked to a
	// goroutine that lives as long as the server.
	s.cmd.SysProcAttr.Pdeathsig = syscall.SIGINT
	started := make(chan error, 1)
	s.done = make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := s.cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		s.done <- s.cmd.Wait()
	}()
	if err := <-started; err != nil {
		return fmt.Errorf("starting postgres: %w", err)
	}
	s.url = "postgres://postgres@" + addr + "/postgres?sslmode=disable"
	db, err := sql.Open("pgx", s.url)
	if err != nil {
		s.halt()
		return err
	}
	defer db.Close()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case werr := <-s.done:
			s.done <- werr // for stop
			log, _ := os.ReadFile(logPath)
			return fmt.Errorf("postgres exited: %v\n%s", werr, log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			s.halt()
			return fmt.Errorf("postgres not ready after 30s: %v\n%s", err, log)
		}
	}
}

// stop shuts the server down and deletes its directory.
func (s *server) stop() error {
	defer os.RemoveAll(s.dir)
	return s.halt()
}

// halt shuts the server down, fast: sessions are ended, not waited for.
func (s *server) halt() error {
	if s.cmd == nil || s.cmd.Process == nil {
		return nil
	}
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.done:
		return nil
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return errors.New("postgres did not shut down within 20s; killed")
	}
}

// command returns a command running as cred, when set, in dir, with an
// environment of its own: PG* variables of the tests' must not reach it.
func command(cred *syscall.Credential, dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=/usr/bin:/bin", "LC_ALL=C", "TZ=UTC"}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	return cmd
}
