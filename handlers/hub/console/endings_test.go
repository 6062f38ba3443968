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
	"github.com/hubform/hubform/hubclient"
)

// party ends three ways: a big party, a page of the owner's, and the
// thank-you panel.
const party = `{"title":"Party","fields":[{"name":"guests","type":"number"}],"steps":[{"id":"s","title":"Guests","fields":["guests"]}],
"endings":[{"id":"big","title":"Big party","if":{">":[{"var":"guests"},5]}},{"id":"away","redirectUrl":"https://example.com/party"}]}`

// TestEndingsInTheConsole: a submission's panel names the ending it
// reached by its title, and the overview's funnel counts the submissions
// of the period by ending, spam left out.
func TestEndingsInTheConsole(t *testing.T) {
	tc, b, now := funnelConsole(t)
	ctx := context.Background()
	n, err := tc.db.SaveFormVersion(ctx, "acme", "party", []byte(party), "test", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.PublishFormVersion(ctx, "acme", "party", n, now); err != nil {
		t.Fatal(err)
	}
	store := func(ending string, at time.Time, spam bool) string {
		s := hub.Submission{ID: hub.NewID(at), Site: "acme", Slug: "party", CreatedAt: at, FormVersion: n, Ending: ending, Spam: spam,
			Payload: json.RawMessage(`{"guests":9}`), Attachments: []hubclient.Attachment{}}
		if err := tc.db.CreateSubmission(ctx, s); err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	big := store("big", now.Add(-time.Hour), false)
	store("big", now.Add(-2*time.Hour), false)
	away := store("away", now.Add(-3*time.Hour), false)
	plain := store("", now.Add(-4*time.Hour), false)
	store("big", now.Add(-5*time.Hour), true)

	inbox := console.Path + "/forms/acme/party/submissions/"
	for id, want := range map[string]string{big: "Ending: Big party", away: "Ending: away"} {
		res := b.get(inbox + id)
		doc, _ := goquery.NewDocumentFromReader(strings.NewReader(res.body))
		if got := strings.Join(strings.Fields(doc.Find("#submission-ending").Text()), " "); res.status != http.StatusOK || got != want {
			t.Errorf("submission %s: %d, ending %q, want %q", id, res.status, got, want)
		}
	}
	if res := b.get(inbox + plain); res.status != http.StatusOK || strings.Contains(res.body, "submission-ending") {
		t.Errorf("a submission that reached no ending names one: %d", res.status)
	}

	res := b.get(console.Path + "/forms/acme/party/overview")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(res.body))
	if err != nil || res.status != http.StatusOK {
		t.Fatalf("overview: %d, %v", res.status, err)
	}
	var bars []string
	doc.Find("#funnel-endings > li").Each(func(_ int, li *goquery.Selection) {
		bars = append(bars, strings.Join([]string{li.AttrOr("data-stage", "?"), li.Find(".console-funnel-label").Text(),
			li.Find(".console-funnel-count").Text(), li.Find("rect").AttrOr("width", "?")}, " | "))
	})
	want := []string{"ending:big | Big party | 2 | 100", "ending:away | away | 1 | 50", "ending: | Thank-you panel (no ending) | 1 | 50"}
	if strings.Join(bars, "\n") != strings.Join(want, "\n") {
		t.Errorf("endings' bars:\n%s\nwant\n%s", strings.Join(bars, "\n"), strings.Join(want, "\n"))
	}
	if doc.Find("#funnel-endings").AttrOr("aria-labelledby", "") != "funnel-endings-heading" || doc.Find("#funnel-endings-heading").Text() != "Endings reached" {
		t.Error("the endings' list is not named by its heading")
	}

	// A form without endings shows none.
	if res := b.get(console.Path + "/forms/acme/survey/overview"); strings.Contains(res.body, "funnel-endings") {
		t.Error("a form without endings shows an endings' list")
	}
}
