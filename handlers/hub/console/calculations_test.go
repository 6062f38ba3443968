package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/hubclient"
)

// quizForm scores one question and prices the guests.
const quizForm = `{"title":"Quiz","fields":[
	{"name":"capital","type":"radio","label":"Capital","options":[{"value":"paris","label":"Paris","correct":true,"points":2},{"value":"lyon","label":"Lyon"}]},
	{"name":"guests","type":"number","label":"Guests"}],
	"steps":[{"id":"s","fields":["capital","guests"]}],
	"calculations":[{"name":"total","label":"Total","expr":{"*":[{"var":"guests"},35]},"format":"currency","currency":"EUR"},
	  {"name":"score","expr":{"points":"capital"}}],
	"quiz":{}}`

// TestSummaryScore: a form with a score shows the scores' distribution
// and average in its Summary, counted from the submissions' answers; the
// submission's panel shows its stored calculations.
func TestSummaryScore(t *testing.T) {
	tc, b, now := summaryConsole(t)
	ctx := context.Background()
	n, err := tc.db.SaveFormVersion(ctx, "acme", "quiz", []byte(quizForm), "test", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.PublishFormVersion(ctx, "acme", "quiz", n, now); err != nil {
		t.Fatal(err)
	}
	var id string
	for i, capital := range []string{"paris", "paris", "lyon"} {
		s := hub.Submission{ID: hub.NewID(now.Add(time.Duration(-i-1) * time.Minute)), Site: "acme", Slug: "quiz", CreatedAt: now.Add(time.Duration(-i-1) * time.Minute),
			Payload: json.RawMessage(`{"capital":"` + capital + `","guests":3}`), Attachments: []hubclient.Attachment{},
			Calculations: map[string]any{"total": 105.0, "score": 2.0}}
		if err := tc.db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
		id = s.ID
	}
	res := b.get(console.Path + "/forms/acme/quiz/summary")
	if res.status != http.StatusOK {
		t.Fatalf("summary: %d %s", res.status, res.body)
	}
	qs, figures := summaryOf(t, res.body)
	if got := strings.Join(qs["score"], "\n"); got != "answered 3\n0 | 1 · 33%\n2 | 2 · 67%" || figures["score.average"] != "1.3" {
		t.Errorf("the score's summary:\n%s\nfigures %v", got, figures)
	}
	if !strings.Contains(res.body, ">Score<") {
		t.Error("the score's card is not called Score")
	}

	res = b.get(console.Path + "/forms/acme/quiz/submissions/" + id)
	if res.status != http.StatusOK || !strings.Contains(res.body, "Total") || !strings.Contains(res.body, "€ 105.00") {
		t.Errorf("the submission's panel lacks the total: %d %s", res.status, res.body)
	}
}
