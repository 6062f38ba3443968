package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// testLimits checks the limits a store enforces as it stores a
// submission: a form's maximum and its unique values.
func testLimits(t *testing.T, open Open) {
	for _, tt := range []struct {
		name string
		fn   func(*testing.T, Open)
	}{
		{"MaxSubmissions", testMaxSubmissions},
		{"MaxSubmissionsRace", testMaxSubmissionsRace},
		{"UniqueValues", testUniqueValues},
		{"UniqueValueRace", testUniqueValueRace},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.fn(t, open)
		})
	}
}

// limited returns a submission of "site"/"form" that the store keeps
// within max submissions and with the unique values given as field, value
// pairs.
func limited(id string, max int, unique ...string) hub.Submission {
	s := Submission(id)
	s.Limits.MaxSubmissions = max
	for i := 0; i+1 < len(unique); i += 2 {
		s.Limits.Unique = append(s.Limits.Unique, hub.UniqueValue{Field: unique[i], Value: unique[i+1]})
	}
	return s
}

// wantClosed fails the test unless err wraps hub.ErrClosed.
func wantClosed(t *testing.T, err error, what string) {
	t.Helper()
	if !errors.Is(err, hub.ErrClosed) {
		t.Errorf("%s: error %v, want one wrapping hub.ErrClosed", what, err)
	}
}

// wantDuplicate fails the test unless err is a *hub.DuplicateError for
// field.
func wantDuplicate(t *testing.T, err error, field, what string) {
	t.Helper()
	dup, ok := errors.AsType[*hub.DuplicateError](err)
	if !ok || !errors.Is(err, hub.ErrDuplicate) || dup.Field != field {
		t.Errorf("%s: error %v, want a *hub.DuplicateError for %q", what, err, field)
	}
}

// wantFull fails the test unless FormFull answers full for "site"/"form"
// and max.
func wantFull(t *testing.T, db *sqldb.DB, max int, full bool) {
	t.Helper()
	got, err := db.FormFull(context.Background(), "site", "form", max)
	if err != nil || got != full {
		t.Errorf("FormFull(max %d) = %v, %v; want %v", max, got, err, full)
	}
}

// uniqueRows returns the number of unique values recorded for submission
// id, read from the table itself.
func uniqueRows(t *testing.T, db *sqldb.DB, id string) int {
	t.Helper()
	var n int
	if err := db.Reader().QueryRow(`SELECT COUNT(*) FROM unique_values WHERE submission_id = $1`, id).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func testMaxSubmissions(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	const max = 3
	wantFull(t, db, max, false)
	mustCreate := func(s hub.Submission) {
		t.Helper()
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatalf("CreateSubmission(%s): %v", s.ID, err)
		}
	}
	mustCreate(limited("01", max))
	mustCreate(limited("02", max))
	// Flagged submissions carry no limits and are not counted.
	for _, id := range []string{"s1", "s2"} {
		s := Submission(id)
		s.Spam, s.Held = true, true
		mustCreate(s)
	}
	wantFull(t, db, max, false)
	first := limited("03", max)
	first.IdempotencyKey = "k"
	mustCreate(first)
	wantFull(t, db, max, true)
	wantFull(t, db, max+1, false)

	wantClosed(t, db.CreateSubmission(ctx, limited("04", max)), "a fourth submission")
	// A repeat of a stored submission is told of it, full or not.
	repeat := limited("05", max)
	repeat.IdempotencyKey = "k"
	wantKeyUsed(t, db.CreateSubmission(ctx, repeat), "k", "03")
	// Other forms, and submissions without the limit, are not refused.
	other := limited("06", max)
	other.Slug = "other"
	mustCreate(other)
	mustCreate(Submission("07"))
	if n := Count(t, db, hub.Filter{Site: "site", Slug: "form"}); n != max+3 {
		t.Errorf("%d submissions of the form, want %d", n, max+3)
	}

	// A deleted submission frees its place.
	if _, err := db.DeleteSubmissions(ctx, "site", "form", []string{"01", "07"}); err != nil {
		t.Fatal(err)
	}
	wantFull(t, db, max, false)
	mustCreate(limited("08", max))
	wantClosed(t, db.CreateSubmission(ctx, limited("09", max)), "a submission once full again")
	if n := Count(t, db, hub.Filter{Site: "site", Slug: "form", Spam: hub.NotSpam}); n != max {
		t.Errorf("%d submissions not spam, want %d", n, max)
	}
}

