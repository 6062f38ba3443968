package storetest

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// testSubmissionEndings checks that the ending a submission reached is
// stored with it and read back, and counted by ending over a period,
// spam, other forms and submissions deleted left out.
func testSubmissionEndings(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	with := func(id, ending string, change ...func(*hub.Submission)) hub.Submission {
		s := Submission(id)
		s.Ending = ending
		for _, c := range change {
			c(&s)
		}
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatalf("CreateSubmission(%s): %v", id, err)
		}
		return s
	}
	vip := with("01", "vip")
	with("02", "vip")
	with("03", "crowd")
	with("04", "")
	with("05", "vip", func(s *hub.Submission) { s.Spam = true })
	with("06", "vip", func(s *hub.Submission) { s.Slug = "other" })
	with("07", "crowd", func(s *hub.Submission) { s.CreatedAt = T0.Add(48 * time.Hour) })
	with("08", "crowd")
	if _, err := db.TrashSubmissions(ctx, "site", "form", []string{"08"}, T0); err != nil {
		t.Fatal(err)
	}

	vip.Attachments = []hubclient.Attachment{}
	if got, err := db.Submission(ctx, "01"); err != nil || !reflect.DeepEqual(got, vip) {
		t.Errorf("Submission(01) = %+v, %v; want %+v", got, err, vip)
	}
	if got, err := db.Submission(ctx, "04"); err != nil || got.Ending != "" {
		t.Errorf("Submission(04) = %+v, %v; want no ending", got, err)
	}
	for _, tt := range []struct{ site, slug, id, want string }{
		{"site", "form", "01", "vip"}, {"site", "form", "04", ""}, {"site", "other", "06", "vip"},
	} {
		if got, err := db.SubmissionEnding(ctx, tt.site, tt.slug, tt.id); err != nil || got != tt.want {
			t.Errorf("SubmissionEnding(%s) = %q, %v; want %q", tt.id, got, err, tt.want)
		}
	}
	if _, err := db.SubmissionEnding(ctx, "site", "other", "01"); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("SubmissionEnding of another form = %v, want ErrNotFound", err)
	}

	got, err := db.CountSubmissionsByEnding(ctx, hub.Filter{Site: "site", Slug: "form", Spam: hub.NotSpam, From: T0.Truncate(24 * time.Hour), To: T0.Add(24 * time.Hour)})
	if want := map[string]int{"vip": 2, "crowd": 1, "": 1}; err != nil || !maps.Equal(got, want) {
		t.Errorf("CountSubmissionsByEnding = %v, %v; want %v", got, err, want)
	}
	got, err = db.CountSubmissionsByEnding(ctx, hub.Filter{Site: "site", Slug: "form"})
	if want := map[string]int{"vip": 3, "crowd": 2, "": 1}; err != nil || !maps.Equal(got, want) {
		t.Errorf("CountSubmissionsByEnding of every time, spam too = %v, %v; want %v", got, err, want)
	}
}
