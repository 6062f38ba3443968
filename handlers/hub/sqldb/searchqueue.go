package sqldb

import (
	"context"
	"database/sql"
	"log/slog"
	"strings"
	"sync/atomic"
	"time"
)

// How the queue of submissions to index for search is worked through
// (see SearchIndex). Indexing a submission costs about as much as storing
// it (SQLite's one writer, PostgreSQL's pg_trgm), so it waits until
// writing is quiet: a burst of submissions is stored at the rate without
// an index. A search reads the queued submissions one by one, so the
// queue is indexed even while writing goes on once it holds
// searchQueueMax.
const (
	// searchQueueChunk is how many queued submissions one transaction
	// indexes: tens of milliseconds of the writer's time.
	searchQueueChunk = 1000
	// searchQueueQuiet is how long no submission must have been stored
	// before the queue is indexed.
	searchQueueQuiet = 100 * time.Millisecond
	// searchQueueMax is how many queued submissions have the queue
	// indexed without waiting for quiet.
	searchQueueMax = 20_000
	// searchQueueRecheck is how often the queue's length is looked at
	// while writing goes on.
	searchQueueRecheck = 50 * time.Millisecond
	// searchQueuePoll is how often the queue is looked at when no
	// submission is stored: another process may have filled it.
	searchQueuePoll = time.Second
)

// searchQueue indexes, in the background, the submissions that the
// database's trigger queued for search, and counts those queued for the
// summary (summary.go), both when writing is quiet. Several hubs on one
// PostgreSQL database each run one; each submission is indexed, and
// counted, by one of them.
type searchQueue struct {
	db *DB
	// max and quiet are searchQueueMax and searchQueueQuiet, which tests
	// change.
	max   int
	quiet time.Duration
	// lastWrite is when a submission was last stored, in Unix nanoseconds.
	lastWrite atomic.Int64
	// wrote wakes the indexing goroutine; it holds at most one wake-up.
	wrote  chan struct{}
	cancel context.CancelFunc
	done   chan struct{}
}

func startSearchQueue(db *DB, max int, quiet time.Duration) *searchQueue {
	ctx, cancel := context.WithCancel(context.Background())
	q := &searchQueue{db: db, max: max, quiet: quiet, wrote: make(chan struct{}, 1), cancel: cancel, done: make(chan struct{})}
	go q.run(ctx)
	return q
}

// stop ends the indexing and waits for its transaction, if any, to end.
func (q *searchQueue) stop() {
	q.cancel()
	<-q.done
}

// written tells q that submissions were just stored.
func (q *searchQueue) written() {
	q.lastWrite.Store(time.Now().UnixNano())
	select {
	case q.wrote <- struct{}{}:
	default:
	}
}

func (q *searchQueue) run(ctx context.Context) {
	defer close(q.done)
	poll := time.NewTicker(searchQueuePoll)
	defer poll.Stop()
	for {
		// A failure leaves the submissions queued, where searches still
		// find them; the next wake-up tries again.
		if err := q.work(ctx); err != nil && ctx.Err() == nil {
			slog.Default().Warn("indexing submissions for search", slog.String("database", q.db.name), slog.Any("error", err))
		}
		select {
		case <-ctx.Done():
			return
		case <-q.wrote:
		case <-poll.C:
		}
	}
}

// work indexes the search queue, then counts the summary's queue
// (countQueued), each a chunk at a time, waiting for quiet between chunks
// unless the queue is long, until it is empty.
func (q *searchQueue) work(ctx context.Context) error {
	if q.db.search != NoSearchIndex {
		if err := q.drain(ctx, q.db.searchQueueLength, q.db.indexQueued, searchQueueChunk, q.db.indexedMany); err != nil {
			return err
		}
	}
	return q.drain(ctx, q.db.SummaryQueueLength, q.db.countQueued, summaryQueueChunk, nil)
}

// drain works through one queue: length says how long it is, step works
// through up to chunk of it and says how many, done is told how many were
// worked through once it is empty.
func (q *searchQueue) drain(ctx context.Context, length func(context.Context) (int, error), step func(context.Context, int) (int, error), chunk int, done func(context.Context, int) error) error {
	worked := 0
	for {
		queued, err := length(ctx)
		if err != nil {
			return err
		}
		if queued == 0 {
			if done == nil {
				return nil
			}
			return done(ctx, worked)
		}
		wait := q.quiet - time.Since(time.Unix(0, q.lastWrite.Load()))
		if queued < q.max && wait > 0 {
			// Writing goes on: look at the queue's length again soon.
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(min(wait, searchQueueRecheck)):
			}
			continue
		}
		n, err := step(ctx, chunk)
		if err != nil {
			return err
		}
		worked += n
	}
}

// analyzeAfter is how many submissions indexed at once have PostgreSQL's
// statistics of submission_search renewed: until autovacuum's next
// ANALYZE, a planner that thinks the table empty reads all of it rather
// than its index.
const analyzeAfter = 10_000

// indexedMany renews the statistics of the search index's table once n
// submissions were indexed at once, on PostgreSQL.
func (db *DB) indexedMany(ctx context.Context, n int) error {
	if db.search != PgTrgmIndex || n < analyzeAfter {
		return nil
	}
	_, err := db.w.ExecContext(ctx, `ANALYZE submission_search`)
	return err
}

