package storetest

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
)

// BeforeSearch is the schema version of a hub whose search read every
// payload, before the trigram indexes.
const BeforeSearch = 15

// searched are the payloads of the search tests, by id: each holds a word
// of its own, and they share "common".
var searched = map[string]string{
	"01": `{"name":"Ada","message":"common aardvark"}`,
	"02": `{"name":"Ben","message":"common badger ben@example.com"}`,
	"03": `{"name":"Cy","message":"common caracal"}`,
	"04": `{"name":"Di","message":"common dingo"}`,
}

// createSearched stores the searched payloads in the form "site"/"form",
// a day apart in id order, and "common" in another form.
func createSearched(t *testing.T, db *sqldb.DB) {
	t.Helper()
	for i, id := range []string{"01", "02", "03", "04"} {
		s := Submission(id)
		s.CreatedAt, s.Payload = T0.Add(time.Duration(i)*24*time.Hour), json.RawMessage(searched[id])
		if err := db.CreateSubmission(context.Background(), s); err != nil {
			t.Fatal(err)
		}
	}
	other := Submission("09")
	other.Slug, other.Payload = "other", json.RawMessage(`{"message":"common aardvark"}`)
	if err := db.CreateSubmission(context.Background(), other); err != nil {
		t.Fatal(err)
	}
}

// checkSearches checks what searches of the form "site"/"form" select, all
// at once and a page at a time, newest first: as stored, and once the
// submissions queued for search (on SQLite) are indexed.
func checkSearches(t *testing.T, db *sqldb.DB, when string, want map[string][]string) {
	t.Helper()
	checkSearchesNow(t, db, when, want)
	if _, err := db.IndexQueued(context.Background()); err != nil {
		t.Fatal(err)
	}
	checkSearchesNow(t, db, when+", indexed", want)
}

func checkSearchesNow(t *testing.T, db *sqldb.DB, when string, want map[string][]string) {
	t.Helper()
	for term, all := range want {
		f := hub.Filter{Site: "site", Slug: "form", Search: term}
		if got := ids(t, db, f); !reflect.DeepEqual(got, all) {
			t.Errorf("%s: search %q selects %v, want %v", when, term, got, all)
		}
		f.Newest, f.Limit = true, 1
		var first []string
		if len(all) > 0 {
			first = all[len(all)-1:]
		}
		if got := ids(t, db, f); !reflect.DeepEqual(got, first) {
			t.Errorf("%s: search %q, newest alone, selects %v, want %v", when, term, got, first)
		}
	}
}

// testSearchInStep checks that a search follows what happens to the
// submissions after they are stored: deleted, marked as spam, removed by
// retention.
func testSearchInStep(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	createSearched(t, db)
	checkSearches(t, db, "stored", map[string][]string{
		"common": {"01", "02", "03", "04"}, "AARDVARK": {"01"}, "ben@example.com": {"02"},
		"ca": {"03"}, "ng": {"04"}, "nothing": nil,
	})

	if d, err := db.DeleteSubmissions(ctx, "site", "form", []string{"04"}); err != nil || d.Submissions != 1 {
		t.Fatalf("DeleteSubmissions(04) = %+v, %v", d, err)
	}
	// A submission stored after a delete may take the deleted one's place
	// in the database (SQLite reuses the rowid of the last row).
	s := Submission("05")
	s.CreatedAt, s.Payload = T0.Add(4*24*time.Hour), json.RawMessage(`{"message":"elephant"}`)
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	checkSearches(t, db, "after deleting 04", map[string][]string{
		"common": {"01", "02", "03"}, "dingo": nil, "elephant": {"05"}, "ng": nil,
	})

	if _, err := db.SetSpam(ctx, "site", "form", []string{"03"}, true); err != nil {
		t.Fatal(err)
	}
	spam := hub.Filter{Site: "site", Slug: "form", Search: "caracal", Spam: hub.OnlySpam}
	if got := ids(t, db, spam); !reflect.DeepEqual(got, []string{"03"}) {
		t.Errorf("search of spam for caracal, marked as spam: %v, want 03", got)
	}
	spam.Spam = hub.NotSpam
	if got := ids(t, db, spam); got != nil {
		t.Errorf("search of what is not spam for caracal, marked as spam: %v, want none", got)
	}

	// Retention deletes 01 and 02, the two oldest.
	if d, err := db.DeleteSubmissionsBefore(ctx, "site", "form", T0.Add(2*24*time.Hour), 10); err != nil || d.Submissions != 2 {
		t.Fatalf("DeleteSubmissionsBefore = %+v, %v; want 2", d, err)
	}
	checkSearches(t, db, "after retention", map[string][]string{
		"common": {"03"}, "aardvark": nil, "ben@example.com": nil, "elephant": {"05"},
	})

	// No method changes a payload; the index follows one changed all the
	// same.
	if _, err := db.Writer().ExecContext(ctx, `UPDATE submissions SET payload = '{"message":"zebra"}' WHERE id = '05'`); err != nil {
		t.Fatal(err)
	}
	checkSearches(t, db, "after a payload changed", map[string][]string{"elephant": nil, "zebra": {"05"}})
}

// SearchMigration fills old, a database at schema version BeforeSearch,
// through the methods of the hub of that version, then opens it with
// open, which migrates it: searches must find the submissions stored
// before, through the index, and those stored after.
func SearchMigration(t *testing.T, old *sqldb.DB, open func() *sqldb.DB) {
	createSearched(t, old)
	db := open()
	s := Submission("05")
	s.CreatedAt, s.Payload = T0.Add(4*24*time.Hour), json.RawMessage(`{"message":"common elephant"}`)
	if err := db.CreateSubmission(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	checkSearches(t, db, "after the migration", map[string][]string{
		"common": {"01", "02", "03", "04", "05"}, "badger": {"02"}, "ben@example.com": {"02"}, "elephant": {"05"}, "ca": {"03"},
	})
}
