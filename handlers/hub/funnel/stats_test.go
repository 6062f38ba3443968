package funnel_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/funnel"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// stepsForm is "site"/"form" with three steps.
var stepsForm = &hub.Form{Site: "site", Slug: "form", Schema: &hubclient.Schema{Steps: []hubclient.Step{
	{ID: "a", Title: "About you"}, {ID: "b", Title: "Budget"}, {ID: "c", Title: "Contact"},
}}}

func count(slug string, days int, event, step string, n int64) hub.FunnelCount {
	return hub.FunnelCount{Site: "site", Slug: slug, Day: day0.AddDate(0, 0, days), Event: event, Step: step, N: n}
}

// createAt stores a submission of site/slug created at, spam or not.
func createAt(t *testing.T, db *sqldb.DB, slug string, at time.Time, spam bool) {
	t.Helper()
	s := storetest.Submission(hub.NewID(at))
	s.Slug, s.CreatedAt, s.Spam = slug, at, spam
	if err := db.CreateSubmission(context.Background(), s); err != nil {
		t.Fatalf("CreateSubmission: %v", err)
	}
}

func TestRead(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	err := db.AddFunnelCounts(ctx, []hub.FunnelCount{
		count("form", -1, hubclient.EventView, "", 1000), // before
		count("form", 0, hubclient.EventView, "", 10),
		count("form", 0, hubclient.EventStart, "", 6),
		count("form", 0, hubclient.EventStep, "a", 99), // the first step is the starts'
		count("form", 0, hubclient.EventStep, "b", 4),
		count("form", 0, hubclient.EventStep, "c", 2),
		count("form", 0, hubclient.EventStep, "gone", 50), // no longer in the schema
		count("form", 1, hubclient.EventView, "", 5),
		count("form", 1, hubclient.EventStart, "", 3),
		count("form", 1, hubclient.EventStep, "b", 1),
		count("form", 2, hubclient.EventView, "", 777), // the day after
		count("other", 0, hubclient.EventView, "", 500),
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		slug string
		at   time.Time
		spam bool
	}{
		{"form", day0, false},
		{"form", day0.Add(10 * time.Hour), false},
		{"form", day0.AddDate(0, 0, 2).Add(-time.Millisecond), false},
		{"form", day0.Add(11 * time.Hour), true},
		{"form", day0.AddDate(0, 0, 1).Add(time.Hour), true},
		{"form", day0.Add(-time.Millisecond), false},         // before
		{"form", day0.Add(-time.Hour), true},                 // before
		{"form", day0.AddDate(0, 0, 2), false},               // the day after
		{"other", day0.Add(10 * time.Hour), false},           // another form
		{"other", day0.Add(12 * time.Hour), true},            // another form
		{"form", day0.AddDate(0, 0, 2).Add(time.Hour), true}, // the day after
	} {
		createAt(t, db, s.slug, s.at, s.spam)
	}

	// Times of day are truncated to their days, in UTC.
	paris := time.FixedZone("CET", 3600)
	from := day0.Add(5 * time.Hour).In(paris)
	to := day0.AddDate(0, 0, 2).Add(3 * time.Hour)
	got, err := funnel.Read(ctx, db, db, stepsForm, from, to)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	want := funnel.Stats{
		From: day0, To: day0.AddDate(0, 0, 2),
		Views: 15, Starts: 9,
		Steps: []funnel.StepStat{
			{ID: "a", Title: "About you", Reached: 9},
			{ID: "b", Title: "Budget", Reached: 5},
			{ID: "c", Title: "Contact", Reached: 2},
		},
		Submissions: 3, Spam: 2,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Read =\n%+v\nwant\n%+v", got, want)
	}
	if got.From.Location() != time.UTC || got.To.Location() != time.UTC {
		t.Errorf("Read: From %v and To %v, want them in UTC", got.From, got.To)
	}
	if r := got.CompletionRate(); r != 0.2 {
		t.Errorf("CompletionRate = %v, want 0.2", r)
	}

	// One day; a form without steps.
	got, err = funnel.Read(ctx, db, db, &hub.Form{Site: "site", Slug: "form", Schema: &hubclient.Schema{}}, day0.AddDate(0, 0, 1), day0.AddDate(0, 0, 2))
	want = funnel.Stats{From: day0.AddDate(0, 0, 1), To: day0.AddDate(0, 0, 2), Views: 5, Starts: 3, Submissions: 1, Spam: 1}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Read of day0+1 = %+v, %v; want %+v", got, err, want)
	}

	// A form with nothing counted.
	got, err = funnel.Read(ctx, db, db, &hub.Form{Site: "site", Slug: "none", Schema: stepsForm.Schema}, day0, day0.AddDate(0, 0, 1))
	want = funnel.Stats{From: day0, To: day0.AddDate(0, 0, 1), Steps: []funnel.StepStat{
		{ID: "a", Title: "About you"}, {ID: "b", Title: "Budget"}, {ID: "c", Title: "Contact"},
	}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("Read of nothing = %+v, %v; want %+v", got, err, want)
	}
	if r := got.CompletionRate(); r != 0 {
		t.Errorf("CompletionRate without views = %v, want 0", r)
	}
}

func TestReadPeriods(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	for _, tt := range []struct {
		name     string
		from, to time.Time
		err      string
	}{
		{"one day", day0, day0.AddDate(0, 0, 1), ""},
		{"within a day", day0.Add(time.Hour), day0.Add(20 * time.Hour), "empty"},
		{"to at from", day0, day0, "empty"},
		{"to before from", day0.AddDate(0, 0, 1), day0, "empty"},
		{"366 days", day0, day0.AddDate(0, 0, funnel.MaxDays), ""},
		{"366 days and some hours", day0.Add(time.Hour), day0.AddDate(0, 0, funnel.MaxDays).Add(23 * time.Hour), ""},
		{"367 days", day0, day0.AddDate(0, 0, funnel.MaxDays+1), fmt.Sprintf("over %d days", funnel.MaxDays)},
	} {
		_, err := funnel.Read(ctx, db, db, stepsForm, tt.from, tt.to)
		if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: Read = %v, want error %q", tt.name, err, tt.err)
		}
	}
}