// IndexQueued indexes for search every submission queued for it, and
// returns how many it indexed. A DB indexes them by itself when writing
// is quiet; a program that has just filled a database calls IndexQueued
// to have its searches use the index at once. It returns once the queue
// is empty, including the submissions another indexer (this DB's own, in
// the background, or another hub's) was indexing meanwhile.
func (db *DB) IndexQueued(ctx context.Context) (int, error) {
	if db.search == NoSearchIndex {
		return 0, nil
	}
	total := 0
	for {
		n, err := db.indexQueued(ctx, searchQueueChunk)
		total += n
		if err != nil {
			return total, db.errorf("index queued submissions: %w", err)
		}
		if n > 0 {
			continue
		}
		queued, err := db.searchQueueLength(ctx)
		if err != nil {
			return total, db.errorf("index queued submissions: %w", err)
		}
		if queued == 0 {
			break
		}
		// Another indexer holds them: wait for its transaction to end.
		select {
		case <-ctx.Done():
			return total, db.errorf("index queued submissions: %w", ctx.Err())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if err := db.indexedMany(ctx, total); err != nil {
		return total, db.errorf("index queued submissions: %w", err)
	}
	return total, nil
}

// searchQueueLength returns how many submissions are queued for search.
func (db *DB) searchQueueLength(ctx context.Context) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM submission_search_queue`).Scan(&n)
	return n, err
}

// indexQueued moves the first limit queued submissions into the search
// index in one transaction, and returns how many it moved.
func (db *DB) indexQueued(ctx context.Context, limit int) (int, error) {
	w, err := db.writer()
	if err != nil {
		return 0, err
	}
	if db.search == PgTrgmIndex {
		return db.indexQueuedPg(ctx, w, limit)
	}
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	var last sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT MAX(rowid) FROM (SELECT rowid FROM submission_search_queue ORDER BY rowid LIMIT $1)`, limit).Scan(&last)
	if err != nil || !last.Valid {
		return 0, err
	}
	// In rowid order, which FTS5 writes as one segment.
	if _, err := tx.ExecContext(ctx, `INSERT INTO submission_search (rowid, payload)
		SELECT s.rowid, s.payload FROM submission_search_queue q JOIN submissions s ON s.rowid = q.rowid
		WHERE q.rowid <= $1 ORDER BY q.rowid`, last.Int64); err != nil {
		return 0, err
	}
	res, err := tx.ExecContext(ctx, `DELETE FROM submission_search_queue WHERE rowid <= $1`, last.Int64)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, err
	}
	return int(n), tx.Commit()
}

// indexQueuedPg is indexQueued on PostgreSQL, where the queue is the
// summary's too (migration 35): the submissions it takes that are marked
// uncounted are counted in the same transaction. The ids it takes are
// locked, and skipped by another hub's at the same time, as are the
// submissions it counts: a change of one waits until it is counted, and
// its trigger sees it so; one another transaction holds stays queued.
// The statements name the ids, so that each is an index lookup whatever
// the planner's statistics of the queue say.
func (db *DB) indexQueuedPg(ctx context.Context, w *sql.DB, limit int) (int, error) {
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, `SELECT id, uncounted FROM submission_search_queue ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
	if err != nil {
		return 0, err
	}
	var ids, uncounted []string
	for rows.Next() {
		var id string
		var count bool
		if err := rows.Scan(&id, &count); err != nil {
			rows.Close()
			return 0, err
		}
		if count {
			uncounted = append(uncounted, id)
		} else {
			ids = append(ids, id)
		}
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	if len(uncounted) > 0 {
		counted, err := db.countSubmissions(ctx, tx, `SELECT id, id, site, form, created_at, tallies, spam, deleted_at IS NULL
			FROM submissions WHERE id = ANY($1) ORDER BY id FOR UPDATE SKIP LOCKED`, uncounted)
		if err != nil {
			return 0, err
		}
		for _, id := range counted {
			ids = append(ids, id.(string))
		}
	}
	if len(ids) == 0 {
		return 0, nil
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO submission_search (id, payload_lower)
		SELECT id, LOWER(payload) FROM submissions WHERE id = ANY($1)
		ON CONFLICT (id) DO UPDATE SET payload_lower = EXCLUDED.payload_lower`, ids); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM submission_search_queue WHERE id = ANY($1)`, ids); err != nil {
		return 0, err
	}
	return len(ids), tx.Commit()
}

// indexedSearch returns the condition, with its arguments added to q, of
// the submissions the search index finds for term, and of those queued
// for it.
func (db *DB) indexedSearch(q *filter, term string) string {
	if db.search == PgTrgmIndex {
		return `id IN (SELECT id FROM submission_search WHERE payload_lower LIKE ` + q.arg(searchPattern(term)) +
			` ESCAPE '\' UNION ALL SELECT id FROM submission_search_queue)`
	}
	return `rowid IN (SELECT rowid FROM submission_search WHERE submission_search MATCH ` + q.arg(trigramPhrase(term)) +
		` UNION ALL SELECT rowid FROM submission_search_queue)`
}

// trigramPhrase returns the FTS5 query of term: one string, which the
// trigram tokenizer finds wherever the payload's JSON text holds it,
// whatever the case of letters.
func trigramPhrase(term string) string {
	return `"` + strings.ReplaceAll(searchText(term), `"`, `""`) + `"`
}
