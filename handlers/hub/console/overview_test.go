package console_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
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
	if strings.Contains(res.body, `id="chart"`) {
		t.Error("an empty overview draws an empty chart")
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

	// A form not yet published has its tabs, which the Share tab
	// says; a form whose page is off says so instead of linking to it.
	ctx := context.Background()
	if _, err := tc.db.SaveFormVersion(ctx, "acme", "unpublished", []byte(`{"title":"Unpublished","fields":[{"name":"x","type":"text"}],"steps":[{"id":"a","fields":["x"]}]}`), "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	if res := b.get(console.Path + "/forms/acme/unpublished/overview"); res.status != http.StatusOK || !strings.Contains(res.body, "Not published yet") {
		t.Errorf("an unpublished form's overview: %d", res.status)
	}
	if res := b.get(console.Path + "/forms/acme/unpublished/share"); !strings.Contains(res.body, `id="not-published"`) || !strings.Contains(res.body, "name=&#34;x&#34;") {
		t.Errorf("an unpublished form's share tab: %s", res.body)
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

// survey has three steps: the first and the last titled, the second known
// by its id.
const survey = `{"title":"Survey","fields":[{"name":"name","type":"text"},{"name":"email","type":"email"},{"name":"ok","type":"checkbox"}],
"steps":[{"id":"about","title":"About you","fields":["name"]},{"id":"details","fields":["email"]},{"id":"confirm","title":"Confirm","fields":["ok"]}]}`

// single has one step.
const single = `{"title":"Single","fields":[{"name":"name","type":"text"}],"steps":[{"id":"only","title":"Only","fields":["name"]}]}`

// funnelConsole is an inbox console counting funnels, on 2026-11-27 at
// 10:00 UTC, with acme/survey and acme/single published and a signed-in
// browser.
func funnelConsole(t *testing.T) (*testConsole, *browser, time.Time) {
	t.Helper()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) {
		cfg.Now = func() time.Time { return now }
		cfg.Funnel = cfg.Users.(*sqldb.DB)
	})
	ctx := context.Background()
	for slug, body := range map[string]string{"survey": survey, "single": single} {
		n, err := tc.db.SaveFormVersion(ctx, "acme", slug, []byte(body), "test", now)
		if err != nil {
			t.Fatal(err)
		}
		if err := tc.db.PublishFormVersion(ctx, "acme", slug, n, now); err != nil {
			t.Fatal(err)
		}
	}
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	return tc, b, now
}

// funnelOf returns the funnel's bars of an overview, each as
// "stage label count width change", and its figures by name.
func funnelOf(t *testing.T, body string) ([]string, map[string]string) {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var bars []string
	doc.Find("#funnel > li").Each(func(_ int, li *goquery.Selection) {
		change := li.Find(".console-funnel-change")
		bars = append(bars, strings.Join([]string{li.AttrOr("data-stage", "?"), li.Find(".console-funnel-label").Text(),
			li.Find(".console-funnel-count").Text(), li.Find(`svg[aria-hidden="true"] rect`).AttrOr("width", "?"), change.Text()}, " | "))
	})
	figures := map[string]string{}
	doc.Find("#funnel-figures dd").Each(func(_ int, dd *goquery.Selection) { figures[dd.AttrOr("data-figure", "?")] = dd.Text() })
	return bars, figures
}

