package sqldb

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sync/atomic"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"

	"github.com/hubform/hubform/handlers/hub"
)

//go:embed migrations/*.sql migrations/sqlite/*.sql migrations/postgres/*.sql
var migrationsFS embed.FS

// Dialect is what differs between the databases a DB runs on.
type Dialect struct {
	// Name begins every error, as in "sqlite: ..." or "postgres: ...",
	// and names the directory of the dialect's own migrations,
	// migrations/sqlite or migrations/postgres.
	Name string
	// Goose is the dialect of the migrations' version table.
	Goose goose.Dialect
	// Locker, when set, serializes migrations across processes, so hubs
	// starting together on an empty database do not both create it.
	// Without one, the database's own locking must do that.
	Locker lock.SessionLocker
	// BatchWrites stores the submissions that arrive together in one
	// transaction, each within a savepoint, for a database with one writer
	// whose commits wait in turn (SQLite).
	BatchWrites bool
	// Search is how the database's migrations index the payloads for
	// search.
	Search SearchIndex
	// CountSlots says concurrent writers spread a quarter's rows of
	// submission_counts over slots (PostgreSQL's triggers), which
	// CompactCounts must merge without losing a slot written meanwhile.
	CountSlots bool
	// Full reports whether err is the database's storage being full, which
	// the writes of submissions, uploads and drafts wrap with
	// hub.ErrStorageFull.
	Full func(err error) bool
}

// SearchIndex is how a database indexes the payloads for search. A search
// is LOWER(payload) LIKE '%term%' whatever the index: an index only finds
// the submissions to test, for terms of 3 characters or more. Both indexes
// are fed from submission_search_queue, which a trigger fills in each
// submission's transaction and the DB moves into the index when writing
// is quiet (see searchQueue); a search reads the index and the queue.
type SearchIndex int

const (
	// NoSearchIndex: a search walks the form's submissions newest first
	// and stops at a page's worth.
	NoSearchIndex SearchIndex = iota
	// PgTrgmIndex: PostgreSQL's submission_search, the lowered payloads
	// with pg_trgm's GIN index.
	PgTrgmIndex
	// FTS5Index: SQLite's FTS5 table submission_search of the payloads'
	// trigrams, by rowid.
	FTS5Index
)

// ErrReadOnly is returned by the writing methods of a DB that has no pool
// to write with.
var ErrReadOnly = errors.New("database is open read-only")

// DB is a hub database. It is safe for concurrent use.
type DB struct {
	name string
	// w is the pool that writes, nil when the database is open read-only.
	// How many connections it holds is the driver package's choice: one
	// for SQLite, which admits one writer at a time, a normal pool for
	// PostgreSQL.
	w *sql.DB
	// r is the pool that only reads; it may be w.
	r *sql.DB
	// onSubmission runs in the transaction of every submission stored.
	onSubmission SubmissionHook
	// onDraft runs in the transaction of every draft stored with an
	// e-mail address.
	onDraft DraftHook
	// batch, when set, gathers submissions into shared transactions.
	batch *writeBatch
	// search is Dialect.Search.
	search SearchIndex
	// countSlots is Dialect.CountSlots.
	countSlots bool
	// isFull is Dialect.Full.
	isFull func(error) bool
	// queue, with a pool that writes, indexes the submissions queued for
	// search, with a search index, and counts those queued for the
	// summary.
	queue *searchQueue
	// nextPrune is when Allow next deletes ended rate-limit windows, in
	// Unix milliseconds.
	nextPrune atomic.Int64
}

// New returns a DB over the given pools, which it closes with itself. w is
// the pool that writes, nil for a read-only DB; r is the pool that reads,
// nil to read through w. New neither migrates nor checks the schema: call
// Migrate on w or CheckVersion on r first. With w, the DB indexes and
// counts queued submissions in a goroutine of its own until Close.
func New(d Dialect, w, r *sql.DB) *DB {
	if r == nil {
		r = w
	}
	if r == nil {
		panic("sqldb: New without a pool")
	}
	db := &DB{name: d.Name, w: w, r: r, search: d.Search, countSlots: d.CountSlots, isFull: d.Full}
	if d.BatchWrites {
		db.batch = &writeBatch{}
	}
	if w != nil {
		db.queue = startSearchQueue(db, searchQueueMax, searchQueueQuiet)
	}
	return db
}

