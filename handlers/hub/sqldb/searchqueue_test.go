package sqldb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/postgres"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
)

// store stores n submissions whose message holds word.
func store(t *testing.T, db *sqldb.DB, from, n int, word string) {
	t.Helper()
	for i := from; i < from+n; i++ {
		s := storetest.Submission(fmt.Sprintf("q%05d", i))
		s.Payload = json.RawMessage(`{"message":"` + word + `"}`)
		if err := db.CreateSubmission(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
}

// queued returns how many submissions wait to be indexed for search, and
// how many the index finds for word.
func queued(t *testing.T, db *sqldb.DB, word string) (waiting, indexed int) {
	t.Helper()
	err := db.Reader().QueryRow(`SELECT (SELECT COUNT(*) FROM submission_search_queue),
		(SELECT COUNT(*) FROM submission_search WHERE submission_search MATCH $1)`, `"`+word+`"`).Scan(&waiting, &indexed)
	if err != nil {
		t.Fatal(err)
	}
	return waiting, indexed
}

// waitFor polls cond for 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}

func TestSearchQueueIndexedWhenQuiet(t *testing.T) {
	db := openSQLite(t, "SELECT 1")
	store(t, db, 0, 30, "okapi")
	waitFor(t, "the queue to be indexed", func() bool {
		waiting, indexed := queued(t, db, "okapi")
		return waiting == 0 && indexed == 30
	})
}

func TestSearchQueueIndexedWhileBusy(t *testing.T) {
	db := openSQLite(t, "SELECT 1")
	// Writing is never quiet for an hour: only the queue's length has it
	// indexed.
	db.SetSearchQueue(50, time.Hour)
	store(t, db, 0, 200, "quokka")
	// What remains below the length waits for quiet.
	waitFor(t, "the queue to be indexed down to under 50", func() bool {
		waiting, indexed := queued(t, db, "quokka")
		return waiting < 50 && waiting+indexed == 200
	})
}

func TestSearchQueueWaitsForQuiet(t *testing.T) {
	db := openSQLite(t, "SELECT 1")
	db.SetSearchQueue(1000, time.Hour)
	store(t, db, 0, 200, "quokka")
	time.Sleep(300 * time.Millisecond)
	if waiting, indexed := queued(t, db, "quokka"); waiting != 200 || indexed != 0 {
		t.Errorf("%d submissions queued, %d indexed; want all 200 queued until writing is quiet", waiting, indexed)
	}
}

func TestSearchIndexForgets(t *testing.T) {
	ctx := context.Background()
	db := openSQLite(t, "SELECT 1")
	db.SetSearchQueue(1000, time.Hour) // indexed by IndexQueued alone
	store(t, db, 0, 2, "okapi")
	if _, err := db.IndexQueued(ctx); err != nil {
		t.Fatal(err)
	}
	store(t, db, 2, 2, "okapi") // still queued when deleted
	if _, err := db.DeleteSubmissions(ctx, "site", "form", []string{"q00000", "q00003"}); err != nil {
		t.Fatal(err)
	}
	// The payload of an indexed submission changes.
	if _, err := db.Writer().Exec(`UPDATE submissions SET payload = '{"message":"tapir"}' WHERE id = 'q00001'`); err != nil {
		t.Fatal(err)
	}
	store(t, db, 4, 1, "okapi") // may take the rowid of q00003
	if _, err := db.IndexQueued(ctx); err != nil {
		t.Fatal(err)
	}
	if _, okapis := queued(t, db, "okapi"); okapis != 2 {
		t.Errorf("the index finds okapi in %d submissions, want 2 (q00002, q00004)", okapis)
	}
	if _, tapirs := queued(t, db, "tapir"); tapirs != 1 {
		t.Errorf("the index finds tapir in %d submissions, want 1 (q00001)", tapirs)
	}
	if _, err := db.Writer().Exec(`INSERT INTO submission_search (submission_search) VALUES ('integrity-check')`); err != nil {
		t.Errorf("the index fails its integrity check: %v", err)
	}
}

// TestIndexQueuedWaitsForOtherIndexers has another indexer hold part of
// the queue, as the DB's own does in the background or another hub's:
// IndexQueued returns only once that part is indexed too.
func TestIndexQueuedWaitsForOtherIndexers(t *testing.T) {
	ctx := context.Background()
	db, err := postgres.Open(ctx, pgtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetSearchQueue(1_000_000, time.Hour) // indexed by IndexQueued alone
	store(t, db, 0, 20, "okapi")
	other, err := db.Writer().BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Rollback()
	if _, err := other.ExecContext(ctx, `SELECT id FROM submission_search_queue ORDER BY id LIMIT 5 FOR UPDATE`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := db.IndexQueued(ctx)
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("IndexQueued returned (%v) while another indexer held 5 queued submissions", err)
	case <-time.After(300 * time.Millisecond):
	}
	other.Rollback() // it failed: they are still queued
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	var waiting, indexed int
	if err := db.Reader().QueryRow(`SELECT (SELECT COUNT(*) FROM submission_search_queue),
		(SELECT COUNT(*) FROM submission_search WHERE payload_lower LIKE '%okapi%')`).Scan(&waiting, &indexed); err != nil {
		t.Fatal(err)
	}
	if waiting != 0 || indexed != 20 {
		t.Errorf("%d submissions queued, %d indexed; want 0, 20", waiting, indexed)
	}
}
