package postgres

import (
	"context"
	"database/sql"
	"testing"

	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/inboxbench"
)

// BenchmarkInbox measures a form's inbox at HUBFORM_BENCH_SUBMISSIONS
// submissions on PostgreSQL (see package inboxbench); run it with
// -benchtime 1x.
func BenchmarkInbox(b *testing.B) {
	db := openURL(b, pgtest.URL(b))
	inboxbench.Run(b, db, inboxbench.Options{
		Settle: func(ctx context.Context, w *sql.DB) error {
			// The fill's transactions of 50,000 submissions update each
			// quarter's row of submission_counts thousands of times in
			// one transaction, whose dead versions no page can prune
			// until it ends, so the table grows with every one. A hub commits
			// each submission, and pruning keeps the table compact.
			_, err := w.ExecContext(ctx, `VACUUM FULL submission_counts`)
			if err == nil {
				_, err = w.ExecContext(ctx, `VACUUM ANALYZE`)
			}
			return err
		},
		Unindexed: func() *sqldb.DB {
			bare := openURL(b, pgtest.URL(b))
			if _, err := bare.Writer().Exec(`DROP TRIGGER submission_search_insert ON submissions`); err != nil {
				b.Fatal(err)
			}
			return bare
		},
	})
}
