package sqlite

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// t0 is a fixed time with a millisecond fraction, which is what survives a
// round trip.
var t0 = time.Date(2026, 11, 21, 10, 30, 0, 123e6, time.UTC)

// openTest opens a fresh database in a temporary directory and closes it
// when the test ends.
func openTest(t testing.TB) (*sqldb.DB, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hub.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return db, path
}

// upload returns an upload of the form "site"/"form" that was received.
func upload(key string) hub.Upload {
	return hub.Upload{
		Key:        key,
		Site:       "site",
		Form:       "form",
		Filename:   "cv.pdf",
		MIME:       "application/pdf",
		Size:       1234,
		CreatedAt:  t0,
		ExpiresAt:  t0.Add(15 * time.Minute),
		UploadedAt: t0.Add(time.Second),
	}
}

// attachment returns the attachment matching u.
func attachment(u hub.Upload) hubclient.Attachment {
	return hubclient.Attachment{Key: u.Key, Filename: u.Filename, Size: u.Size, MIME: u.MIME, Field: "files"}
}

// submission returns a submission of the form "site"/"form".
func submission(id string, atts ...hubclient.Attachment) hub.Submission {
	return hub.Submission{
		ID:          id,
		Site:        "site",
		Form:        "form",
		CreatedAt:   t0,
		Payload:     json.RawMessage(`{"name":"Jane","n":1}`),
		Attachments: atts,
		ClientAddr:  "192.0.2.1",
		UserAgent:   "test/1.0",
	}
}

// mustCreateUpload stores u or fails the test.
func mustCreateUpload(t testing.TB, db *sqldb.DB, u hub.Upload) {
	t.Helper()
	if err := db.CreateUpload(context.Background(), u); err != nil {
		t.Fatalf("CreateUpload(%q): %v", u.Key, err)
	}
}

// listAll returns every submission f selects.
func listAll(t testing.TB, db *sqldb.DB, f hub.Filter) []hub.Submission {
	t.Helper()
	var out []hub.Submission
	err := db.ListSubmissions(context.Background(), f, func(s hub.Submission) error {
		out = append(out, s)
		return nil
	})
	if err != nil {
		t.Fatalf("ListSubmissions(%+v): %v", f, err)
	}
	return out
}

// count returns the number of submissions f selects.
func count(t testing.TB, db *sqldb.DB, f hub.Filter) int {
	t.Helper()
	n, err := db.CountSubmissions(context.Background(), f)
	if err != nil {
		t.Fatalf("CountSubmissions(%+v): %v", f, err)
	}
	return n
}
