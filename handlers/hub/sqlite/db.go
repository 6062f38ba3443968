package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	_ "modernc.org/sqlite"
)

//go:embed migrations/*.sql
var migrationsFS embed.FS

// DB is a hub database. It is safe for concurrent use.
type DB struct {
	// w holds the only connection that writes. SQLite admits one writer
	// at a time; queueing writers in the pool rather than in SQLite's busy
	// handler keeps them in order and never fails one with SQLITE_BUSY. w is nil
	// when the database was opened read-only.
	w *sql.DB
	// r holds the connections that only read; in WAL mode they neither
	// wait for the writer nor hold it up.
	r *sql.DB
}

// Connection settings. busy_timeout covers other processes holding the
// write lock. WAL lets readers and the writer proceed together, and FULL
// syncs the log at every commit, so a commit survives power loss.
// _txlock=immediate takes the write lock when a transaction begins, so two
// transactions never deadlock upgrading a read lock.
const (
	readWrite = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)&_txlock=immediate"
	// readOnly leaves the journal mode as the file has it: setting it
	// would be a write.
	readOnly = "_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&mode=ro"
)

// errReadOnly is returned by the writing methods of a DB opened with
// OpenReadOnly.
var errReadOnly = errors.New("sqlite: database is open read-only")

// Open opens the database file at path, creating it and its parent
// directories if needed, and applies the migrations it lacks. A file it
// creates is readable and writable by its owner only.
func Open(ctx context.Context, path string) (*DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// Submissions hold personal data: create the file private, before
	// SQLite creates it with the default mode. SQLite gives its -wal and
	// -shm files the mode of the database file.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	f.Close()

	db := &DB{}
	if db.w, err = openPool(ctx, path, readWrite); err != nil {
		return nil, err
	}
	db.w.SetMaxOpenConns(1)
	if err := migrate(ctx, db.w); err != nil {
		db.w.Close()
		return nil, fmt.Errorf("sqlite: migrate %s: %w", path, err)
	}
	if db.r, err = openPool(ctx, path, readWrite+"&_pragma=query_only(1)"); err != nil {
		db.w.Close()
		return nil, err
	}
	db.r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	return db, nil
}

// OpenReadOnly opens the existing database file at path for reading only,
// as a second process may while a hub serves the file. It applies no
// migrations and fails if the file is missing or its schema is older than
// this package's.
func OpenReadOnly(ctx context.Context, path string) (*DB, error) {
	// SQLite's error for a missing file does not say which; os.Stat does.
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("sqlite: open %s read-only: %w", path, err)
	}
	r, err := openPool(ctx, path, readOnly)
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	if err := checkVersion(ctx, r); err != nil {
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s read-only: %w", path, err)
	}
	return &DB{r: r}, nil
}

// Close closes the database.
func (db *DB) Close() error {
	var errs []error
	if db.w != nil {
		errs = append(errs, db.w.Close())
	}
	errs = append(errs, db.r.Close())
	return errors.Join(errs...)
}

// writer returns the pool that writes, or errReadOnly.
func (db *DB) writer() (*sql.DB, error) {
	if db.w == nil {
		return nil, errReadOnly
	}
	return db.w, nil
}

// openPool opens a connection pool on path with the given URI query and
// checks that a connection can be made.
func openPool(ctx context.Context, path, query string) (*sql.DB, error) {
	dsn, err := fileDSN(path, query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	pool, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	return pool, nil
}

// fileDSN returns the file: URI of path with the given query. The path is
// made absolute and percent-encoded, so names holding '?', '#' or '%' reach
// SQLite intact.
func fileDSN(path, query string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		// A Windows path: file:///C:/dir/hub.db.
		p = "/" + p
	}
	u := url.URL{Scheme: "file", Path: p, RawQuery: query}
	return u.String(), nil
}

// migrations returns the embedded migrations' file system.
func migrations() fs.FS {
	sub, err := fs.Sub(migrationsFS, "migrations")
	if err != nil {
		panic(err) // the directory is embedded; it cannot be missing
	}
	return sub
}

// migrate applies the embedded migrations the database lacks.
func migrate(ctx context.Context, pool *sql.DB) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, pool, migrations())
	if err != nil {
		return err
	}
	_, err = p.Up(ctx)
	return err
}

// checkVersion reports an error unless the database's schema is at least
// as new as the embedded migrations. It only reads: goose's own version
// queries would try to create a missing version table.
func checkVersion(ctx context.Context, pool *sql.DB) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, pool, migrations())
	if err != nil {
		return err
	}
	sources := p.ListSources()
	want := sources[len(sources)-1].Version
	store, err := database.NewStore(goose.DialectSQLite3, goose.DefaultTablename)
	if err != nil {
		return err
	}
	have, err := store.GetLatestVersion(ctx, pool)
	if err != nil {
		return fmt.Errorf("reading schema version (not a hub database?): %w", err)
	}
	if have < want {
		return fmt.Errorf("schema version %d is older than %d; open it once read-write (start the hub) to migrate it", have, want)
	}
	return nil
}
