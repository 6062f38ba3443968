package sqldb_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// planned are the inbox's queries that must be served by an index, and
// what their plans must show, by dialect: the index, by the name the
// migrations give it. The speed of a million submissions is measured by
// the inbox's benchmark; this shows that the indexes exist and that the
// queries are written so that they serve.
var planned = []struct {
	name string
	f    hub.Filter
	uses map[string]string // by dialect
}{
	{"first page", hub.Filter{Site: "site", Slug: "form", Newest: true, Limit: 51, Spam: hub.NotSpam},
		map[string]string{"sqlite": "submissions_site_form_id", "postgres": "submissions_site_form_id"}},
	{"search", hub.Filter{Site: "site", Slug: "form", Newest: true, Limit: 51, Spam: hub.NotSpam, Search: "jane@example.com", Before: "09"},
		// The ids the search index finds, and those queued.
		map[string]string{"sqlite": "SCAN submission_search VIRTUAL TABLE INDEX", "postgres": "submission_search_trgm"}},
	{"dates", hub.Filter{Site: "site", Slug: "form", Newest: true, Limit: 51, Spam: hub.NotSpam, From: storetest.T0, To: storetest.T0.Add(time.Hour)},
		// The page's ids come from the index alone.
		map[string]string{"sqlite": "COVERING INDEX submissions_site_form_created_at_id", "postgres": "Index Only Scan using submissions_site_form_created_at_id"}},
	{"spam", hub.Filter{Site: "site", Slug: "form", Newest: true, Limit: 51, Spam: hub.OnlySpam},
		map[string]string{"sqlite": "submissions_spam", "postgres": "submissions_spam"}},
}

// checkPlans fails t for each planned query whose plan, as explain
// prefixes it on conn, lacks what dialect's must show.
func checkPlans(t *testing.T, db *sqldb.DB, conn *sql.Conn, dialect, explain string) {
	ctx := context.Background()
	for i := range 20 {
		s := storetest.Submission(string(rune('a'+i)) + "1")
		s.Spam = i%2 == 0
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	type check struct {
		name  string
		query string
		args  []any
		uses  map[string]string
	}
	var checks []check
	for _, p := range planned {
		query, args, err := db.ListQuery(ctx, p.f)
		if err != nil {
			t.Fatal(err)
		}
		checks = append(checks, check{p.name, query, args, p.uses})
	}
	// The overview's count of the last 30 days, and a form's total, sum
	// its quarters in submission_counts.
	for _, f := range []hub.Filter{
		{Site: "site", Slug: "form", Spam: hub.NotSpam, From: storetest.T0.Add(-30 * 24 * time.Hour).Truncate(24 * time.Hour)},
		{Site: "site", Slug: "form"},
	} {
		query, args := sqldb.CountQuery(f)
		if query == "" {
			t.Fatalf("count of %+v: not read from submission_counts", f)
		}
		checks = append(checks, check{"count", query, args,
			map[string]string{"sqlite": "submission_counts USING PRIMARY KEY", "postgres": "submission_counts_pkey"}})
	}
	for _, p := range checks {
		query, args := p.query, p.args
		rows, err := conn.QueryContext(ctx, explain+query, args...)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		var plan []string
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, string(asText(vals[len(vals)-1])))
		}
		rows.Close()
		if want := p.uses[dialect]; !strings.Contains(strings.Join(plan, "\n"), want) {
			t.Errorf("%s: the plan does not show %q:\n%s\n%s", p.name, want, query, strings.Join(plan, "\n"))
		}
	}
}

// asText returns a column's value as the text it shows.
func asText(v any) string {
	if b, ok := v.([]byte); ok {
		return string(b)
	}
	s, _ := v.(string)
	return s
}

func TestPlansSQLite(t *testing.T) {
	// SQLite runs without statistics (the hub runs no ANALYZE): the plan
	// is the query's shape.
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Reader().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	checkPlans(t, db, conn, "sqlite", "EXPLAIN QUERY PLAN ")
}

func TestPlansPostgres(t *testing.T) {
	// PostgreSQL plans by statistics: the form holds 5,000 of 20,000
	// submissions over 200 days, 1% of its own spam, each with an address
	// of its own.
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Writer().ExecContext(ctx, `INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent, spam)
		SELECT 'x' || lpad(i::text, 6, '0'), 'site', CASE WHEN i % 4 = 0 THEN 'form' ELSE 'other' END, $1::bigint + i::bigint * 864000, '{"email":"user' || i || '@example.org"}', '[]', '', '', i % 50 = 0
		FROM generate_series(1, 20000) i`, storetest.T0.Add(-200*24*time.Hour).UnixMilli())
	if err == nil {
		_, err = db.IndexQueued(ctx)
	}
	if err == nil {
		_, err = db.Writer().ExecContext(ctx, `VACUUM ANALYZE submissions, submission_counts, submission_search, submission_search_queue`)
	}
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Reader().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	checkPlans(t, db, conn, "postgres", "EXPLAIN ")
}

// TestSearchPlans checks where a page of a search starts: from the search
// index's matches when it finds the term in at most sqldb's
// maxAskedMatches (5,000) submissions; otherwise from the newest
// submissions, which PostgreSQL reads in windows before asking its index
// and SQLite walks.
func TestSearchPlans(t *testing.T) {
	const common = 5001
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			var db *sqldb.DB
			var err error
			if dialect == "sqlite" {
				db, err = sqlite.Open(ctx, filepath.Join(t.TempDir(), "hub.db"))
			} else {
				db, err = postgres.Open(ctx, pgtest.URL(t))
			}
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			tx, err := db.Writer().BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			for i := range common + 1 {
				payload := `{"message":"a common word"}`
				if i == common {
					payload = `{"email":"rare@example.org"}`
				}
				if _, err := tx.ExecContext(ctx, `INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent)
					VALUES ($1, 'site', 'form', $2, $3, '[]', '', '')`, fmt.Sprintf("x%06d", i), storetest.T0.UnixMilli(), payload); err != nil {
					t.Fatal(err)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if _, err := db.IndexQueued(ctx); err != nil {
				t.Fatal(err)
			}
			pg := dialect == "postgres"
			for _, tt := range []struct {
				term        string
				ask         bool
				readsRecent bool
			}{
				{"rare@example.org", true, false},
				{"common", pg, pg},
				{"co", false, false}, // too short for the index
			} {
				f := hub.Filter{Site: "site", Slug: "form", Newest: true, Limit: 51, Search: tt.term}
				ask, windows, err := db.SearchPlan(ctx, f)
				if err != nil {
					t.Fatal(err)
				}
				if ask != tt.ask || (len(windows) > 0) != tt.readsRecent {
					t.Errorf("%q: asks the index %v, reads recent windows %v; want %v, %v", tt.term, ask, windows, tt.ask, tt.readsRecent)
				}
			}
		})
	}
}
