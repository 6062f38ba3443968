package storetest

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// summarySchema is a survey of one question of each way of summing up.
var summarySchema = &hubclient.Schema{Fields: []hubclient.Field{
	{Name: "topic", Type: hubclient.FieldSelect, Options: []hubclient.Option{{Value: "sales"}, {Value: "support"}}},
	{Name: "stars", Type: hubclient.FieldRating},
	{Name: "tags", Type: hubclient.FieldCheckboxes, Options: []hubclient.Option{{Value: "a"}, {Value: "b"}}},
	{Name: "order", Type: hubclient.FieldRanking, Options: []hubclient.Option{{Value: "x"}, {Value: "y"}}},
	{Name: "email", Type: hubclient.FieldEmail},
	{Name: "intro", Type: hubclient.FieldHeading},
}}

// surveyed returns a submission of the survey with its tallies.
func surveyed(id string, at time.Time, payload string) hub.Submission {
	s := Submission(id)
	s.CreatedAt, s.Payload = at, json.RawMessage(payload)
	s.Tallies = hub.TalliesOf(summarySchema, s.Payload)
	return s
}

// answerCounts returns the form's counts since since as "field/answer" →
// "n sum", for comparing.
func answerCounts(t *testing.T, db *sqldb.DB, slug string, since time.Time) map[string]string {
	t.Helper()
	cs, err := db.AnswerCounts(context.Background(), "site", slug, since)
	if err != nil {
		t.Fatalf("AnswerCounts: %v", err)
	}
	out := map[string]string{}
	for _, c := range cs {
		out[c.Field+"/"+c.Answer] = fmt.Sprintf("%d %g", c.N, c.Sum)
	}
	return out
}

func wantCounts(t *testing.T, db *sqldb.DB, since time.Time, want map[string]string, when string) {
	t.Helper()
	if got := answerCounts(t, db, "form", since); !maps.Equal(got, want) {
		t.Errorf("%s: AnswerCounts since %v =\n%v\nwant\n%v", when, since, sorted(got), sorted(want))
	}
}

func sorted(m map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(m)) {
		fmt.Fprintf(&b, "  %s: %s\n", k, m[k])
	}
	return b.String()
}

