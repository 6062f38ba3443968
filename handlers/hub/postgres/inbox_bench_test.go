package postgres

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
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
	// The server's CPU time is told of one on this machine alone.
	cpu := func() (time.Duration, error) { return serverCPU(db) }
	if _, err := cpu(); err != nil {
		b.Logf("writes' CPU time left out: %v", err)
		cpu = nil
	}
	inboxbench.Summary(b, db, inboxbench.SummaryOptions{
		Hub: startHub,
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
			// The search queue's trigger as before migration 35, which
			// marks no submission uncounted.
			for _, stmt := range []string{`CREATE OR REPLACE FUNCTION submission_search_queue() RETURNS trigger LANGUAGE plpgsql AS $$
				BEGIN
					INSERT INTO submission_search_queue (id) SELECT id FROM inserted;
					RETURN NULL;
				END
				$$`, `DROP INDEX submissions_untallied`} {
				if _, err := bare.Writer().Exec(stmt); err != nil {
					b.Fatal(err)
				}
			}
			return bare
		},
		ServerCPU: cpu,
	})
}

// serverCPU returns the CPU time that db's server has used, from /proc:
// its postmaster's, with its children's that ended, and its live
// children's. The server must run on this machine, as pgtest's does.
func serverCPU(db *sqldb.DB) (time.Duration, error) {
	var backend int
	if err := db.Reader().QueryRow(`SELECT pg_backend_pid()`).Scan(&backend); err != nil {
		return 0, err
	}
	stat, err := procStat(strconv.Itoa(backend))
	if err != nil {
		return 0, fmt.Errorf("the server's CPU time (is it on this machine?): %w", err)
	}
	postmaster := stat[1]
	stat, err = procStat(postmaster)
	if err != nil {
		return 0, err
	}
	ticks := statTicks(stat, 11, 12, 13, 14) // utime, stime, cutime, cstime
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		return 0, err
	}
	for _, d := range dirs {
		// A process may end meanwhile; its time is then its parent's.
		if stat, err := procStat(filepath.Base(d)); err == nil && stat[1] == postmaster {
			ticks += statTicks(stat, 11, 12)
		}
	}
	// Linux reports clock ticks of 1/100 s (USER_HZ) to every program.
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// procStat returns the fields of /proc/pid/stat after the command's name,
// the process's state first, its parent second.
func procStat(pid string) ([]string, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil, err
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 || i+2 > len(b) {
		return nil, fmt.Errorf("/proc/%s/stat: unexpected %q", pid, b)
	}
	return strings.Fields(string(b[i+2:])), nil
}

// statTicks sums the fields of stat at the indexes.
func statTicks(stat []string, indexes ...int) int64 {
	var n int64
	for _, i := range indexes {
		if i < len(stat) {
			v, _ := strconv.ParseInt(stat[i], 10, 64)
			n += v
		}
	}
	return n
}

// startHub is a hub of the protocol on what it is given, for the writes
// through its submit route (inboxbench.HubStarter).
func startHub(forms hub.FormSource, store hub.Store, blobs hub.Blobs, logger *slog.Logger) (http.Handler, error) {
	return protocol.NewServer(protocol.Config{Forms: forms, Store: store, Blobs: blobs, Logger: logger})
}
