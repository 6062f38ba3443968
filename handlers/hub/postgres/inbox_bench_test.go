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

// BenchmarkSummary measures a form's summary at HUBFORM_BENCH_SUBMISSIONS
// submissions on PostgreSQL, and what keeping its counts costs the writes
// (see inboxbench.Summary); run it with -benchtime 1x.
func BenchmarkSummary(b *testing.B) {
	db := openURL(b, pgtest.URL(b))
	inboxbench.Summary(b, db, inboxbench.SummaryOptions{
		Settle: func(ctx context.Context, w *sql.DB) error {
			// As BenchmarkInbox's: the fill's large transactions leave
			// dead versions of the counts' rows a hub's commits would not.
			_, err := w.ExecContext(ctx, `VACUUM FULL summary_counts`)
			if err == nil {
				_, err = w.ExecContext(ctx, `VACUUM FULL submission_counts`)
			}
			if err == nil {
				_, err = w.ExecContext(ctx, `VACUUM ANALYZE`)
			}
			return err
		},
		Uncounted: func() *sqldb.DB {
			bare := openURL(b, pgtest.URL(b))
			for _, stmt := range []string{`DROP TRIGGER summary_queue_insert ON submissions`, `DROP INDEX submissions_untallied`} {
				if _, err := bare.Writer().Exec(stmt); err != nil {
					b.Fatal(err)
				}
			}
			return bare
		},
	})
}
