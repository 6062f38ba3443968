package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/pressly/goose/v3"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// openURL opens the database at u and closes it when t ends.
func openURL(t testing.TB, u string) *sqldb.DB {
	t.Helper()
	db, err := Open(context.Background(), u)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db
}

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T, handles int) []*sqldb.DB {
		u := pgtest.URL(t)
		var dbs []*sqldb.DB
		for range handles {
			dbs = append(dbs, openURL(t, u))
		}
		return dbs
	})
}

func TestOpenConcurrently(t *testing.T) {
	// Hubs starting together on an empty database migrate it once,
	// one after the other, and all open it.
	u := pgtest.URL(t)
	const hubs = 3
	var wg sync.WaitGroup
	dbs := make([]*sqldb.DB, hubs)
	errs := make([]error, hubs)
	for i := range hubs {
		wg.Go(func() { dbs[i], errs[i] = Open(context.Background(), u) })
	}
	wg.Wait()
	for i, db := range dbs {
		if errs[i] != nil {
			t.Errorf("Open %d: %v", i, errs[i])
			continue
		}
		db.Close()
	}
	db := openURL(t, u)
	var versions int
	if err := db.Reader().QueryRow(`SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0`).Scan(&versions); err != nil {
		t.Fatal(err)
	}
	entries, err := fs.ReadDir(sqldb.Migrations(sqldb.Dialect{Name: "postgres"}), ".")
	if err != nil {
		t.Fatal(err)
	}
	if versions != len(entries) {
		t.Errorf("%d migrations recorded, want %d (each once)", versions, len(entries))
	}
}

func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	u := pgtest.URL(t)
	rw := openURL(t, u)
	sub := hub.Submission{ID: "01", Site: "site", Slug: "form", CreatedAt: time.Now()}
	if err := rw.CreateSubmission(ctx, sub); err != nil {
		t.Fatal(err)
	}
	ro, err := OpenReadOnly(ctx, u)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	defer ro.Close()
	if n, err := ro.CountSubmissions(ctx, hub.Filter{}); err != nil || n != 1 {
		t.Errorf("CountSubmissions = %d, %v; want 1", n, err)
	}
	sub.ID = "02"
	if err := ro.CreateSubmission(ctx, sub); !errors.Is(err, sqldb.ErrReadOnly) {
		t.Errorf("CreateSubmission on read-only handle: %v, want ErrReadOnly", err)
	}
	if _, _, err := ro.Allow(ctx, "c", 1, time.Minute, time.Now()); !errors.Is(err, sqldb.ErrReadOnly) {
		t.Errorf("Allow on read-only handle: %v, want ErrReadOnly", err)
	}
	// The server refuses too: the session is read-only, not just
	// guarded by the methods.
	if _, err := ro.Reader().ExecContext(ctx, `DELETE FROM submissions`); err == nil {
		t.Error("DELETE through the read-only pool succeeded")
	}
}

func TestOpenReadOnlyRefuses(t *testing.T) {
	ctx := context.Background()
	empty := pgtest.URL(t)
	bad, _ := url.Parse(pgtest.URL(t))
	bad.Path += "_missing"
	tests := []struct{ name, url string }{
		{"not a hub database", empty},
		{"missing database", bad.String()},
		{"not a URL", "postgres://[::1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if db, err := OpenReadOnly(ctx, tt.url); err == nil {
				db.Close()
				t.Fatal("OpenReadOnly succeeded")
			}
		})
	}
}

func TestSessionSettings(t *testing.T) {
	// A URL, or a server, that turns synchronous commits off does not
	// make the hub answer before a submission is on disk; every statement
	// is planned with its arguments, unless the URL asks otherwise.
	u, err := url.Parse(pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ setting, set, want string }{
		{"synchronous_commit", "off", "on"},
		{"synchronous_commit", "local", "local"},
		{"synchronous_commit", "", "on"},
		{"plan_cache_mode", "", "force_custom_plan"},
		{"plan_cache_mode", "auto", "auto"},
	} {
		t.Run(fmt.Sprintf("%s=%q", tt.setting, tt.set), func(t *testing.T) {
			q := u.Query()
			if tt.set != "" {
				q.Set(tt.setting, tt.set)
			}
			v := *u
			v.RawQuery = q.Encode()
			db := openURL(t, v.String())
			var got string
			if err := db.Writer().QueryRow(`SELECT current_setting($1)`, tt.setting).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("%s = %q, want %q", tt.setting, got, tt.want)
			}
		})
	}
}

func BenchmarkCreateSubmission(b *testing.B) {
	ctx := context.Background()
	db := openURL(b, pgtest.URL(b))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			now := time.Now()
			s := hub.Submission{ID: hub.NewID(now), Site: "site", Slug: "form", CreatedAt: now, Payload: []byte(`{"name":"Jane"}`)}
			if err := db.CreateSubmission(ctx, s); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "submissions/s")
}

