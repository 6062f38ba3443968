package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// testSubmissionByID checks that a stored submission reads back by id.
func testSubmissionByID(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	s := Submission("01")
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	s.Attachments = []hubclient.Attachment{}
	if got, err := db.Submission(ctx, "01"); err != nil || !reflect.DeepEqual(got, s) {
		t.Errorf("Submission(01) = %+v, %v; want %+v", got, err, s)
	}
	if _, err := db.Submission(ctx, "02"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Submission(02) = %v, want ErrNotFound", err)
	}
}

// testSubmissionHook checks that the hook's writes commit with the
// submission, and that its error, or a refused submission, stores neither.
func testSubmissionHook(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	fail := errors.New("hook failed")
	var hookErr error
	hookRows := hookIntoTable(t, db, "hook_test", func(hub.Submission) error { return hookErr })

	if err := db.CreateSubmission(ctx, Submission("ok")); err != nil {
		t.Fatalf("CreateSubmission(ok): %v", err)
	}
	hookErr = fail
	if err := db.CreateSubmission(ctx, Submission("hook-fails")); !errors.Is(err, fail) {
		t.Errorf("CreateSubmission(hook-fails) = %v, want the hook's error", err)
	}
	hookErr = nil
	// A submission refused after the insert (an upload that does not
	// exist) never reaches the hook, and nothing of it stays.
	if err := db.CreateSubmission(ctx, Submission("refused", Attachment(Upload("none")))); !errors.Is(err, hub.ErrUploadClaim) {
		t.Errorf("CreateSubmission(refused) = %v, want ErrUploadClaim", err)
	}
	ids := hookRows()
	if !reflect.DeepEqual(ids, []string{"ok"}) {
		t.Errorf("hook rows = %v, want [ok]", ids)
	}
	if got := ListAll(t, db, hub.Filter{}); len(got) != 1 || got[0].ID != "ok" {
		t.Errorf("submissions = %+v, want ok alone", got)
	}
}

// hookIntoTable makes db's submission hook write each submission's id to
// a new table through the hook's transaction, as the delivery queue
// inserts its jobs, and check that the driver's connection is reachable,
// as a queue with a driver of its own needs; then it returns what next
// returns. It returns a function reading the ids in the table, sorted.
func hookIntoTable(t *testing.T, db *sqldb.DB, table string, next func(hub.Submission) error) func() []string {
	t.Helper()
	ctx := context.Background()
	if _, err := db.Writer().ExecContext(ctx, `CREATE TABLE `+table+` (id TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO `+table+` (id) VALUES ($1)`, s.ID); err != nil {
			return err
		}
		if err := tx.Raw(func(c any) error {
			if c == nil {
				return errors.New("no driver connection")
			}
			return nil
		}); err != nil {
			return err
		}
		return next(s)
	})
	return func() []string {
		t.Helper()
		rows, err := db.Writer().QueryContext(ctx, `SELECT id FROM `+table+` ORDER BY id`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return ids
	}
}
