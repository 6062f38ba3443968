package storetest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
)

func testUploadRoundTrip(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	if err := db.CreateSubmission(ctx, Submission("S1")); err != nil {
		t.Fatal(err)
	}
	pending := Upload("uploads/site/form/1/a.pdf")
	pending.UploadedAt = time.Time{}
	claimed := Upload("uploads/site/form/2/b.pdf")
	claimed.SubmissionID = "S1"
	inParts := Upload("uploads/site/form/4/d.mov")
	inParts.UploadedAt, inParts.PartsID = time.Time{}, "2~parts-id"
	tests := []struct {
		name string
		u    hub.Upload
	}{
		{"pending", pending},
		{"uploaded", Upload("uploads/site/form/3/c.pdf")},
		{"claimed", claimed},
		{"in parts", inParts},
		{"zero times", hub.Upload{Key: "uploads/z", Site: "s", Slug: "f"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			MustCreateUpload(t, db, tt.u)
			got, err := db.Upload(ctx, tt.u.Key)
			if err != nil {
				t.Fatalf("Upload: %v", err)
			}
			if !reflect.DeepEqual(got, tt.u) {
				t.Errorf("Upload =\n %+v\nwant\n %+v", got, tt.u)
			}
			if err := db.CreateUpload(ctx, tt.u); err == nil {
				t.Error("second CreateUpload with the same key succeeded")
			}
		})
	}

	if _, err := db.Upload(ctx, "uploads/none"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Upload of a missing key: %v, want ErrNotFound", err)
	}
	if err := db.CreateUpload(ctx, hub.Upload{}); err == nil {
		t.Error("CreateUpload with an empty key succeeded")
	}
	// Claiming names a submission that must exist.
	orphan := Upload("uploads/orphan")
	orphan.SubmissionID = "nope"
	if err := db.CreateUpload(ctx, orphan); err == nil {
		t.Error("CreateUpload claimed by a missing submission succeeded")
	}
}

func testMarkUploaded(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	pending := func(key string) hub.Upload {
		u := Upload(key)
		u.UploadedAt = time.Time{}
		return u
	}
	MustCreateUpload(t, db, pending("uploads/p"))
	MustCreateUpload(t, db, Upload("uploads/done"))
	MustCreateUpload(t, db, pending("uploads/p2"))
	claimed := Upload("uploads/claimed")
	MustCreateUpload(t, db, claimed)
	if err := db.CreateSubmission(ctx, Submission("S1", Attachment(claimed))); err != nil {
		t.Fatal(err)
	}

	at := T0.Add(2 * time.Minute)
	tests := []struct {
		key     string
		at      time.Time
		ok      bool
		is      error
		message string
	}{
		{key: "uploads/p", at: at, ok: true},
		{key: "uploads/p", at: at.Add(time.Minute), is: hub.ErrUploadClaim, message: "already uploaded"},
		{key: "uploads/done", at: at, is: hub.ErrUploadClaim, message: "already uploaded"},
		{key: "uploads/claimed", at: at, is: hub.ErrUploadClaim, message: "claimed by submission S1"},
		{key: "uploads/missing", at: at, is: hub.ErrNotFound, message: "uploads/missing"},
		{key: "uploads/p2", at: time.Time{}, message: "zero time"},
	}
	for _, tt := range tests {
		before, _ := db.Upload(ctx, tt.key)
		err := db.MarkUploaded(ctx, tt.key, tt.at)
		if tt.ok {
			if err != nil {
				t.Errorf("MarkUploaded(%q): %v", tt.key, err)
			}
			if u, _ := db.Upload(ctx, tt.key); !u.UploadedAt.Equal(tt.at) {
				t.Errorf("MarkUploaded(%q): UploadedAt = %v, want %v", tt.key, u.UploadedAt, tt.at)
			}
			continue
		}
		if err == nil {
			t.Errorf("MarkUploaded(%q, %v) succeeded", tt.key, tt.at)
			continue
		}
		if tt.is != nil && !errors.Is(err, tt.is) {
			t.Errorf("MarkUploaded(%q): %v, want it to wrap %v", tt.key, err, tt.is)
		}
		if !strings.Contains(err.Error(), tt.message) {
			t.Errorf("MarkUploaded(%q): %q does not say %q", tt.key, err, tt.message)
		}
		if after, _ := db.Upload(ctx, tt.key); !reflect.DeepEqual(after, before) {
			t.Errorf("refused MarkUploaded(%q) changed %+v to %+v", tt.key, before, after)
		}
	}
}