// testSummaryCounts: the counts of a form's answers follow its
// submissions through every path that changes which are counted: spam
// marked and unmarked, deleted for a while and restored, purged, deleted,
// deleted by retention, erased; a period counts its days alone; another
// form's answers are its own.
func testSummaryCounts(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	if err := db.CreateUser(ctx, accounts.User{Email: "owner@example.com", PasswordHash: "$argon2id$x", CreatedAt: T0}); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateWorkspace(ctx, "acme", "owner@example.com", T0); err != nil {
		t.Fatal(err)
	}
	if _, err := db.ClaimSite(ctx, "site", "acme", T0); err != nil {
		t.Fatal(err)
	}
	day := 24 * time.Hour
	spam := surveyed("03", T0, `{"topic":"sales"}`)
	spam.Spam = true
	other := surveyed("09", T0, `{"topic":"sales"}`)
	other.Slug = "other"
	for _, s := range []hub.Submission{
		surveyed("01", T0, `{"topic":"sales","stars":4,"tags":["a","b"],"order":["y","x"],"email":"ann@example.com","intro":"x"}`),
		surveyed("02", T0.Add(day), `{"topic":"support","stars":2,"tags":["a"],"order":["x","y"],"email":""}`),
		spam, other,
	} {
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatalf("CreateSubmission(%s): %v", s.ID, err)
		}
	}
	both := map[string]string{
		"/": "2 0", "topic/sales": "1 0", "topic/support": "1 0", "stars/4": "1 4", "stars/2": "1 2",
		"tags/a": "2 0", "tags/b": "1 0", "tags/": "2 0", "order/x": "2 3", "order/y": "2 3", "email/": "1 0",
	}
	wantCounts(t, db, time.Time{}, both, "stored, queued")
	if _, err := db.CountQueued(ctx); err != nil {
		t.Fatal(err)
	}
	wantCounts(t, db, time.Time{}, both, "stored, counted")
	second := map[string]string{"/": "1 0", "topic/support": "1 0", "stars/2": "1 2", "tags/a": "1 0", "tags/": "1 0", "order/x": "1 1", "order/y": "1 2"}
	// Since a time within the second day: the whole day counts.
	wantCounts(t, db, T0.Add(day+time.Hour), second, "the second day")
	if got := answerCounts(t, db, "other", time.Time{}); !maps.Equal(got, map[string]string{"/": "1 0", "topic/sales": "1 0"}) {
		t.Errorf("the other form's counts = %v", got)
	}

	first := map[string]string{"/": "1 0", "topic/sales": "1 0", "stars/4": "1 4", "tags/a": "1 0", "tags/b": "1 0", "tags/": "1 0", "order/x": "1 2", "order/y": "1 1", "email/": "1 0"}
	spamToo := map[string]string{}
	maps.Copy(spamToo, both)
	spamToo["/"], spamToo["topic/sales"] = "3 0", "2 0"
	steps := []struct {
		name string
		do   func() error
		want map[string]string
	}{
		{"01 marked as spam", func() error { _, err := db.SetSpam(ctx, "site", "form", []string{"01"}, true); return err }, second},
		{"01 not spam again", func() error { _, err := db.SetSpam(ctx, "site", "form", []string{"01"}, false); return err }, both},
		{"03 not spam", func() error { _, err := db.SetSpam(ctx, "site", "form", []string{"03"}, false); return err }, spamToo},
		{"03 spam again", func() error { _, err := db.SetSpam(ctx, "site", "form", []string{"03"}, true); return err }, both},
		{"02 deleted for a while", func() error {
			_, err := db.TrashSubmissions(ctx, "site", "form", []string{"02"}, T0.Add(time.Hour))
			return err
		}, first},
		{"02 restored", func() error {
			_, err := db.UndeleteSubmissions(ctx, "site", "form", []string{"02"}, T0)
			return err
		}, both},
		{"02 deleted again and purged", func() error {
			if _, err := db.TrashSubmissions(ctx, "site", "form", []string{"02"}, T0.Add(time.Hour)); err != nil {
				return err
			}
			_, err := db.PurgeDeleted(ctx, T0.Add(2*time.Hour), 10)
			return err
		}, first},
		{"03, spam, deleted", func() error { _, err := db.DeleteSubmissions(ctx, "site", "form", []string{"03"}); return err }, first},
		{"01 erased", func() error { _, err := db.ErasePerson(ctx, "acme", "ann@example.com"); return err }, map[string]string{}},
		{"04 stored", func() error { return db.CreateSubmission(ctx, surveyed("04", T0, `{"topic":"sales"}`)) }, map[string]string{"/": "1 0", "topic/sales": "1 0"}},
		// Marked as spam and back, and deleted, before it is counted.
		{"05 stored, marked as spam while queued, counted", func() error {
			if err := db.CreateSubmission(ctx, surveyed("05", T0, `{"topic":"support"}`)); err != nil {
				return err
			}
			if _, err := db.SetSpam(ctx, "site", "form", []string{"05"}, true); err != nil {
				return err
			}
			_, err := db.CountQueued(ctx)
			return err
		}, map[string]string{"/": "1 0", "topic/sales": "1 0"}},
		{"05 not spam", func() error { _, err := db.SetSpam(ctx, "site", "form", []string{"05"}, false); return err },
			map[string]string{"/": "2 0", "topic/sales": "1 0", "topic/support": "1 0"}},
		{"06 stored and deleted while queued, 05 deleted", func() error {
			if err := db.CreateSubmission(ctx, surveyed("06", T0, `{"topic":"support"}`)); err != nil {
				return err
			}
			if _, err := db.DeleteSubmissions(ctx, "site", "form", []string{"05", "06"}); err != nil {
				return err
			}
			if n, err := db.CountQueued(ctx); err != nil || n != 0 {
				return fmt.Errorf("CountQueued after 06 went = %d, %v; want none left", n, err)
			}
			return nil
		}, map[string]string{"/": "1 0", "topic/sales": "1 0"}},
		{"04 deleted by retention", func() error {
			_, err := db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(time.Minute), 10)
			return err
		}, map[string]string{}},
	}
	for _, s := range steps {
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		wantCounts(t, db, time.Time{}, s.want, s.name)
	}
}

