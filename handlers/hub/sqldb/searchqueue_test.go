package sqldb_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

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
