package storetest

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// BeforeCounts is the schema version of a hub that counted submissions
// one by one, before submission_counts.
const BeforeCounts = 17

// createCounted stores 24 submissions of the form "site"/"form", 7
// minutes apart from T0, a third of them spam, and 3 of "site"/"other".
func createCounted(t *testing.T, db *sqldb.DB) {
	t.Helper()
	for i := range 24 {
		s := Submission(fmt.Sprintf("c%02d", i))
		s.CreatedAt, s.Spam = T0.Add(time.Duration(i)*7*time.Minute), i%3 == 0
		if err := db.CreateSubmission(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		s := Submission(fmt.Sprintf("o%02d", i))
		s.Slug, s.CreatedAt = "other", T0.Add(time.Duration(i)*20*time.Minute)
		if err := db.CreateSubmission(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

// checkCounts checks that submission_counts holds, for each form,
// quarter and spam mark, the number of submissions, and that counts of
// various filters, read through it or not, equal the submissions listed.
func checkCounts(t *testing.T, db *sqldb.DB, when string) {
	t.Helper()
	ctx := context.Background()
	read := func(query string) map[string]int64 {
		rows, err := db.Reader().QueryContext(ctx, query)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		defer rows.Close()
		out := map[string]int64{}
		for rows.Next() {
			var (
				site, form string
				quarter, n int64
				spam       bool
			)
			if err := rows.Scan(&site, &form, &quarter, &spam, &n); err != nil {
				t.Fatalf("%s: %v", when, err)
			}
			out[fmt.Sprint(site, "/", form, " ", quarter, " ", spam)] = n
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		return out
	}
	table := read(`SELECT site, form, quarter, spam, CAST(SUM(n) AS BIGINT) FROM submission_counts GROUP BY site, form, quarter, spam HAVING SUM(n) <> 0`)
	counted := read(`SELECT site, form, created_at / 900000, spam, COUNT(*) FROM submissions GROUP BY site, form, created_at / 900000, spam`)
	if !reflect.DeepEqual(table, counted) {
		t.Errorf("%s: submission_counts holds %v, the submissions are %v", when, table, counted)
	}

	all := ListAll(t, db, hub.Filter{})
	q := T0.Truncate(15 * time.Minute)
	ranges := [][2]time.Time{
		{},
		{q, time.Time{}},
		{q.Add(15 * time.Minute), q.Add(75 * time.Minute)},
		{T0, time.Time{}},
		{T0.Add(3*time.Minute + time.Millisecond), T0.Add(2*time.Hour + time.Millisecond)},
		{T0.Add(time.Minute), T0.Add(5 * time.Minute)},
		{time.Time{}, T0.Add(50 * time.Minute)},
		{time.Time{}, q.Add(time.Hour)},
	}
	for _, base := range []hub.Filter{{Site: "site", Slug: "form"}, {Site: "site", Slug: "other"}, {Site: "site"}} {
		for _, spam := range []hub.SpamFilter{hub.AnySpam, hub.NotSpam, hub.OnlySpam} {
			for _, r := range ranges {
				f := base
				f.Spam, f.From, f.To = spam, r[0], r[1]
				var want []hub.Submission
				for _, s := range all {
					if s.Site == f.Site && (f.Slug == "" || s.Slug == f.Slug) &&
						(spam == hub.AnySpam || s.Spam == (spam == hub.OnlySpam)) &&
						(f.From.IsZero() || !s.CreatedAt.Before(f.From)) && (f.To.IsZero() || s.CreatedAt.Before(f.To)) {
						want = append(want, s)
					}
				}
				// Two forms' ids are not in time order.
				slices.SortStableFunc(want, func(a, b hub.Submission) int { return a.CreatedAt.Compare(b.CreatedAt) })
				if n, err := db.CountSubmissions(ctx, f); err != nil || n != len(want) {
					t.Errorf("%s: CountSubmissions(%+v) = %d, %v; want %d", when, f, n, err, len(want))
				}
				for _, step := range []time.Duration{15 * time.Minute, time.Hour, 24 * time.Hour, 10 * time.Minute} {
					var by []hub.TimeCount
					ms := step.Milliseconds()
					for _, s := range want {
						start := time.UnixMilli(s.CreatedAt.UnixMilli() / ms * ms).UTC()
						if len(by) > 0 && by[len(by)-1].Start.Equal(start) {
							by[len(by)-1].N++
						} else {
							by = append(by, hub.TimeCount{Start: start, N: 1})
						}
					}
					got, err := db.CountSubmissionsBy(ctx, f, step)
					if err != nil || !reflect.DeepEqual(got, by) {
						t.Errorf("%s: CountSubmissionsBy(%+v, %v) = %v, %v; want %v", when, f, step, got, err, by)
					}
				}
			}
		}
	}
}

// testCounts checks that submission_counts follows what happens to the
// submissions: stored, deleted, marked as spam and back, removed by
// retention; and that counts read it.
func testCounts(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	checkCounts(t, db, "empty")
	createCounted(t, db)
	checkCounts(t, db, "stored")
	if _, err := db.DeleteSubmissions(ctx, "site", "form", []string{"c03", "c04"}); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, db, "deleted")
	if _, err := db.SetSpam(ctx, "site", "form", []string{"c01", "c05", "c06"}, true); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, db, "marked as spam")
	if _, err := db.SetSpam(ctx, "site", "form", []string{"c00", "c09", "c10"}, false); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, db, "marked as not spam")
	if _, err := db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(40*time.Minute), 100); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, db, "after retention")

	// Counts read submission_counts: a count of whole quarters follows
	// it, one that searches counts the submissions.
	f := hub.Filter{Site: "site", Slug: "form"}
	want := Count(t, db, hub.Filter{Site: "site", Slug: "form", Search: "jane"})
	if _, err := db.Writer().ExecContext(ctx, `UPDATE submission_counts SET n = n + 1000 WHERE site = 'site' AND form = 'form'
		AND quarter = (SELECT MAX(quarter) FROM submission_counts WHERE site = 'site' AND form = 'form')`); err != nil {
		t.Fatal(err)
	}
	if n, err := db.CountSubmissions(ctx, f); err != nil || n < want+1000 {
		t.Errorf("CountSubmissions(%+v) = %d, %v; want it read from submission_counts, %d and more", f, n, err, want+1000)
	}
	if got, err := db.CountSubmissionsBy(ctx, f, time.Hour); err != nil || len(got) == 0 || got[len(got)-1].N < 1000 {
		t.Errorf("CountSubmissionsBy(%+v, 1h) = %v, %v; want it read from submission_counts", f, got, err)
	}
}

