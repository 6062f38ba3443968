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
			_, err := w.ExecContext(ctx, `VACUUM ANALYZE`)
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
