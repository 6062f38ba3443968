package storetest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
)

// testTrashSubmissions: a submission deleted for a while is left out of
// every read, comes back whole when restored within its period, and is
// removed with its files by the purge after it.
func testTrashSubmissions(t *testing.T, open Open) {
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
	payload := func(id, name string) {
		t.Helper()
		s := Submission(id)
		s.Payload = []byte(`{"email":"anna@x.com","name":"` + name + `"}`)
		s.CreatedAt = T0.Add(time.Minute)
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	keys := withFiles(t, db, "01", "site", "form", T0.Add(time.Minute), 1)
	payload("02", "Zelda")
	payload("03", "Zelda")
	withFiles(t, db, "04", "site", "other", T0.Add(time.Minute), 0)

	deletedAt := T0.Add(time.Hour)
	d, err := db.TrashSubmissions(ctx, "site", "form", []string{"01", "02", "04", "nope"}, deletedAt)
	if err != nil || d.Submissions != 2 || !reflect.DeepEqual(d.Files, keys) {
		t.Fatalf("TrashSubmissions(01, 02, 04 of another form, nope) = %+v, %v; want 2 and files %v", d, err, keys)
	}
	if d, err := db.TrashSubmissions(ctx, "site", "form", []string{"01"}, deletedAt); err != nil || d.Submissions != 0 {
		t.Errorf("TrashSubmissions again = %+v, %v; want nothing", d, err)
	}
	// Every read leaves 01 and 02 out; their files stay.
	reads := func(want ...string) {
		t.Helper()
		for _, f := range []hub.Filter{
			{Site: "site", Slug: "form"},
			{Site: "site", Slug: "form", Newest: true, Limit: 10},
			{Site: "site", Slug: "form", Search: "zelda"},
			{Site: "site", Slug: "form", Search: "zelda", Limit: 10},
			{Site: "site", Slug: "form", From: T0, To: T0.Add(24 * time.Hour)},
			{Site: "site", Slug: "form", From: T0, To: T0.Add(24 * time.Hour), Limit: 10},
		} {
			got, w := ids(t, db, f), slices.Clone(want)
			slices.Sort(got)
			if f.Search != "" {
				w = slices.DeleteFunc(w, func(id string) bool { return id == "01" }) // no Zelda in 01
			}
			if !slices.Equal(got, w) {
				t.Errorf("ListSubmissions(%+v) = %v, want %v", f, got, w)
			}
		}
		for _, f := range []hub.Filter{{Site: "site", Slug: "form"}, {Site: "site", Slug: "form", From: T0, To: T0.Add(time.Hour)}} {
			if n, err := db.CountSubmissions(ctx, f); err != nil || n != len(want) {
				t.Errorf("CountSubmissions(%+v) = %d, %v; want %d", f, n, err, len(want))
			}
			by, err := db.CountSubmissionsBy(ctx, f, 15*time.Minute)
			sum := 0
			for _, c := range by {
				sum += c.N
			}
			if err != nil || sum != len(want) {
				t.Errorf("CountSubmissionsBy(%+v) = %v, %v; want %d in all", f, by, err, len(want))
			}
		}
		for _, id := range []string{"01", "02", "03"} {
			_, err := db.Submission(ctx, id)
			if slices.Contains(want, id) != (err == nil) {
				t.Errorf("Submission(%s): %v; want found %v", id, err, slices.Contains(want, id))
			}
		}
		var people []string
		if err := db.PersonSubmissions(ctx, "acme", "anna@x.com", func(s hub.Submission) error {
			people = append(people, s.ID)
			return nil
		}); err != nil || !slices.Equal(people, slices.DeleteFunc(slices.Clone(want), func(id string) bool { return id == "01" })) {
			t.Errorf("PersonSubmissions = %v, %v; want those of %v with an address", people, err, want)
		}
		// A spam mark changed meanwhile keeps the counts right.
		if _, err := db.SetSpam(ctx, "site", "form", []string{"01"}, true); err != nil {
			t.Fatal(err)
		}
		if _, err := db.SetSpam(ctx, "site", "form", []string{"01"}, false); err != nil {
			t.Fatal(err)
		}
	}
	reads("03")
	for _, k := range keys {
		if _, err := db.Upload(ctx, k); err != nil {
			t.Errorf("Upload(%s) of a deleted submission in its period: %v", k, err)
		}
	}

	// Restoring within the period brings them back to every read; a
	// deletion older than since is not restored.
	if n, err := db.UndeleteSubmissions(ctx, "site", "form", []string{"01", "02"}, deletedAt.Add(time.Second)); err != nil || n != 0 {
		t.Errorf("UndeleteSubmissions after the period = %d, %v; want 0", n, err)
	}
	if n, err := db.UndeleteSubmissions(ctx, "other", "form", []string{"01", "02"}, deletedAt); err != nil || n != 0 {
		t.Errorf("UndeleteSubmissions of another site = %d, %v; want 0", n, err)
	}
	if n, err := db.UndeleteSubmissions(ctx, "site", "form", []string{"01", "02", "03"}, deletedAt); err != nil || n != 2 {
		t.Errorf("UndeleteSubmissions = %d, %v; want 2", n, err)
	}
	reads("01", "02", "03")

	// The purge removes what was deleted before its time, with the files.
	if _, err := db.TrashSubmissions(ctx, "site", "form", []string{"01", "02"}, deletedAt); err != nil {
		t.Fatal(err)
	}
	if d, err := db.PurgeDeleted(ctx, deletedAt, 10); err != nil || d.Submissions != 0 {
		t.Errorf("PurgeDeleted(at the deletion) = %+v, %v; want nothing", d, err)
	}
	d, err = db.PurgeDeleted(ctx, deletedAt.Add(time.Second), 1)
	if err != nil || d.Submissions != 1 || !reflect.DeepEqual(d.Files, keys) {
		t.Errorf("PurgeDeleted(limit 1) = %+v, %v; want 01 and its file", d, err)
	}
	if d, err := db.PurgeDeleted(ctx, deletedAt.Add(time.Second), 10); err != nil || d.Submissions != 1 || len(d.Files) != 0 {
		t.Errorf("PurgeDeleted = %+v, %v; want 02", d, err)
	}
	for _, k := range keys {
		if _, err := db.Upload(ctx, k); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("Upload(%s) of a purged submission: %v, want not found", k, err)
		}
	}
	if n, err := db.UndeleteSubmissions(ctx, "site", "form", []string{"01", "02"}, T0); err != nil || n != 0 {
		t.Errorf("UndeleteSubmissions of purged ones = %d, %v; want 0", n, err)
	}
	reads("03")
	if got := ids(t, db, hub.Filter{Site: "site", Slug: "other"}); !slices.Equal(got, []string{"04"}) {
		t.Errorf("the other form holds %v, want 04", got)
	}
}
