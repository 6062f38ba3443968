package console_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// TestSummaryEndings: the Summary tab counts, after the questions, the
// endings the period's submissions reached, by title, and the default
// ending; spam is left out, and a shorter period counts fewer.
func TestSummaryEndings(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) {
		cfg.Now = func() time.Time { return now }
		cfg.Summaries = cfg.Users.(*sqldb.DB)
		cfg.Funnel = cfg.Users.(*sqldb.DB)
	})
	ctx := context.Background()
	n, err := tc.db.SaveFormVersion(ctx, "acme", "party", []byte(endingsForm), "test", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.PublishFormVersion(ctx, "acme", "party", n, now); err != nil {
		t.Fatal(err)
	}
	var schema hubclient.Schema
	if err := json.Unmarshal([]byte(endingsForm), &schema); err != nil {
		t.Fatal(err)
	}
	store := func(at time.Time, payload, ending string, spam bool) {
		s := hub.Submission{ID: hub.NewID(at), Site: "acme", Slug: "party", CreatedAt: at, Payload: json.RawMessage(payload),
			Attachments: []hubclient.Attachment{}, Tallies: hub.TalliesOf(&schema, json.RawMessage(payload)), Ending: ending, Spam: spam}
		if err := tc.db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	store(now.AddDate(0, -2, 0), `{"guests":9}`, "big", false)
	store(now.Add(-3*time.Hour), `{"guests":8}`, "big", false)
	store(now.Add(-2*time.Hour), `{"guests":2,"company":"ACME"}`, "firm", false)
	store(now.Add(-time.Hour), `{"guests":1}`, "", false)
	store(now.Add(-time.Minute), `{"guests":50}`, "big", true)
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	for period, want := range map[string]string{
		"all": "A big party! 2 · 50%|Our sales team will call 1 · 25%|Default ending (no other applied) 1 · 25%",
		"7d":  "A big party! 1 · 33%|Our sales team will call 1 · 33%|Default ending (no other applied) 1 · 33%",
	} {
		res := b.get(console.Path + "/forms/acme/party/summary?period=" + period)
		if res.status != http.StatusOK {
			t.Fatalf("summary: %d %s", res.status, res.body)
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.body))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		doc.Find(`#summary-endings-card [data-bars="endings"] li`).Each(func(_ int, li *goquery.Selection) {
			got = append(got, li.Find(".console-summary-label").Text()+" "+strings.TrimSpace(li.Find(".console-summary-count").Text()))
		})
		if strings.Join(got, "|") != want {
			t.Errorf("%s: the endings read %q, want %q", period, strings.Join(got, "|"), want)
		}
	}

	// The export names each submission's ending by title, after its time.
	res := b.get(console.Path + "/forms/acme/party/export/csv")
	lines := strings.Split(res.body, "\n")
	if res.status != http.StatusOK || len(lines) < 4 || !strings.HasPrefix(lines[0], "Submission,Received (UTC),Ending,") ||
		!strings.HasPrefix(lines[1], "id,createdAt,ending,") || !strings.Contains(res.body, ",A big party!,") || !strings.Contains(res.body, ",Our sales team will call,") {
		t.Errorf("the export: %d\n%s", res.status, res.body)
	}
}