// Tx is the transaction that stores a submission or a draft, as a
// SubmissionHook or DraftHook sees it.
type Tx struct {
	*sql.Tx
	conn *sql.Conn
}

// Raw calls f with the driver's connection the transaction runs on, as
// [sql.Conn.Raw] does: a job queue with its own driver inserts through it
// into the same transaction. f must neither commit nor roll back.
func (tx Tx) Raw(f func(driverConn any) error) error { return tx.conn.Raw(f) }

// SubmissionHook runs in the transaction that stores s, after s is stored
// and its uploads claimed. An error rolls the transaction back: s is not
// stored, and CreateSubmission returns the error.
type SubmissionHook func(ctx context.Context, tx Tx, s hub.Submission) error

// SetSubmissionHook has h run in the transaction of every submission
// stored from now on. Call it before the DB is shared.
func (db *DB) SetSubmissionHook(h SubmissionHook) { db.onSubmission = h }

// Close stops indexing queued submissions and closes the DB's pools.
func (db *DB) Close() error {
	if db.queue != nil {
		db.queue.stop()
	}
	var errs []error
	if db.w != nil && db.w != db.r {
		errs = append(errs, db.w.Close())
	}
	errs = append(errs, db.r.Close())
	return errors.Join(errs...)
}

// Reader returns the pool the DB reads with, for diagnostics and tests.
func (db *DB) Reader() *sql.DB { return db.r }

// Writer returns the pool the DB writes with, or nil when it is read-only.
func (db *DB) Writer() *sql.DB { return db.w }

// writer returns the pool that writes, or an error wrapping ErrReadOnly.
func (db *DB) writer() (*sql.DB, error) {
	if db.w == nil {
		return nil, fmt.Errorf("%s: %w", db.name, ErrReadOnly)
	}
	return db.w, nil
}

// errorf returns an error that begins with the database's name.
func (db *DB) errorf(format string, args ...any) error {
	return fmt.Errorf(db.name+": "+format, args...)
}

// full returns err marked as the storage's being full (hub.ErrStorageFull)
// when the database says it is.
func (db *DB) full(err error) error {
	if err != nil && db.isFull != nil && db.isFull(err) && !errors.Is(err, hub.ErrStorageFull) {
		return fmt.Errorf("%w: %w", hub.ErrStorageFull, err)
	}
	return err
}

// Migrations returns the embedded migrations of d's database, one SQL file
// per version, in one sequence: those written in the SQL that SQLite and
// PostgreSQL share, and beside them those of the dialect's directory, whose
// SQL is its own. It panics for a dialect without a directory, which is a
// mistake in the driver package.
func Migrations(d Dialect) fs.FS {
	shared, err := fs.Sub(migrationsFS, "migrations")
	if err != nil {
		panic(err) // the directory is embedded; it cannot be missing
	}
	own, err := fs.Sub(shared, d.Name)
	if err == nil {
		_, err = fs.Stat(own, ".")
	}
	if err != nil {
		panic(fmt.Sprintf("sqldb: no migrations of the dialect %q: %v", d.Name, err))
	}
	return dialectFS{shared: shared, own: own}
}

// Migrate applies the embedded migrations the database lacks.
func Migrate(ctx context.Context, d Dialect, pool *sql.DB) error {
	return MigrateTo(ctx, d, pool, math.MaxInt64)
}

// MigrateTo applies the embedded migrations the database lacks up to
// version, which leaves it as a hub of that version made it: tests of a
// migration fill such a database, then Migrate it.
func MigrateTo(ctx context.Context, d Dialect, pool *sql.DB, version int64) error {
	var opts []goose.ProviderOption
	if d.Locker != nil {
		opts = append(opts, goose.WithSessionLocker(d.Locker))
	}
	p, err := goose.NewProvider(d.Goose, pool, Migrations(d), opts...)
	if err != nil {
		return err
	}
	_, err = p.UpTo(ctx, version)
	return err
}

// CheckVersion reports an error unless the database's schema is at least
// as new as the embedded migrations. It only reads: goose's own version
// queries would try to create a missing version table.
func CheckVersion(ctx context.Context, d Dialect, pool *sql.DB) error {
	p, err := goose.NewProvider(d.Goose, pool, Migrations(d))
	if err != nil {
		return err
	}
	sources := p.ListSources()
	want := sources[len(sources)-1].Version
	store, err := database.NewStore(d.Goose, goose.DefaultTablename)
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