// TestOverviewFunnel shows a form's funnel over the last 7, 30 or 90 days
// in UTC: views, starts, each step, the submissions, each with its bar
// and the change from the stage before, and the completion rate and spam;
// the counts of other forms and of days outside the period are left out.
func TestOverviewFunnel(t *testing.T) {
	tc, b, now := funnelConsole(t)
	ctx := context.Background()
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	count := func(slug string, daysAgo int, event, step string, n int64) hub.FunnelCount {
		return hub.FunnelCount{Site: "acme", Slug: slug, Day: today.AddDate(0, 0, -daysAgo), Event: event, Step: step, N: n}
	}
	if err := tc.db.AddFunnelCounts(ctx, []hub.FunnelCount{
		// This week: 100 views, 40 starts, 25 on details, 20 on confirm.
		count("survey", 0, "view", "", 60), count("survey", 6, "view", "", 40), count("survey", 0, "start", "", 40),
		count("survey", 0, "step", "details", 25), count("survey", 0, "step", "confirm", 20),
		// The rest of the month: as many views, 60 starts, 35 and 20.
		count("survey", 7, "view", "", 30), count("survey", 29, "view", "", 70), count("survey", 20, "start", "", 60),
		count("survey", 20, "step", "details", 35), count("survey", 20, "step", "confirm", 20),
		// Within 90 days, and before.
		count("survey", 89, "view", "", 800), count("survey", 90, "view", "", 5000), count("survey", 30, "start", "", 7),
		// Other forms'.
		count("contact", 0, "view", "", 10000), count("single", 0, "view", "", 999), count("single", 1, "start", "", 3),
	}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 { // this week, the first one a minute after midnight
		tc.submit("survey", today.Add(time.Minute+time.Duration(i)*time.Hour), 1, `{"name":"Week"}`)
	}
	for range 5 {
		tc.submit("survey", today.AddDate(0, 0, -20), 1, `{"name":"Month"}`)
	}
	tc.submit("survey", today.AddDate(0, 0, -30), 1, `{"name":"Before"}`)
	tc.submit("survey", today.Add(-time.Minute), 1, `{"name":"Late"}`) // yesterday in UTC: in the week
	spam := []string{tc.submit("survey", now.Add(-time.Hour), 1, `{"name":"Spam"}`), tc.submit("survey", now.Add(-2*time.Hour), 1, `{"name":"Spam"}`)}
	if _, err := tc.db.SetSpam(ctx, "acme", "survey", spam, true); err != nil {
		t.Fatal(err)
	}
	tc.submit("contact", now.Add(-time.Hour), 2, `{"name":"Elsewhere"}`)
	tc.submit("single", now.Add(-time.Hour), 1, `{"name":"Single"}`)

	for _, tt := range []struct {
		query, current, from, to string
		bars                     []string
		figures                  map[string]string
	}{
		{"", "Last 30 days", "2026-10-29", "2026-11-27", []string{
			"views | Views | 200 | 100 | ",
			"starts | Started | 100 | 50 | −50% from Views",
			"step:details | details | 60 | 30 | −40% from Started",
			"step:confirm | Confirm | 40 | 20 | −33% from details",
			"sent | Sent | 16 | 8 | −60% from Confirm",
		}, map[string]string{"completion": "8%", "sent": "16", "spam": "2"}},
		{"?period=7d", "Last 7 days", "2026-11-21", "2026-11-27", []string{
			"views | Views | 100 | 100 | ",
			"starts | Started | 40 | 40 | −60% from Views",
			"step:details | details | 25 | 25 | −38% from Started",
			"step:confirm | Confirm | 20 | 20 | −20% from details",
			"sent | Sent | 11 | 11 | −45% from Confirm",
		}, map[string]string{"completion": "11%", "sent": "11", "spam": "2"}},
		{"?period=90d", "Last 90 days", "2026-08-30", "2026-11-27", []string{
			"views | Views | 1,000 | 100 | ",
			"starts | Started | 107 | 10 | −89% from Views",
			"step:details | details | 60 | 6 | −44% from Started",
			"step:confirm | Confirm | 40 | 4 | −33% from details",
			"sent | Sent | 17 | 1 | −58% from Confirm",
		}, map[string]string{"completion": "1.7%", "sent": "17", "spam": "2"}},
	} {
		res := b.get(console.Path + "/forms/acme/survey/overview" + tt.query)
		if res.status != http.StatusOK {
			t.Fatalf("overview%s: %d %s", tt.query, res.status, res.body)
		}
		bars, figures := funnelOf(t, res.body)
		if strings.Join(bars, "\n") != strings.Join(tt.bars, "\n") {
			t.Errorf("overview%s: the funnel's bars\n%s\nwant\n%s", tt.query, strings.Join(bars, "\n"), strings.Join(tt.bars, "\n"))
		}
		if !reflect.DeepEqual(figures, tt.figures) {
			t.Errorf("overview%s: figures %v, want %v", tt.query, figures, tt.figures)
		}
		for _, want := range []string{
			`<a href="/console/forms/acme/survey/overview?period=` + strings.Fields(tt.current)[1] + `d#funnel-heading" aria-current="true">` + tt.current + `</a>`,
			`<time datetime="` + tt.from + `">`, `<time datetime="` + tt.to + `">`, "days in UTC",
		} {
			if !strings.Contains(res.body, want) {
				t.Errorf("overview%s lacks %s", tt.query, want)
			}
		}
		if n := strings.Count(res.body, `aria-current="true"`); n != 1 {
			t.Errorf("overview%s: %d periods are current, want 1", tt.query, n)
		}
		if strings.Contains(res.body, "No visits counted") {
			t.Errorf("overview%s says no visits were counted", tt.query)
		}
	}

	// A form of one step has no bar of its steps.
	res := b.get(console.Path + "/forms/acme/single/overview?period=7d")
	bars, figures := funnelOf(t, res.body)
	if want := []string{"views | Views | 999 | 100 | ", "starts | Started | 3 | 1 | −99.7% from Views", "sent | Sent | 1 | 1 | −67% from Started"}; strings.Join(bars, "\n") != strings.Join(want, "\n") {
		t.Errorf("the funnel of a form of one step:\n%s\nwant\n%s", strings.Join(bars, "\n"), strings.Join(want, "\n"))
	}
	if figures["completion"] != "0.1%" {
		t.Errorf("the completion rate of a form of one step: %v", figures)
	}

	// A member of another workspace gets no funnel of this one's forms.
	hash, err := accounts.HashPassword(janePassword, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateUser(ctx, accounts.User{Email: "rival@example.com", PasswordHash: hash, CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := tc.db.CreateWorkspace(ctx, "rival", "rival@example.com", time.Now()); err != nil {
		t.Fatal(err)
	}
	rival := tc.browser()
	if res := rival.signIn("rival@example.com", janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("the rival's sign-in: %d", res.status)
	}
	for _, q := range []string{"", "?period=7d", "?period=nonsense"} {
		if res := rival.get(console.Path + "/forms/acme/survey/overview" + q); res.status != http.StatusNotFound || strings.Contains(res.body, "Funnel") || strings.Contains(res.body, "200") {
			t.Errorf("another workspace's form's overview%s: %d %s, want 404", q, res.status, res.body)
		}
	}
}

// TestOverviewFunnelEmpty says that no visit was counted, where views are
// counted, and still counts the submissions; a period that is none is
// refused, and a console without a Funnel shows none.
func TestOverviewFunnelEmpty(t *testing.T) {
	tc, b, now := funnelConsole(t)
	tc.submit("survey", now.Add(-time.Hour), 1, `{"name":"Posted from elsewhere"}`)
	res := b.get(console.Path + "/forms/acme/survey/overview")
	if res.status != http.StatusOK {
		t.Fatalf("overview: %d", res.status)
	}
	for _, want := range []string{`id="funnel-empty"`, "No visits counted in this period.", "on its page at the hub, or in a Go app that serves it with hubform's handlers", "A visitor who reloads the page counts twice."} {
		if !strings.Contains(res.body, want) {
			t.Errorf("the empty funnel lacks %s", want)
		}
	}
	bars, figures := funnelOf(t, res.body)
	if len(bars) != 0 || figures["sent"] != "1" || !strings.HasPrefix(figures["completion"], "—") {
		t.Errorf("the empty funnel shows bars %q, figures %v", bars, figures)
	}
	// Starts without views are visits counted: the bars show, the
	// completion rate has no views to divide. acme/other has no steps.
	if err := tc.db.AddFunnelCounts(context.Background(), []hub.FunnelCount{{Site: "acme", Slug: "other", Day: now.Truncate(24 * time.Hour), Event: "start", N: 5}}); err != nil {
		t.Fatal(err)
	}
	res = b.get(console.Path + "/forms/acme/other/overview")
	bars, figures = funnelOf(t, res.body)
	if want := "views | Views | 0 | 0 | ,starts | Started | 5 | 100 | ,sent | Sent | 0 | 0 | −100% from Started"; strings.Join(bars, ",") != want ||
		figures["completion"] != "— (no views counted)" || strings.Contains(res.body, "No visits counted") {
		t.Errorf("a funnel of starts alone: %q, figures %v", bars, figures)
	}

	for _, period := range []string{"1y", "30", "7D", "-7d"} {
		res := b.get(console.Path + "/forms/acme/survey/overview?period=" + period)
		if res.status != http.StatusBadRequest || !strings.Contains(res.body, `id="funnel-error"`) || !strings.Contains(res.body, "There is no such period: choose the last 7, 30 or 90 days.") ||
			!strings.Contains(res.body, `href="/console/forms/acme/survey/overview?period=30d#funnel-heading"`) {
			t.Errorf("period %q: %d, want 400 with the periods to choose: %s", period, res.status, res.body)
		}
	}

	plain := inboxConsole(t, &memFiles{files: map[string][]byte{}})
	pb := plain.browser()
	pb.signIn(janeEmail, janePassword)
	res = pb.get(console.Path + "/forms/acme/contact/overview?period=whatever")
	if res.status != http.StatusOK || strings.Contains(res.body, "funnel") || strings.Contains(res.body, "Funnel") {
		t.Errorf("the overview without a Funnel: %d, shows a funnel: %v", res.status, strings.Contains(res.body, "funnel"))
	}
}
