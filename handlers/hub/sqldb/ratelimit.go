package sqldb

import (
	"context"
	"database/sql"
	"time"
)

// pruneEvery is how often one DB deletes the rate-limit windows that have
// ended. Rows are small and one per active client and window, so pruning
// need not be prompt; doing it rarely keeps it off most requests.
const pruneEvery = time.Minute

// Allow counts one request of client against a budget of limit requests in
// each fixed window of the given length, aligned to the Unix epoch, and
// reports whether the request is within the budget. When it is not,
// retryAfter is the time left until the window ends.
//
// The counter lives in the database, so every process sharing it shares
// the budget: the increment is a single upsert, which the database applies
// atomically however many hubs count at once. Refused requests are counted
// too, which changes nothing within the window. As with any fixed window,
// a client can make up to 2×limit requests across a window boundary.
//
// now is the caller's clock; hubs sharing a database should keep theirs in
// step (NTP), or their windows start at slightly different times.
func (db *DB) Allow(ctx context.Context, client string, limit int, window time.Duration, now time.Time) (ok bool, retryAfter time.Duration, err error) {
	w, err := db.writer()
	if err != nil {
		return false, 0, err
	}
	windowMS := window.Milliseconds()
	if limit <= 0 || windowMS <= 0 {
		return false, 0, db.errorf("rate limit: limit %d or window %v is not positive", limit, window)
	}
	nowMS := millis(now)
	start := nowMS - mod(nowMS, windowMS)
	var count int64
	err = w.QueryRowContext(ctx,
		`INSERT INTO rate_limits (client, window_ms, window_start, count) VALUES ($1, $2, $3, 1)
		ON CONFLICT (client, window_ms, window_start) DO UPDATE SET count = rate_limits.count + 1
		RETURNING count`,
		text(client), windowMS, start).Scan(&count)
	if err != nil {
		return false, 0, db.errorf("rate limit %q: %w", client, err)
	}
	db.prune(ctx, w, nowMS)
	if count > int64(limit) {
		return false, time.Duration(start+windowMS-nowMS) * time.Millisecond, nil
	}
	return true, 0, nil
}

// prune deletes the windows that ended before nowMS, at most once every
// pruneEvery per DB. Another process may prune too; that costs a query,
// nothing more. An error is ignored: the answer to the request is already
// known, the rows are only garbage, and the next prune tries again.
func (db *DB) prune(ctx context.Context, w *sql.DB, nowMS int64) {
	next := db.nextPrune.Load()
	if nowMS < next || !db.nextPrune.CompareAndSwap(next, nowMS+pruneEvery.Milliseconds()) {
		return
	}
	_, _ = w.ExecContext(ctx, `DELETE FROM rate_limits WHERE window_start + window_ms <= $1`, nowMS)
}

// mod is the remainder of a divided by b, in [0, b) even for times before
// the epoch.
func mod(a, b int64) int64 {
	r := a % b
	if r < 0 {
		r += b
	}
	return r
}
