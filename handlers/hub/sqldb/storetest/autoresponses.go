package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// autoresponseHook returns a hook that takes the confirmation budget of
// each submission's "email" value on day, as the delivery queue does, and
// records in granted the ids of those within it.
func autoresponseHook(day int64, limit int, granted *sync.Map) sqldb.SubmissionHook {
	return func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		var v struct {
			Email string `json:"email"`
		}
		if err := json.Unmarshal(s.Payload, &v); err != nil {
			return err
		}
		ok, err := sqldb.TakeAutoresponse(ctx, tx, s.Site, s.Slug, v.Email, day, limit)
		if err != nil {
			return err
		}
		if ok {
			granted.Store(s.ID, true)
		}
		if v.Email == "rollback@example.com" {
			return errRolledBack
		}
		return nil
	}
}

var errRolledBack = errors.New("rolled back by the test")

// submissionFrom returns a submission of site/slug whose "email" is email.
func submissionFrom(id, site, slug, email string) hub.Submission {
	s := Submission(id)
	s.Site, s.Slug = site, slug
	s.Payload = json.RawMessage(fmt.Sprintf(`{"email":%q}`, email))
	return s
}

func has(m *sync.Map, id string) bool {
	_, ok := m.Load(id)
	return ok
}

// testAutoresponseBudget checks the budget of confirmation e-mails: three
// per address, form and day, the address compared without case and kept
// only as a hash, a rolled-back submission taking nothing, and old days
// pruned.
func testAutoresponseBudget(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	day := sqldb.Day(T0)
	var granted sync.Map
	db.SetSubmissionHook(autoresponseHook(day, 3, &granted))
	create := func(s hub.Submission) {
		t.Helper()
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatalf("CreateSubmission(%s): %v", s.ID, err)
		}
	}
	// A rolled-back submission takes nothing of the budget.
	if err := db.CreateSubmission(ctx, submissionFrom("r", "site", "form", "rollback@example.com")); !errors.Is(err, errRolledBack) {
		t.Fatalf("CreateSubmission(r) = %v", err)
	}
	for i, email := range []string{"jane@example.com", "Jane@Example.COM", "JANE@example.com", "jane@example.com"} {
		create(submissionFrom(fmt.Sprint("a", i), "site", "form", email))
	}
	for i, want := range []bool{true, true, true, false} {
		if id := fmt.Sprint("a", i); has(&granted, id) != want {
			t.Errorf("submission %s granted %v, want %v", id, !want, want)
		}
	}
	// Another form, site or address has a budget of its own.
	create(submissionFrom("other-form", "site", "other", "jane@example.com"))
	create(submissionFrom("other-site", "other", "form", "jane@example.com"))
	create(submissionFrom("other-address", "site", "form", "john@example.com"))
	for _, id := range []string{"other-form", "other-site", "other-address"} {
		if !has(&granted, id) {
			t.Errorf("submission %s was refused", id)
		}
	}
	var (
		rolledBack, withAddress int
	)
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM autoresponses WHERE address = $1`, sqldb.AddressKey("rollback@example.com")).Scan(&rolledBack); err != nil {
		t.Fatal(err)
	}
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM autoresponses WHERE address LIKE '%@%'`).Scan(&withAddress); err != nil {
		t.Fatal(err)
	}
	if rolledBack != 0 || withAddress != 0 {
		t.Errorf("%d rows of the rolled-back submission, %d rows holding an address; want none", rolledBack, withAddress)
	}
	var count int
	if err := db.Reader().QueryRowContext(ctx, `SELECT count FROM autoresponses WHERE site = 'site' AND form = 'form' AND address = $1 AND day = $2`,
		sqldb.AddressKey("jane@example.com"), day).Scan(&count); err != nil || count != 3 {
		t.Errorf("count of the spent budget = %d, %v; want 3 (refusals are not counted)", count, err)
	}

	// The next day the budget is whole again.
	db.SetSubmissionHook(autoresponseHook(day+1, 3, &granted))
	create(submissionFrom("next-day", "site", "form", "jane@example.com"))
	if !has(&granted, "next-day") {
		t.Error("the next day's first confirmation was refused")
	}

	// Pruning on day+2 keeps day+1 and day+2, deletes day.
	var pruned int64
	db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		var err error
		pruned, err = sqldb.PruneAutoresponses(ctx, tx, day+2)
		return err
	})
	create(Submission("prune"))
	var left int
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM autoresponses WHERE day = $1`, day+1).Scan(&left); err != nil {
		t.Fatal(err)
	}
	var total int
	if err := db.Reader().QueryRowContext(ctx, `SELECT COUNT(*) FROM autoresponses`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	if pruned != 4 || left != 1 || total != 1 {
		t.Errorf("pruned %d rows, %d left of day+1 and %d in all; want 4 pruned and 1 left", pruned, left, total)
	}
}

// testAutoresponseRace sends ten submissions from one address at once,
// through two handles as two hubs would: exactly three get a confirmation.
func testAutoresponseRace(t *testing.T, open Open) {
	dbs := open(t, 2)
	day := sqldb.Day(T0)
	var granted sync.Map
	for _, db := range dbs {
		db.SetSubmissionHook(autoresponseHook(day, 3, &granted))
	}
	const n = 10
	var (
		wg     sync.WaitGroup
		stored atomic.Int64
	)
	for i := range n {
		db := dbs[i%len(dbs)]
		wg.Go(func() {
			if err := db.CreateSubmission(context.Background(), submissionFrom(fmt.Sprint("S", i), "site", "form", "jane@example.com")); err != nil {
				t.Errorf("CreateSubmission(S%d): %v", i, err)
				return
			}
			stored.Add(1)
		})
	}
	wg.Wait()
	got := 0
	granted.Range(func(any, any) bool { got++; return true })
	if got != 3 || stored.Load() != n {
		t.Errorf("%d of %d stored submissions granted a confirmation, want 3 of %d", got, stored.Load(), n)
	}
}
