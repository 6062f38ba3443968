package delivery

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// migrateLockID names the advisory lock held while River's tables are
// migrated on PostgreSQL, so hubs started together do not race.
const migrateLockID = 0x68756271 // "hubq"

// Options of OpenSQLite and OpenPostgres.
type Options struct {
	// Work, when false, opens the queue to insert, list and retry jobs
	// only, as the command line does; Start is then not to be called.
	Work bool
}

// OpenSQLite opens the queue in the SQLite database db writes to,
// creating or migrating River's tables first.
func OpenSQLite(ctx context.Context, db *sqldb.DB, cfg Config, o Options) (*Queue, error) {
	pool := db.Writer()
	if pool == nil {
		return nil, errors.New("delivery: the database is open read-only")
	}
	driver := riversqlite.New(pool)
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return nil, fmt.Errorf("delivery: migrate: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return nil, fmt.Errorf("delivery: migrate: %w", err)
	}
	q := newQueue(cfg)
	client, err := river.NewClient(driver, q.riverConfig(o.Work))
	if err != nil {
		return nil, fmt.Errorf("delivery: %w", err)
	}
	q.river, q.exec = client, driver.GetExecutor()
	// River's fast insert, in the submission's transaction all the same:
	// it returns no rows (the hook needs none) and handles no unique jobs
	// (deliveries are none), and so holds SQLite's one writer for less
	// time than InsertManyTx does (see BenchmarkDeliveries).
	q.insert = func(ctx context.Context, tx sqldb.Tx, params []river.InsertManyParams) error {
		_, err := client.InsertManyFastTx(ctx, tx.Tx, params)
		return err
	}
	return q, nil
}

// OpenPostgres opens the queue in the PostgreSQL database at url, the
// hub's database, creating or migrating River's tables first. The queue
// has a pool of its own; the submissions' transactions reach River through
// the driver connection they run on.
func OpenPostgres(ctx context.Context, url string, cfg Config, o Options) (*Queue, error) {
	pcfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		// The error does not repeat the URL, which may hold a password.
		return nil, fmt.Errorf("delivery: %w", err)
	}
	pcfg.MaxConns = int32(max(4, cfg.Workers/2))
	pool, err := pgxpool.NewWithConfig(ctx, pcfg)
	if err != nil {
		return nil, fmt.Errorf("delivery: %w", err)
	}
	driver := riverpgxv5.New(pool)
	if err := migratePostgres(ctx, pool, driver); err != nil {
		pool.Close()
		return nil, err
	}
	q := newQueue(cfg)
	client, err := river.NewClient(driver, q.riverConfig(o.Work))
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("delivery: %w", err)
	}
	q.river, q.exec = client, driver.GetExecutor()
	q.close = pool.Close
	q.insert = func(ctx context.Context, tx sqldb.Tx, params []river.InsertManyParams) error {
		return tx.Raw(func(dc any) error {
			c, ok := dc.(*stdlib.Conn)
			if !ok {
				return fmt.Errorf("the database connection is a %T, not pgx's", dc)
			}
			// Not the fast insert, which is a COPY on PostgreSQL: for the
			// few jobs of one submission, no cheaper than an INSERT.
			_, err := client.InsertManyTx(ctx, connTx{c.Conn()}, params)
			return err
		})
	}
	return q, nil
}

// migratePostgres applies River's migrations while holding an advisory
// lock on a connection of its own. The migrations run as River runs them,
// each in a transaction of its own: one of them adds an enum value that a
// later one uses, which PostgreSQL refuses in one transaction.
func migratePostgres(ctx context.Context, pool *pgxpool.Pool, driver *riverpgxv5.Driver) error {
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return fmt.Errorf("delivery: migrate: %w", err)
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("delivery: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(migrateLockID)); err != nil {
		return fmt.Errorf("delivery: migrate: %w", err)
	}
	defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(migrateLockID))
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("delivery: migrate: %w", err)
	}
	return nil
}

func newQueue(cfg Config) *Queue {
	cfg.defaults()
	return &Queue{cfg: cfg, schedule: schedule{backoff: cfg.Backoff, retryFor: cfg.RetryFor}}
}
