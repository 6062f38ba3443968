package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// dialect is SQLite's.
var dialect = sqldb.Dialect{Name: "sqlite", Goose: goose.DialectSQLite3, BatchWrites: true, Search: sqldb.FTS5Index, Full: diskFull}

// diskFull reports whether err is SQLite's SQLITE_FULL, whatever its
// extended code: the disk, or the file system's quota, has no room.
func diskFull(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_FULL
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

// Open opens the database file at path, creating it and its parent
// directories if needed, and applies the migrations it lacks. A file it
// creates is readable and writable by its owner only.
func Open(ctx context.Context, path string) (*sqldb.DB, error) {
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

	// One connection writes. SQLite admits one writer at a time;
	// queueing writers in the pool rather than in SQLite's busy handler
	// keeps them in order and never fails one with SQLITE_BUSY.
	w, err := openPool(ctx, path, readWrite)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	if err := sqldb.Migrate(ctx, dialect, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: migrate %s: %w", path, err)
	}
	// The others only read; in WAL mode they neither wait for the writer
	// nor hold it up, and query_only keeps them from taking its lock.
	r, err := openPool(ctx, path, readWrite+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	return sqldb.New(dialect, w, r), nil
}

// OpenReadOnly opens the existing database file at path for reading only,
// as a second process may while a hub serves the file. It applies no
// migrations and fails if the file is missing or its schema is older than
// this package's.
func OpenReadOnly(ctx context.Context, path string) (*sqldb.DB, error) {
	// SQLite's error for a missing file does not say which; os.Stat does.
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("sqlite: open %s read-only: %w", path, err)
	}
	r, err := openPool(ctx, path, readOnly)
	if err != nil {
		return nil, err
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	if err := sqldb.CheckVersion(ctx, dialect, r); err != nil {
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s read-only: %w", path, err)
	}
	return sqldb.New(dialect, nil, r), nil
}

// openPool opens a connection pool on path with the given URI query and
// checks that a connection can be made.
func openPool(ctx context.Context, path, query string) (*sql.DB, error) {
	dsn, err := fileDSN(path, query)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	connector, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	pool := sql.OpenDB(cachingConnector{connector})
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

// Snapshot writes a copy of the database at path as of one moment to the
// new file to, while hubs read and write it, and returns the copy's
// migration version. It copies the file's pages (SQLite's online backup)
// in one read transaction: the hub's log cannot start over while a reader
// holds its view, and every write meanwhile grows the log's file, so the
// shorter the view is held the less the hub's commits pay; rebuilding the
// tables and their indexes (VACUUM INTO) held it several times longer. It
// reads through a connection of its own, as the hub's readers may not
// write even another file. The copy is made private.
func Snapshot(ctx context.Context, path, to string) (int64, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, fmt.Errorf("sqlite: snapshot of %s: %w", path, err)
	}
	// The copy's own file, new, and private before SQLite writes it.
	f, err := os.OpenFile(to, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("sqlite: snapshot into %s: %w", to, err)
	}
	f.Close()
	// Read once whole and summed: no journal and no sync of it is worth
	// the disk's time, which the hub's own commits need.
	toDSN, err := fileDSN(to, "_pragma=journal_mode(OFF)&_pragma=synchronous(OFF)")
	if err != nil {
		return 0, err
	}
	pool, err := openPool(ctx, path, readOnly)
	if err != nil {
		return 0, err
	}
	defer pool.Close()
	conn, err := pool.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN`); err != nil {
		return 0, fmt.Errorf("sqlite: snapshot of %s: %w", path, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
	// The version read starts the transaction the pages are copied in.
	var version int64
	err = conn.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM goose_db_version WHERE is_applied`).Scan(&version)
	if err != nil {
		return 0, fmt.Errorf("sqlite: migration version: %w", err)
	}
	err = conn.Raw(func(dc any) error {
		if c, ok := dc.(*cachingConn); ok {
			dc = c.sqliteConn
		}
		src, ok := dc.(interface {
			NewBackup(string) (*sqlite.Backup, error)
		})
		if !ok {
			return fmt.Errorf("connection %T cannot back up", dc)
		}
		b, err := src.NewBackup(toDSN)
		if err != nil {
			return err
		}
		_, err = b.Step(-1)
		if ferr := b.Finish(); err == nil {
			err = ferr
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: snapshot into %s: %w", to, err)
	}
	return version, nil
}
