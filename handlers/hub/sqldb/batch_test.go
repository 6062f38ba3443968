package sqldb_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/handlers/hub/sqlite"
)

// TestSubmissionsStoredTogether holds SQLite's writer with one submission
// while three more arrive: those three are stored in one transaction, and
// the one of them its hook refuses leaves nothing, not even the hook's
// own write, while the other two are stored.
func TestSubmissionsStoredTogether(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t, `CREATE TABLE hook_test (id TEXT PRIMARY KEY)`)
	release := make(chan struct{})
	refused := errors.New("refused by the hook")
	var mu sync.Mutex
	txOf := map[string]*sql.Tx{}
	db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO hook_test (id) VALUES ($1)`, s.ID); err != nil {
			return err
		}
		mu.Lock()
		txOf[s.ID] = tx.Tx
		mu.Unlock()
		switch s.ID {
		case "first":
			<-release
		case "refused":
			return refused
		}
		return nil
	})

	errs := map[string]chan error{}
	send := func(id string) {
		done := make(chan error, 1)
		errs[id] = done
		go func() { done <- db.CreateSubmission(ctx, storetest.Submission(id)) }()
	}
	send("first")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		started := txOf["first"] != nil
		mu.Unlock()
		if started {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the first submission never reached its hook")
		}
	}
	for _, id := range []string{"second", "refused", "third"} {
		send(id)
	}
	for deadline := time.Now().Add(10 * time.Second); db.WaitingSubmissions() < 3; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d submissions wait for the writer, want 3", db.WaitingSubmissions())
		}
	}
	close(release)

	for id, want := range map[string]error{"first": nil, "second": nil, "third": nil, "refused": refused} {
		if err := <-errs[id]; !errors.Is(err, want) {
			t.Errorf("CreateSubmission(%s) = %v, want %v", id, err, want)
		}
	}
	if txOf["second"] != txOf["third"] || txOf["second"] != txOf["refused"] || txOf["first"] == txOf["second"] {
		t.Error("the three submissions that waited were not stored in one transaction after the first")
	}
	for id, want := range map[string]bool{"first": true, "second": true, "third": true, "refused": false} {
		_, err := db.Submission(ctx, id)
		var n int
		db.Reader().QueryRowContext(ctx, `SELECT count(*) FROM hook_test WHERE id = $1`, id).Scan(&n)
		if stored := err == nil; stored != want || (n == 1) != want {
			t.Errorf("%s: stored %v, hook's row %d; want stored %v", id, stored, n, want)
		}
	}
}

// TestSubmissionCommitFails has a hook leave what SQLite refuses only at
// commit: the submission is reported refused, and is not stored.
func TestSubmissionCommitFails(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t, `CREATE TABLE parent (id TEXT PRIMARY KEY);
		CREATE TABLE child (parent TEXT REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`)
	db.SetSubmissionHook(func(ctx context.Context, tx sqldb.Tx, s hub.Submission) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO child (parent) VALUES ('none')`)
		return err
	})
	if err := db.CreateSubmission(ctx, storetest.Submission("dangling")); err == nil {
		t.Error("CreateSubmission succeeded though its transaction could not commit")
	}
	if _, err := db.Submission(ctx, "dangling"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Submission(dangling) = %v, want ErrNotFound", err)
	}
}

// openSQLite opens a hub's SQLite database in a temporary directory, with
// the tables of ddl beside the hub's own, and closes it after the test.
func openSQLite(t *testing.T, ddl string) *sqldb.DB {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "hub.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.Writer().ExecContext(context.Background(), ddl); err != nil {
		t.Fatal(err)
	}
	return db
}