// migrated returns a pool on a new database at schema version, the
// dialect it was migrated with, and a function that opens the database as
// a hub does, which migrates it.
func migrated(t *testing.T, version int64) (*sql.DB, sqldb.Dialect, func() *sqldb.DB) {
	t.Helper()
	ctx := context.Background()
	u := pgtest.URL(t)
	pool, err := openPool(ctx, u, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pool.Close() })
	d := sqldb.Dialect{Name: "postgres", Goose: goose.DialectPostgres}
	if err := sqldb.MigrateTo(ctx, d, pool, version); err != nil {
		t.Fatal(err)
	}
	return pool, d, func() *sqldb.DB { return openURL(t, u) }
}

func TestWorkspacesMigration(t *testing.T) {
	old, _, open := migrated(t, storetest.BeforeWorkspaces)
	storetest.WorkspacesMigration(t, old, open)
}

func TestProvedAddressesMigration(t *testing.T) {
	old, _, open := migrated(t, storetest.BeforeProvedAddresses)
	storetest.ProvedAddressesMigration(t, old, open)
}

func TestSummaryMigration(t *testing.T) {
	old, _, open := migrated(t, storetest.BeforeSummary)
	storetest.SummaryMigration(t, old, open)
}

func TestSearchMigration(t *testing.T) {
	pool, d, open := migrated(t, storetest.BeforeSearch)
	old := sqldb.New(d, pool, nil)
	defer old.Close()
	storetest.SearchMigration(t, old, open)
}

func TestCountsMigration(t *testing.T) {
	pool, d, open := migrated(t, storetest.BeforeCounts)
	old := sqldb.New(d, pool, nil)
	defer old.Close()
	storetest.CountsMigration(t, old, open)
}

// TestSearchIndexAnalyzed checks that indexing many queued submissions
// renews the planner's statistics of the search index's table, which it
// would otherwise read whole until autovacuum's next ANALYZE.
func TestSearchIndexAnalyzed(t *testing.T) {
	ctx := context.Background()
	db := openURL(t, pgtest.URL(t))
	// 20,000: the hub's own indexing may take some of them meanwhile, but
	// either it or IndexQueued indexes 10,000 at least.
	if _, err := db.Writer().Exec(`INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent)
		SELECT 'x' || lpad(i::text, 6, '0'), 'site', 'form', i, '{"n":"' || i || '"}', '[]', '', '' FROM generate_series(1, 20000) i`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.IndexQueued(ctx); err != nil {
		t.Fatal(err)
	}
	// The statistics of tables reach other sessions within a second.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var analyzed bool
		if err := db.Reader().QueryRow(`SELECT last_analyze IS NOT NULL FROM pg_stat_user_tables WHERE relname = 'submission_search'`).Scan(&analyzed); err != nil {
			t.Fatal(err)
		}
		if analyzed {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("submission_search was not analyzed after 20,000 submissions were indexed")
		}
	}
}

func TestFormDraftsMigration(t *testing.T) {
	old, _, open := migrated(t, storetest.BeforeFormDrafts)
	storetest.FormDraftsMigration(t, old, open)
}

// TestSummaryQueueMigration checks that migration 35, which has the
// summary share the search queue's row, keeps every submission counted
// once: one queued for both, one queued for the summary alone (indexed
// already), one counted and queued again for search.
func TestSummaryQueueMigration(t *testing.T) {
	ctx := context.Background()
	old, _, open := migrated(t, 34)
	for _, stmt := range []string{
		`INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent, tallies) VALUES
			('A', 'site', 'form', 5000, '{}', '[]', '', '', '[["","",0],["topic","a",0]]'),
			('B', 'site', 'form', 5000, '{}', '[]', '', '', '[["","",0],["topic","b",0]]'),
			('C', 'site', 'form', 5000, '{}', '[]', '', '', '[["","",0],["topic","c",2]]')`,
		`DELETE FROM submission_search_queue WHERE id = 'B'`,
		`DELETE FROM summary_queue WHERE id = 'C'`,
		`INSERT INTO summary_counts (site, form, day, field, answer, slot, n, total) VALUES
			('site', 'form', 0, '', '', 0, 1, 0), ('site', 'form', 0, 'topic', 'c', 0, 1, 2)`,
	} {
		if _, err := old.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	db := open()
	counts := func(when string, want map[string]string) {
		t.Helper()
		cs, err := db.AnswerCounts(ctx, "site", "form", time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, c := range cs {
			got[c.Field+"/"+c.Answer] = fmt.Sprintf("%d %g", c.N, c.Sum)
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: AnswerCounts = %v, want %v", when, got, want)
		}
	}
	all := map[string]string{"/": "3 0", "topic/a": "1 0", "topic/b": "1 0", "topic/c": "1 2"}
	counts("migrated", all)
	if _, err := db.CountQueued(ctx); err != nil {
		t.Fatal(err)
	}
	counts("counted", all)
	var queued int
	if err := db.Reader().QueryRow(`SELECT COUNT(*) FROM submission_search_queue`).Scan(&queued); err != nil || queued != 0 {
		t.Errorf("search queue after counting: %d, %v; want 0", queued, err)
	}
	if _, err := db.Writer().Exec(`DELETE FROM submissions WHERE id IN ('A', 'C')`); err != nil {
		t.Fatal(err)
	}
	counts("two deleted", map[string]string{"/": "1 0", "topic/b": "1 0"})
}