// CountsMigration fills old, a database at schema version BeforeCounts,
// through the methods of the hub of that version, then opens it with
// open, which migrates it: counts must hold the submissions stored
// before, and those stored after.
func CountsMigration(t *testing.T, old *sqldb.DB, open func() *sqldb.DB) {
	ctx := context.Background()
	createCounted(t, old)
	if _, err := old.SetSpam(ctx, "site", "form", []string{"c01"}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := old.DeleteSubmissions(ctx, "site", "form", []string{"c02"}); err != nil {
		t.Fatal(err)
	}
	db := open()
	checkCounts(t, db, "migrated")
	s := Submission("d00")
	s.CreatedAt = T0.Add(3 * time.Hour)
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	checkCounts(t, db, "stored after the migration")
}

// testCountsCompacted checks that CompactCounts leaves every count as it
// was, with at most one row for each form, quarter and spam mark before
// its time, none at 0, and the rows of later quarters as they were.
func testCountsCompacted(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	createCounted(t, db)
	if _, err := db.DeleteSubmissions(ctx, "site", "form", []string{"c03", "c04", "c05"}); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetSpam(ctx, "site", "form", []string{"c00"}, false); err != nil {
		t.Fatal(err)
	}
	// Rows that concurrent writers leave: slots of one quarter, a slot
	// at 0, and a slot of a quarter after the compaction's time.
	q, late := T0.UnixMilli()/900000, T0.Add(2*time.Hour).UnixMilli()/900000
	if _, err := db.Writer().ExecContext(ctx, `INSERT INTO submission_counts (site, form, quarter, spam, slot, n)
		VALUES ('site', 'form', $1, false, 5, 2), ('site', 'form', $1, false, 6, -2), ('site', 'form', $1, true, 7, 0),
		('site', 'other', $2, false, 3, 1), ('site', 'other', $2, false, 4, -1)
		ON CONFLICT (site, form, quarter, spam, slot) DO UPDATE SET n = submission_counts.n + EXCLUDED.n`, q, late); err != nil {
		t.Fatal(err)
	}
	rows := func(query string) int {
		t.Helper()
		var n int
		if err := db.Reader().QueryRowContext(ctx, query).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	n, err := db.CompactCounts(ctx, T0.Add(2*time.Hour))
	if err != nil || n < 3 {
		t.Fatalf("CompactCounts = %d, %v; want the 3 slots and the rows at 0 deleted", n, err)
	}
	checkCounts(t, db, "compacted")
	before := ` AND quarter < ` + fmt.Sprint(late)
	if n := rows(`SELECT COUNT(*) FROM submission_counts WHERE n = 0` + before); n != 0 {
		t.Errorf("after CompactCounts, %d rows at 0 before its time", n)
	}
	if n := rows(`SELECT COUNT(*) FROM (SELECT site FROM submission_counts WHERE true` + before + ` GROUP BY site, form, quarter, spam HAVING COUNT(*) > 1) g`); n != 0 {
		t.Errorf("after CompactCounts, %d quarters of several rows before its time", n)
	}
	if n := rows(`SELECT COUNT(*) FROM submission_counts WHERE slot IN (3, 4) AND form = 'other' AND quarter = ` + fmt.Sprint(late)); n != 2 {
		t.Errorf("after CompactCounts, %d of the 2 slots of a later quarter; want both left", n)
	}
	if n, err := db.CompactCounts(ctx, T0.Add(2*time.Hour)); err != nil || n != 0 {
		t.Errorf("CompactCounts again = %d, %v; want 0, nil", n, err)
	}
}
