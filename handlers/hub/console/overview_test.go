package console_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/console"
)

// TestOverview counts a form's submissions by day in the user's time zone,
// leaving out spam and the other forms, and lists the newest.
func TestOverview(t *testing.T) {
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) { cfg.Now = func() time.Time { return now } })
	at := []time.Time{
		now.Add(-time.Hour), now.Add(-2 * time.Hour), // today everywhere
		time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC), // today in Paris, yesterday in UTC
		time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC),  // this week
		time.Date(2026, 11, 10, 12, 0, 0, 0, time.UTC),  // this month
		time.Date(2026, 10, 1, 12, 0, 0, 0, time.UTC),   // before the chart
	}
	for i, created := range at {
		tc.submit("contact", created, 2, fmt.Sprintf(`{"name":"Visitor %d"}`, i))
	}
	spam := tc.submit("contact", now.Add(-time.Minute), 2, `{"name":"Spammer"}`)
	if _, err := tc.db.SetSpam(context.Background(), "acme", "contact", []string{spam}, true); err != nil {
		t.Fatal(err)
	}
	tc.submit("other", now.Add(-time.Minute), 1, `{"name":"Elsewhere"}`)

	for _, tt := range []struct {
		zone                           string
		today, week, month, todayCount string
	}{
		{"", "2", "4", "5", `data-day="2026-11-23" data-count="2"`},
		{"Europe/Paris", "3", "4", "5", `data-day="2026-11-23" data-count="3"`},
	} {
		b := tc.browser()
		if res := b.signInFrom(tt.zone, janeEmail, janePassword); res.status != http.StatusSeeOther {
			t.Fatalf("sign-in: %d", res.status)
		}
		res := b.get(console.Path + "/forms/acme/contact/overview")
		if res.status != http.StatusOK {
			t.Fatalf("overview: %d %s", res.status, res.body)
		}
		for _, want := range []string{
			`<dd data-figure="today">` + tt.today + `</dd>`, `<dd data-figure="week">` + tt.week + `</dd>`,
			`<dd data-figure="month">` + tt.month + `</dd>`, tt.todayCount, `data-day="2026-10-25"`,
			"Visitor 4", "Version 2 is live",
		} {
			if !strings.Contains(res.body, want) {
				t.Errorf("overview in zone %q lacks %s", tt.zone, want)
			}
		}
		for _, unwanted := range []string{"Spammer", "Elsewhere", "Visitor 5", `data-day="2026-10-24"`} {
			if strings.Contains(res.body, unwanted) {
				t.Errorf("overview in zone %q shows %s", tt.zone, unwanted)
			}
		}
		if n := strings.Count(res.body, "<rect "); n != 30 {
			t.Errorf("the chart has %d bars, want 30", n)
		}
	}
}

// TestOverviewEmpty says what to do when a form has received nothing.
func TestOverviewEmpty(t *testing.T) {
	_, b := newInbox(t, &memFiles{files: map[string][]byte{}})
	res := b.get(console.Path + "/forms/acme/other/overview")
	for _, want := range []string{"No submissions in the last 30 days", "Nothing received yet", `href="/console/forms/acme/other/share"`} {
		if !strings.Contains(res.body, want) {
			t.Errorf("an empty overview lacks %q", want)
		}
	}
	if res := b.get(console.Path + "/forms/acme/other/submissions"); !strings.Contains(res.body, "No submissions yet") {
		t.Errorf("an empty inbox says otherwise: %s", res.body)
	}
}

// TestShare fills the snippets in with the form and the hub's URL.
func TestShare(t *testing.T) {
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) { cfg.PublicURL = "https://forms.example.com" })
	b := tc.browser()
	b.signIn(janeEmail, janePassword)
	res := b.get(console.Path + "/forms/acme/contact/share")
	for _, want := range []string{
		`href="https://forms.example.com/f/acme/contact"`,
		`HubURL: &#34;https://forms.example.com/v1&#34;`,
		`{Site: &#34;acme&#34;, Slug: &#34;contact&#34;}`,
		`@components.HubForm(forms.PropsFor(c, &#34;acme&#34;, &#34;contact&#34;))`,
		`hubform gen --hub-url https://forms.example.com/v1 --site acme --form contact --out contact.go`,
		`&lt;iframe src=&#34;https://forms.example.com/f/acme/contact&#34;`,
		`&lt;form method=&#34;post&#34; action=&#34;https://forms.example.com/hubform/acme/contact/submit&#34; enctype=&#34;multipart/form-data&#34;&gt;`,
		`&lt;input id=&#34;contact-cv&#34; name=&#34;cv&#34; type=&#34;file&#34;&gt;`,
	} {
		if !strings.Contains(res.body, want) {
			t.Errorf("share tab lacks %s", want)
		}
	}
	if strings.Contains(res.body, `id="not-published"`) || strings.Contains(res.body, `id="page-off"`) {
		t.Error("the share tab of a published form with its page says otherwise")
	}

	// A draft has its tabs before it is published, which the Share tab
	// says; a form whose page is off says so instead of linking to it.
	ctx := context.Background()
	if _, err := tc.db.SaveFormVersion(ctx, "acme", "draft", []byte(`{"title":"Draft","fields":[{"name":"x","type":"text"}],"steps":[{"id":"a","fields":["x"]}]}`), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := b.get(console.Path + "/forms/acme/draft/overview"); res.status != http.StatusOK || !strings.Contains(res.body, "Not published yet") {
		t.Errorf("a draft's overview: %d", res.status)
	}
	if res := b.get(console.Path + "/forms/acme/draft/share"); !strings.Contains(res.body, `id="not-published"`) || !strings.Contains(res.body, "name=&#34;x&#34;") {
		t.Errorf("a draft's share tab: %s", res.body)
	}
	n, err := tc.db.SaveFormVersion(ctx, "acme", "other", []byte(`{"title":"Other","fields":[{"name":"x","type":"text"}],"steps":[{"id":"a","fields":["x"]}],"hub":{"hostedPage":false}}`), "test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.PublishFormVersion(ctx, "acme", "other", n, time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := b.get(console.Path + "/forms/acme/other/share"); !strings.Contains(res.body, `id="page-off"`) || strings.Contains(res.body, `id="hosted-link"`) {
		t.Errorf("the share tab of a form whose page is off: %s", res.body)
	}
}
