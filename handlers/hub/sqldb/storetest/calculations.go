package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// testSubmissionCalculations checks that a submission's calculations are
// stored with it and read back, as JSON decodes them, by every read of a
// submission; one without keeps none.
func testSubmissionCalculations(t *testing.T, open Open) {
	ctx := context.Background()
	db := open1(t, open)
	s := Submission("01")
	s.Calculations = map[string]any{"total": 105.0, "label": "n=3", "ok": true, "missing": nil}
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateSubmission(ctx, Submission("02")); err != nil {
		t.Fatal(err)
	}
	s.Attachments = []hubclient.Attachment{}
	got, err := db.Submission(ctx, "01")
	if err != nil || !reflect.DeepEqual(got.Calculations, s.Calculations) {
		t.Errorf("Submission(01).Calculations = %#v, %v; want %#v", got.Calculations, err, s.Calculations)
	}
	if got, err := db.Submission(ctx, "02"); err != nil || got.Calculations != nil {
		t.Errorf("Submission(02).Calculations = %#v, %v; want none", got.Calculations, err)
	}
	n := 0
	err = db.ListSubmissions(ctx, hub.Filter{Site: "site", Slug: "form"}, func(sub hub.Submission) error {
		n++
		if sub.ID == "01" && !reflect.DeepEqual(sub.Calculations, s.Calculations) {
			t.Errorf("listed 01's calculations = %#v", sub.Calculations)
		}
		return nil
	})
	if err != nil || n != 2 {
		t.Errorf("ListSubmissions = %d, %v; want 2", n, err)
	}
}
