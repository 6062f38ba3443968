// Package postgres opens the hub's database in PostgreSQL, for hubs that
// run as several processes on one database. The queries, the migrations
// and the methods of the [sqldb.DB] it returns are those of the SQLite
// store, in package sqldb; what is PostgreSQL's lives here.
//
// Every hub applies the migrations it lacks when it opens the database,
// one at a time under an advisory lock, so hubs started together do not
// race to create the schema. A submission is committed before the hub
// answers: connections run with synchronous_commit on unless the server
// or the URL chose another durable level.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// lockID names the advisory lock held while migrating: the CRC-32 of
// "hubform", distinct from goose's default so that another program using
// goose on the same database does not wait for the hub, nor it for them.
const lockID = 0xeee447f0

// Open connects to the PostgreSQL database at url, a postgres:// URL or a
// key=value connection string as libpq takes them, and applies the
// migrations it lacks. The database must exist; its schema is created in
// the connection's search path (normally public).
func Open(ctx context.Context, url string) (*sqldb.DB, error) {
	pool, err := openPool(ctx, url, false)
	if err != nil {
		return nil, err
	}
	// Hubs wait their turn at a second's intervals, for five minutes
	// at most; a migration takes far less.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(lockID), lock.WithLockTimeout(1, 300))
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	d := sqldb.Dialect{Name: "postgres", Goose: goose.DialectPostgres, Locker: locker, Search: sqldb.PgTrgmIndex, CountSlots: true, Full: diskFull}
	if err := sqldb.Migrate(ctx, d, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: migrate: %w", err)
	}
	return sqldb.New(d, pool, nil), nil
}

// OpenReadOnly connects to the PostgreSQL database at url for reading
// only: every transaction is read-only, so the server itself refuses
// writes. It applies no migrations and fails if the schema is older than
// this package's.
func OpenReadOnly(ctx context.Context, url string) (*sqldb.DB, error) {
	pool, err := openPool(ctx, url, true)
	if err != nil {
		return nil, err
	}
	d := sqldb.Dialect{Name: "postgres", Goose: goose.DialectPostgres, Search: sqldb.PgTrgmIndex, CountSlots: true, Full: diskFull}
	if err := sqldb.CheckVersion(ctx, d, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open read-only: %w", err)
	}
	return sqldb.New(d, nil, pool), nil
}

// openPool returns a pool of connections to url, having made one.
func openPool(ctx context.Context, url string, readOnly bool) (*sql.DB, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		// The error does not repeat the URL, which may hold a password.
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if readOnly {
		cfg.RuntimeParams["default_transaction_read_only"] = "on"
	}
	// The best plan of the hub's searches depends on their arguments: a
	// term in ten submissions is read from the search index, one in most
	// of them from the newest submissions. A prepared statement's generic
	// plan, which PostgreSQL may switch to after five executions, knows
	// neither; planning each time costs a fraction of a millisecond.
	if _, set := cfg.RuntimeParams["plan_cache_mode"]; !set {
		cfg.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	pool := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(durable))
	// Unlike SQLite, PostgreSQL runs writers side by side, so one pool
	// serves reads and writes. Its size bounds what one hub asks of the
	// server's max_connections (100 by default), with several hubs in mind.
	n := max(8, 4*runtime.GOMAXPROCS(0))
	pool.SetMaxOpenConns(n)
	pool.SetMaxIdleConns(n)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	if err := pool.PingContext(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	return pool, nil
}

// durable turns synchronous_commit on for a new connection if the server
// or the URL turned it off: the hub answers ok only for a submission that
// would survive a crash. The other levels (local, remote_write, on,
// remote_apply) all wait for the local disk at least, and are kept.
func durable(ctx context.Context, conn *pgx.Conn) error {
	_, err := conn.Exec(ctx, `SELECT set_config('synchronous_commit', 'on', false) WHERE current_setting('synchronous_commit') = 'off'`)
	return err
}

// diskFull reports whether err is PostgreSQL's disk_full (53100).
func diskFull(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "53100"
}
