package sqlite

import (
	"context"
	"database/sql"
	"log/slog"
	"net/http"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/inboxbench"
)

// BenchmarkInbox measures a form's inbox at HUBFORM_BENCH_SUBMISSIONS
// submissions on SQLite (see package inboxbench); run it with -benchtime 1x.
func BenchmarkInbox(b *testing.B) {
	db, _ := openTest(b)
	// The fill's large transactions leave a long write-ahead log, which
	// a database grown over months would have checkpointed long ago.
	inboxbench.Run(b, db, inboxbench.Options{
		Settle: func(ctx context.Context, w *sql.DB) error {
			_, err := w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
			return err
		},
		Unindexed: func() *sqldb.DB {
			bare, _ := openTest(b)
			// Submissions are no longer queued; searches read the queue
			// and the index, both empty, and find nothing.
			if _, err := bare.Writer().Exec(`DROP TRIGGER submission_search_insert`); err != nil {
				b.Fatal(err)
			}
			return bare
		},
	})
}

// BenchmarkExport measures the exports alone of a form of
// HUBFORM_BENCH_SUBMISSIONS submissions on SQLite, from the store and
// over HTTP (see inboxbench.Exports).
func BenchmarkExport(b *testing.B) {
	db, _ := openTest(b)
	inboxbench.Exports(b, db, func(ctx context.Context, w *sql.DB) error {
		_, err := w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
		return err
	})
}

// BenchmarkSummary measures a form's summary at HUBFORM_BENCH_SUBMISSIONS
// submissions on SQLite, and what keeping its counts costs the writes
// (see inboxbench.Summary); run it with -benchtime 1x.
func BenchmarkSummary(b *testing.B) {
	db, _ := openTest(b)
	inboxbench.Summary(b, db, inboxbench.SummaryOptions{
		Hub: startHub,
		Settle: func(ctx context.Context, w *sql.DB) error {
			_, err := w.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
			return err
		},
		Uncounted: func() *sqldb.DB {
			bare, _ := openTest(b)
			for _, stmt := range []string{`DROP TRIGGER summary_queue_insert`, `DROP INDEX submissions_untallied`} {
				if _, err := bare.Writer().Exec(stmt); err != nil {
					b.Fatal(err)
				}
			}
			return bare
		},
	})
}

// startHub is a hub of the protocol on what it is given, for the writes
// through its submit route (inboxbench.HubStarter).
func startHub(forms hub.FormSource, store hub.Store, blobs hub.Blobs, logger *slog.Logger) (http.Handler, error) {
	return protocol.NewServer(protocol.Config{Forms: forms, Store: store, Blobs: blobs, Logger: logger})
}
