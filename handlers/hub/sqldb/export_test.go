package sqldb

import (
	"context"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

// WaitingSubmissions returns how many submissions wait for the next batch.
func (db *DB) WaitingSubmissions() int {
	if db.batch == nil {
		return 0
	}
	db.batch.mu.Lock()
	defer db.batch.mu.Unlock()
	return len(db.batch.pending)
}

// ListQuery returns the query ListSubmissions runs for f when the recent
// submissions do not fill its page, and its arguments.
func (db *DB) ListQuery(ctx context.Context, f hub.Filter) (string, []any, error) {
	ask, err := db.asksIndex(ctx, f)
	if err != nil {
		return "", nil, err
	}
	query, args := db.listQuery(f, ask)
	return query, args, nil
}

// SearchPlan returns whether ListSubmissions asks the search index for f's
// search, and the windows of recent submissions it reads first.
func (db *DB) SearchPlan(ctx context.Context, f hub.Filter) (ask bool, windows []int, err error) {
	if ask, err = db.asksIndex(ctx, f); err != nil {
		return false, nil, err
	}
	windows, err = db.recentWindowsOf(ctx, f, ask)
	return ask, windows, err
}

// CountQuery returns the query CountSubmissions runs for f's whole
// quarters on submission_counts, and its arguments, or "" when it counts
// the submissions instead.
func CountQuery(f hub.Filter) (string, []any) {
	p, ok := planCount(f)
	if !ok {
		return "", nil
	}
	return p.sumQuery()
}

// SetSearchQueue restarts the indexing of the queue for search with
// another length that has it indexed at once, and another quiet.
func (db *DB) SetSearchQueue(max int, quiet time.Duration) {
	db.queue.stop()
	db.queue = startSearchQueue(db, max, quiet)
}