func testMaxSubmissionsRace(t *testing.T, open Open) {
	// Hubs on one database store a form's last places exactly: of 500
	// submissions racing for 10 places, through every handle, 10 are
	// stored and the others refused as closed.
	ctx := context.Background()
	dbs := open(t, 2)
	const max, left, racers = 25, 10, 500
	for i := range max - left {
		if err := dbs[i%len(dbs)].CreateSubmission(ctx, limited(fmt.Sprintf("pre%02d", i), max)); err != nil {
			t.Fatal(err)
		}
	}
	var (
		wg             sync.WaitGroup
		stored, closed sync.Map
	)
	for i := range racers {
		db := dbs[i%len(dbs)]
		wg.Go(func() {
			id := fmt.Sprintf("race%03d", i)
			err := db.CreateSubmission(ctx, limited(id, max))
			switch {
			case err == nil:
				stored.Store(id, true)
			case errors.Is(err, hub.ErrClosed):
				closed.Store(id, true)
			default:
				t.Errorf("%s: %v", id, err)
			}
		})
	}
	wg.Wait()
	n, refused := 0, 0
	stored.Range(func(any, any) bool { n++; return true })
	closed.Range(func(any, any) bool { refused++; return true })
	if n != left || refused != racers-left {
		t.Errorf("%d stored and %d refused as closed, want %d and %d", n, refused, left, racers-left)
	}
	if got := Count(t, dbs[1], hub.Filter{Site: "site", Slug: "form"}); got != max {
		t.Errorf("the form holds %d submissions, want %d", got, max)
	}
}

func testUniqueValues(t *testing.T, open Open) {
	ctx := context.Background()
	dbs := open(t, 2)
	a, b := dbs[0], dbs[1]
	if err := a.CreateSubmission(ctx, limited("01", 0, "email", "jane@example.com", "phone", "555 0100")); err != nil {
		t.Fatal(err)
	}
	// Through another handle, as on another hub.
	wantDuplicate(t, b.CreateSubmission(ctx, limited("02", 0, "email", "jane@example.com")), "email", "the same address")
	wantDuplicate(t, b.CreateSubmission(ctx, limited("03", 0, "email", "joe@example.com", "phone", "555 0100")), "phone", "the same phone")
	// The refused submission left nothing: not its first value either.
	if err := b.CreateSubmission(ctx, limited("04", 0, "email", "joe@example.com")); err != nil {
		t.Errorf("joe's address after a refused submission carrying it: %v", err)
	}
	// Values belong to their field and form; flagged submissions carry
	// none.
	other := limited("05", 0, "email", "jane@example.com")
	other.Slug = "other"
	spam := Submission("06")
	spam.Spam = true
	for _, s := range []hub.Submission{
		other,
		limited("07", 0, "ref", "jane@example.com"),
		spam,
	} {
		if err := a.CreateSubmission(ctx, s); err != nil {
			t.Errorf("CreateSubmission(%s): %v", s.ID, err)
		}
	}
	for _, id := range []string{"02", "03", "06"} {
		if n := uniqueRows(t, a, id); n != 0 {
			t.Errorf("submission %s has %d unique values recorded, want none", id, n)
		}
	}
	if n := Count(t, a, hub.Filter{}); n != 5 {
		t.Errorf("%d submissions stored, want 5", n)
	}

	// The values go with their submission: deleted by an owner, or by
	// retention.
	if n := uniqueRows(t, a, "01"); n != 2 {
		t.Fatalf("submission 01 has %d unique values recorded, want 2", n)
	}
	if _, err := a.DeleteSubmissions(ctx, "site", "form", []string{"01"}); err != nil {
		t.Fatal(err)
	}
	if n := uniqueRows(t, a, "01"); n != 0 {
		t.Errorf("deleted submission 01 has %d unique values left", n)
	}
	if err := b.CreateSubmission(ctx, limited("08", 0, "email", "jane@example.com")); err != nil {
		t.Errorf("jane's address once her submission was deleted: %v", err)
	}
	old := limited("09", 0, "email", "old@example.com")
	old.CreatedAt = T0.Add(-48 * time.Hour)
	if err := a.CreateSubmission(ctx, old); err != nil {
		t.Fatal(err)
	}
	if d, err := b.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(-24*time.Hour), 10); err != nil || d.Submissions != 1 {
		t.Fatalf("retention: %+v, %v; want 09 deleted", d, err)
	}
	if n := uniqueRows(t, a, "09"); n != 0 {
		t.Errorf("submission 09, deleted by retention, has %d unique values left", n)
	}
	if err := a.CreateSubmission(ctx, limited("10", 0, "email", "old@example.com")); err != nil {
		t.Errorf("an address once its submission expired: %v", err)
	}
}

func testUniqueValueRace(t *testing.T, open Open) {
	// Of submissions racing with one value through every handle, one is
	// stored; the others are refused as duplicates, and, on a database
	// that batches them, do not fail the batch.
	ctx := context.Background()
	dbs := open(t, 2)
	const rounds, racers = 10, 8
	for r := range rounds {
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			winners int
		)
		for i := range racers {
			db := dbs[i%len(dbs)]
			wg.Go(func() {
				s := limited(fmt.Sprintf("r%02d-%d", r, i), 0, "email", fmt.Sprintf("p%d@example.com", r))
				// A limit too, so that both are enforced in one
				// transaction without a deadlock between them.
				s.Limits.MaxSubmissions = 1000
				err := db.CreateSubmission(ctx, s)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					winners++
				default:
					wantDuplicate(t, err, "email", s.ID)
				}
			})
		}
		wg.Wait()
		if winners != 1 {
			t.Errorf("round %d: %d stored, want 1", r, winners)
		}
	}
	if n := Count(t, dbs[0], hub.Filter{}); n != rounds {
		t.Errorf("%d submissions stored, want %d", n, rounds)
	}
}
