package funnel_test

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/funnel"
	"github.com/hubform/hubform/handlers/hub/sqldb/storetest"
	"github.com/hubform/hubform/hubclient"
)

// TestReadEndings: the funnel counts the submissions of the period, spam
// left out, by the ending each reached, in the form's order, the
// thank-you panel last; an ending the form no longer has is left out.
func TestReadEndings(t *testing.T) {
	ctx := context.Background()
	db := openDB(t)
	form := &hub.Form{Site: "site", Slug: "form", Schema: &hubclient.Schema{Endings: []hubclient.Ending{
		{ID: "vip", Title: "Sales will call"}, {ID: "crowd", Title: "Big party"}, {ID: "never", Title: "Nobody"},
	}}}
	n := 0
	create := func(ending string, at time.Time, spam bool) {
		n++
		s := storetest.Submission(hub.NewID(at) + string(rune('a'+n)))
		s.CreatedAt, s.Spam, s.Ending = at, spam, ending
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	create("vip", day0.Add(time.Hour), false)
	create("crowd", day0.Add(2*time.Hour), false)
	create("vip", day0.Add(3*time.Hour), false)
	create("", day0.Add(4*time.Hour), false)
	create("gone", day0.Add(5*time.Hour), false)  // an ending the form no longer has
	create("vip", day0.Add(6*time.Hour), true)    // spam
	create("crowd", day0.Add(-time.Hour), false)  // before
	create("crowd", day0.AddDate(0, 0, 1), false) // after

	got, err := funnel.Read(ctx, db, db, form, day0, day0.AddDate(0, 0, 1))
	want := []funnel.EndingStat{
		{ID: "vip", Title: "Sales will call", Reached: 2}, {ID: "crowd", Title: "Big party", Reached: 1},
		{ID: "never", Title: "Nobody"}, {Reached: 1},
	}
	if err != nil || !reflect.DeepEqual(got.Endings, want) || got.Submissions != 5 {
		t.Errorf("Read = %+v, %v; want endings %+v of 5 sent", got, err, want)
	}

	// A form without endings has none.
	got, err = funnel.Read(ctx, db, db, stepsForm, day0, day0.AddDate(0, 0, 1))
	if err != nil || got.Endings != nil {
		t.Errorf("Read of a form without endings: %+v, %v; want no endings", got.Endings, err)
	}
}
