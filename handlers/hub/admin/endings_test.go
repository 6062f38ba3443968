package admin_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/admin"
	"github.com/hubform/hubform/hubclient"
)

// TestFormStatsEndings: the stats count the submissions by the ending
// each reached, the thank-you panel last.
func TestFormStatsEndings(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	const form = `{"fields":[{"name":"n","type":"number"}],"steps":[{"id":"s","fields":["n"]}],
	  "endings":[{"id":"big","title":"Big party","if":{">":[{"var":"n"},5]}},{"id":"away","redirectUrl":"https://example.com/"}]}`
	if _, err := db.ClaimSite(ctx, "acme", "default", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveFormVersion(ctx, "acme", "survey", []byte(form), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.PublishFormVersion(ctx, "acme", "survey", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	for i, ending := range []string{"big", "big", "away", "", "big"} {
		at := today.Add(time.Duration(i) * time.Minute)
		s := hub.Submission{ID: hub.NewID(at), Site: "acme", Slug: "survey", CreatedAt: at, FormVersion: 1, Ending: ending,
			Payload: json.RawMessage(`{}`), Attachments: []hubclient.Attachment{}}
		if err := db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	srv := statsServer(t, db, false)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+admin.Prefix+"/forms/acme/survey/stats", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var st admin.FormStats
	if err := json.Unmarshal(body, &st); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("stats: %d %s", res.StatusCode, body)
	}
	want := []admin.EndingStats{{ID: "big", Title: "Big party", Reached: 3}, {ID: "away", Reached: 1}, {Reached: 1}}
	if !reflect.DeepEqual(st.Endings, want) || st.Submissions != 5 {
		t.Errorf("endings %+v of %d sent, want %+v of 5", st.Endings, st.Submissions, want)
	}
}

// TestSubmissionCalculations: a submission read through the API carries
// the calculations the hub stored with it, numbers as numbers.
func TestSubmissionCalculations(t *testing.T) {
	ctx := context.Background()
	db, token := tokenDB(t)
	const form = `{"fields":[{"name":"n","type":"number"}],"steps":[{"id":"s","fields":["n"]}],
	  "calculations":[{"name":"total","expr":{"*":[{"var":"n"},35]},"format":"currency","currency":"EUR"}]}`
	if _, err := db.ClaimSite(ctx, "acme", "default", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SaveFormVersion(ctx, "acme", "survey", []byte(form), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := db.PublishFormVersion(ctx, "acme", "survey", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	s := hub.Submission{ID: hub.NewID(at), Site: "acme", Slug: "survey", CreatedAt: at, FormVersion: 1,
		Payload: json.RawMessage(`{"n":3}`), Attachments: []hubclient.Attachment{}, Calculations: map[string]any{"total": 105.0}}
	if err := db.CreateSubmission(ctx, s); err != nil {
		t.Fatal(err)
	}
	srv := statsServer(t, db, false)
	req, _ := http.NewRequest(http.MethodGet, srv.URL+admin.Prefix+"/forms/acme/survey/submissions/"+s.ID, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var got struct {
		Submission admin.Submission `json:"submission"`
	}
	if err := json.Unmarshal(body, &got); err != nil || got.Submission.Calculations["total"] != 105.0 {
		t.Errorf("submission: %d %s, want calculations total 105", res.StatusCode, body)
	}
}