// testTallySubmissions: submissions stored without tallies, as before the
// hub kept them, count for nothing until TallySubmissions gives them
// theirs, a batch at a time, each once however often it runs; spam and
// deleted ones get theirs too, to count once marked otherwise.
func testTallySubmissions(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	untallied := func(id, payload string) hub.Submission {
		s := surveyed(id, T0, payload)
		s.Tallies = ""
		return s
	}
	spam := untallied("03", `{"topic":"support"}`)
	spam.Spam = true
	for _, s := range []hub.Submission{untallied("01", `{"topic":"sales"}`), untallied("02", `{"topic":"sales","stars":5}`), spam, surveyed("04", T0, `{"topic":"support"}`)} {
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	wantCounts(t, db, time.Time{}, map[string]string{"/": "1 0", "topic/support": "1 0"}, "before tallying")
	tally := func(p json.RawMessage) string { return hub.TalliesOf(summarySchema, p) }
	if n, more, err := db.TallySubmissions(ctx, "site", "form", 2, tally); err != nil || n != 2 || !more {
		t.Fatalf("TallySubmissions(2) = %d, %v, %v; want 2 and more", n, more, err)
	}
	wantCounts(t, db, time.Time{}, map[string]string{"/": "3 0", "topic/sales": "2 0", "topic/support": "1 0", "stars/5": "1 5"}, "two tallied")
	if n, more, err := db.TallySubmissions(ctx, "site", "form", 2, tally); err != nil || n != 1 || more {
		t.Fatalf("TallySubmissions(2) again = %d, %v, %v; want 1 and no more", n, more, err)
	}
	if n, more, err := db.TallySubmissions(ctx, "site", "form", 2, tally); err != nil || n != 0 || more {
		t.Fatalf("TallySubmissions once all are = %d, %v, %v; want nothing", n, more, err)
	}
	wantCounts(t, db, time.Time{}, map[string]string{"/": "3 0", "topic/sales": "2 0", "topic/support": "1 0", "stars/5": "1 5"}, "all tallied, spam left out")
	if _, err := db.SetSpam(ctx, "site", "form", []string{"03"}, false); err != nil {
		t.Fatal(err)
	}
	wantCounts(t, db, time.Time{}, map[string]string{"/": "4 0", "topic/sales": "2 0", "topic/support": "2 0", "stars/5": "1 5"}, "the spam tallied, then not spam")
}

// BeforeSummary is the schema version of a hub that kept no counts of
// answers.
const BeforeSummary = 27

// SummaryMigration fills old, a database at schema version BeforeSummary,
// with a submission as a hub of that version wrote it; open then opens
// the same database, which migrates it: the submission counts for
// nothing until TallySubmissions tallies it, then as any other.
func SummaryMigration(t *testing.T, old *sql.DB, open func() *sqldb.DB) {
	ctx := context.Background()
	if _, err := old.ExecContext(ctx, `INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent, spam)
		VALUES ('01A', 'site', 'form', 5000, '{"topic":"sales","stars":3}', '[]', '', '', FALSE)`); err != nil {
		t.Fatalf("filling the old database: %v", err)
	}
	db := open()
	wantCounts(t, db, time.Time{}, map[string]string{}, "migrated")
	if n, more, err := db.TallySubmissions(ctx, "site", "form", 10, func(p json.RawMessage) string { return hub.TalliesOf(summarySchema, p) }); err != nil || n != 1 || more {
		t.Fatalf("TallySubmissions = %d, %v, %v; want 1", n, more, err)
	}
	wantCounts(t, db, time.Time{}, map[string]string{"/": "1 0", "topic/sales": "1 0", "stars/3": "1 3"}, "tallied")
}

// testSummaryOneStatement: submissions inserted by one statement, as a
// bulk load does, are each queued for the summary once they have
// tallies, and counted; one without is left for TallySubmissions.
func testSummaryOneStatement(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	rows := []hub.Submission{
		surveyed("01", T0, `{"topic":"sales","stars":4}`),
		surveyed("02", T0, `{"topic":"support"}`),
		surveyed("03", T0, `{"topic":"sales","stars":2}`),
		surveyed("04", T0, `{"topic":"support"}`),
	}
	rows[2].Tallies = "" // stored before the hub kept tallies
	var values []string
	var args []any
	for _, s := range rows {
		n := len(args)
		values = append(values, fmt.Sprintf("($%d, 'site', 'form', $%d, $%d, '[]', '', '', $%d)", n+1, n+2, n+3, n+4))
		tallies := sql.NullString{String: s.Tallies, Valid: s.Tallies != ""}
		args = append(args, s.ID, s.CreatedAt.UnixMilli(), string(s.Payload), tallies)
	}
	if _, err := db.Writer().ExecContext(ctx, `INSERT INTO submissions (id, site, form, created_at, payload, attachments, client_addr, user_agent, tallies)
		VALUES `+strings.Join(values, ", "), args...); err != nil {
		t.Fatal(err)
	}
	three := map[string]string{"/": "3 0", "topic/sales": "1 0", "topic/support": "2 0", "stars/4": "1 4"}
	wantCounts(t, db, time.Time{}, three, "inserted, queued")
	if _, err := db.CountQueued(ctx); err != nil {
		t.Fatal(err)
	}
	wantCounts(t, db, time.Time{}, three, "inserted, counted")
	tally := func(p json.RawMessage) string { return hub.TalliesOf(summarySchema, p) }
	if n, more, err := db.TallySubmissions(ctx, "site", "form", 10, tally); err != nil || n != 1 || more {
		t.Fatalf("TallySubmissions = %d, %v, %v; want 1", n, more, err)
	}
	wantCounts(t, db, time.Time{}, map[string]string{"/": "4 0", "topic/sales": "2 0", "topic/support": "2 0", "stars/4": "1 4", "stars/2": "1 2"}, "tallied")
}

// testSummaryRace: two hubs tallying the same form's older submissions
// at once, and counting the same queue at once while a third writer marks
// some as spam, count each submission once.
func testSummaryRace(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	const n = 200
	for i := range n {
		s := surveyed(fmt.Sprintf("old%03d", i), T0.Add(time.Duration(i)*time.Hour), `{"topic":"sales"}`)
		s.Tallies = "" // stored before the hub kept tallies
		if err := dbs[0].CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
		if err := dbs[1].CreateSubmission(ctx, surveyed(fmt.Sprintf("new%03d", i), T0.Add(time.Duration(i)*time.Hour), `{"topic":"support"}`)); err != nil {
			t.Fatal(err)
		}
	}
	tally := func(p json.RawMessage) string { return hub.TalliesOf(summarySchema, p) }
	var wg sync.WaitGroup
	var tallied atomic.Int64
	for _, db := range dbs {
		wg.Go(func() {
			for {
				k, more, err := db.TallySubmissions(ctx, "site", "form", 7, tally)
				if err != nil {
					t.Error(err)
					return
				}
				tallied.Add(int64(k))
				if !more && k == 0 {
					return
				}
			}
		})
		wg.Go(func() {
			if _, err := db.CountQueued(ctx); err != nil {
				t.Error(err)
			}
		})
	}
	spam := []string{"new000", "new001", "old000", "old001"}
	wg.Go(func() {
		if _, err := dbs[1].SetSpam(ctx, "site", "form", spam, true); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()
	if tallied.Load() != n {
		t.Errorf("tallied %d submissions, want %d", tallied.Load(), n)
	}
	for _, db := range dbs {
		if _, err := db.CountQueued(ctx); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"/": fmt.Sprint(2*n-4, " 0"), "topic/sales": fmt.Sprint(n-2, " 0"), "topic/support": fmt.Sprint(n-2, " 0")}
	wantCounts(t, dbs[0], time.Time{}, want, "tallied and counted by two hubs at once")
}