func testStaleUploads(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	for i, key := range []string{"uploads/4", "uploads/1", "uploads/3", "uploads/2", "uploads/claimed", "uploads/new"} {
		u := Upload(key)
		u.CreatedAt = T0.Add(time.Duration(i) * time.Minute)
		if key == "uploads/new" {
			u.CreatedAt = T0.Add(time.Hour)
		}
		MustCreateUpload(t, db, u)
	}
	// Equal creation times order by key.
	u := Upload("uploads/0")
	u.CreatedAt = T0
	MustCreateUpload(t, db, u)
	claimed, _ := db.Upload(ctx, "uploads/claimed")
	if err := db.CreateSubmission(ctx, Submission("S1", Attachment(claimed))); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		before time.Time
		limit  int
		want   []string
	}{
		{T0.Add(time.Hour), 10, []string{"uploads/0", "uploads/4", "uploads/1", "uploads/3", "uploads/2"}},
		{T0.Add(time.Hour), 2, []string{"uploads/0", "uploads/4"}},
		{T0.Add(2 * time.Minute), 10, []string{"uploads/0", "uploads/4", "uploads/1"}},
		{T0.Add(2 * time.Hour), 10, []string{"uploads/0", "uploads/4", "uploads/1", "uploads/3", "uploads/2", "uploads/new"}},
		{T0, 10, nil},
		{T0.Add(time.Hour), 0, nil},
	}
	for _, tt := range tests {
		got, err := db.StaleUploads(ctx, tt.before, tt.limit)
		if err != nil {
			t.Fatalf("StaleUploads: %v", err)
		}
		var keys []string
		for _, u := range got {
			keys = append(keys, u.Key)
		}
		if !reflect.DeepEqual(keys, tt.want) {
			t.Errorf("StaleUploads(%v, %d) = %v, want %v", tt.before.Sub(T0), tt.limit, keys, tt.want)
		}
	}
	if got, _ := db.StaleUploads(ctx, T0.Add(time.Hour), 1); len(got) != 1 || !reflect.DeepEqual(got[0], u) {
		t.Errorf("StaleUploads returned %+v, want %+v", got, u)
	}

	// A draft's uploads are kept while it lives, and go back to the
	// sweep once it expired and was deleted.
	d := Draft("D1", Attachment(Upload("uploads/0")), Attachment(Upload("uploads/1")))
	d.ExpiresAt = T0.Add(time.Hour)
	if _, err := db.CreateDraft(ctx, d, tokenHash("1")); err != nil {
		t.Fatal(err)
	}
	stale := func() []string { return staleUploadKeys(t, db, T0.Add(time.Hour), 10) }
	if keys, want := stale(), []string{"uploads/4", "uploads/3", "uploads/2"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("StaleUploads with a draft holding 0 and 1 = %v, want %v", keys, want)
	}
	if n, err := db.DeleteExpiredDrafts(ctx, T0.Add(2*time.Hour), 10); n != 1 || err != nil {
		t.Fatalf("DeleteExpiredDrafts = %d, %v; want 1", n, err)
	}
	if keys, want := stale(), []string{"uploads/0", "uploads/4", "uploads/1", "uploads/3", "uploads/2"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("StaleUploads after the draft's deletion = %v, want %v", keys, want)
	}
}

func testDeleteUpload(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	MustCreateUpload(t, db, Upload("uploads/free"))
	claimed := Upload("uploads/claimed")
	MustCreateUpload(t, db, claimed)
	if err := db.CreateSubmission(ctx, Submission("S1", Attachment(claimed))); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		key      string
		ok       bool
		is       error
		message  string
		remained bool
	}{
		{key: "uploads/free", ok: true},
		{key: "uploads/free", is: hub.ErrNotFound, message: "uploads/free"},
		{key: "uploads/claimed", is: hub.ErrUploadClaim, message: "claimed by submission S1", remained: true},
		{key: "uploads/missing", is: hub.ErrNotFound, message: "uploads/missing"},
	}
	for _, tt := range tests {
		err := db.DeleteUpload(ctx, tt.key)
		switch {
		case tt.ok && err != nil:
			t.Errorf("DeleteUpload(%q): %v", tt.key, err)
		case !tt.ok && err == nil:
			t.Errorf("DeleteUpload(%q) succeeded", tt.key)
		case !tt.ok && tt.is != nil && !errors.Is(err, tt.is):
			t.Errorf("DeleteUpload(%q): %v, want it to wrap %v", tt.key, err, tt.is)
		case !tt.ok && !strings.Contains(err.Error(), tt.message):
			t.Errorf("DeleteUpload(%q): %q does not say %q", tt.key, err, tt.message)
		}
		_, err = db.Upload(ctx, tt.key)
		if remained := err == nil; remained != tt.remained {
			t.Errorf("after DeleteUpload(%q): upload remained = %v, want %v", tt.key, remained, tt.remained)
		}
	}
}
