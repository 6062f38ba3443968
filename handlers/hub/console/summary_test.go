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
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/hubclient"
)

// poll asks one question of each way of summing up, with a heading that
// takes no answer.
const poll = `{"title":"Poll","fields":[
	{"name":"intro","type":"heading","text":"About you"},
	{"name":"topic","type":"select","label":"Topic","options":[{"value":"sales","label":"Sales team"},{"value":"support","label":"Support"}]},
	{"name":"tags","type":"checkboxes","label":"Tags","options":[{"value":"a","label":"Alpha"},{"value":"b","label":"Beta"}]},
	{"name":"ok","type":"checkbox","label":"Agree"},
	{"name":"stars","type":"rating","label":"Stars","max":5},
	{"name":"score","type":"nps","label":"Recommend us?"},
	{"name":"order","type":"ranking","label":"Order","options":[{"value":"x","label":"Ex"},{"value":"y","label":"Why"},{"value":"z","label":"Zed"}]},
	{"name":"note","type":"textarea","label":"Anything else?"},
	{"name":"parts","type":"matrix","label":"Rate each part","rows":[{"value":"speed","label":"Speed"},{"value":"care","label":"Care"}],"columns":[{"value":"bad","label":"Bad"},{"value":"good","label":"Good"}]}]}`

// summaryConsole is a console with the poll published, at a fixed time,
// and jane signed in.
func summaryConsole(t *testing.T) (*testConsole, *browser, time.Time) {
	t.Helper()
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	tc := inboxConsole(t, &memFiles{files: map[string][]byte{}}, func(cfg *console.Config) {
		cfg.Now = func() time.Time { return now }
		cfg.Summaries = cfg.Users.(*sqldb.DB)
	})
	ctx := context.Background()
	n, err := tc.db.SaveFormVersion(ctx, "acme", "poll", []byte(poll), "test", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := tc.db.PublishFormVersion(ctx, "acme", "poll", n, now); err != nil {
		t.Fatal(err)
	}
	b := tc.browser()
	if res := b.signIn(janeEmail, janePassword); res.status != http.StatusSeeOther {
		t.Fatalf("sign-in: %d", res.status)
	}
	return tc, b, now
}

// submitTallied stores a submission of the poll as the hub's submit route
// does, with its tallies.
func (tc *testConsole) submitTallied(created time.Time, payload string) string {
	tc.t.Helper()
	var schema hubclient.Schema
	if err := json.Unmarshal([]byte(poll), &schema); err != nil {
		tc.t.Fatal(err)
	}
	s := hub.Submission{ID: hub.NewID(created), Site: "acme", Slug: "poll", CreatedAt: created, Payload: json.RawMessage(payload),
		Attachments: []hubclient.Attachment{}, Tallies: hub.TalliesOf(&schema, json.RawMessage(payload))}
	if err := tc.db.CreateSubmission(context.Background(), s); err != nil {
		tc.t.Fatal(err)
	}
	return s.ID
}

// summaryOf returns, for each question of a summary by its field, its
// answers count and its rows, "label | text", and the page's figures.
func summaryOf(t *testing.T, body string) (map[string][]string, map[string]string) {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	qs, figures := map[string][]string{}, map[string]string{}
	squash := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	doc.Find("[data-field]").Each(func(_ int, card *goquery.Selection) {
		field, _ := card.Attr("data-field")
		n, _ := card.Find("[data-answered]").Attr("data-answered")
		rows := []string{"answered " + n}
		card.Find(".console-summary-bars li, .console-summary-ranks li").Each(func(_ int, li *goquery.Selection) {
			rows = append(rows, squash(li.Find(".console-summary-label").Text())+" | "+squash(li.Find(".console-summary-count").Text()))
		})
		card.Find(".console-summary-texts li").Each(func(_ int, li *goquery.Selection) {
			href, _ := li.Find("a").Attr("href")
			rows = append(rows, squash(li.Find("p").Text())+" | "+href)
		})
		card.Find("[data-figure]").Each(func(_ int, f *goquery.Selection) {
			name, _ := f.Attr("data-figure")
			figures[field+"."+name] = f.Text()
		})
		qs[field] = rows
	})
	doc.Find("#summary-range [data-figure]").Each(func(_ int, f *goquery.Selection) { figures["total"] = f.Text() })
	return qs, figures
}

// TestSummary sums up each question over the chosen period: options by
// their labels with counts and shares, yes and no, a rating's average and
// points, the NPS and its bands, a ranking's average places, the newest
// text answers linked to their submissions; spam is left out, and so is
// the heading, which takes no answer. Submissions stored without tallies,
// as before the hub kept them, are counted on the first summary.
func TestSummary(t *testing.T) {
	tc, b, now := summaryConsole(t)
	ctx := context.Background()
	old := now.AddDate(0, -2, 0)
	// Stored without tallies: counted when the summary is first asked for.
	tc.submit("poll", old, 1, `{"topic":"support","tags":["b"],"ok":false,"stars":2,"score":3,"order":["z","y","x"],"note":"Too slow"}`)
	first := tc.submitTallied(now.Add(-2*time.Hour), `{"topic":"sales","tags":["a","b"],"ok":true,"stars":5,"score":10,"order":["x","y","z"],"note":"Lovely","parts":{"speed":"good","care":"good"}}`)
	second := tc.submitTallied(now.Add(-time.Hour), `{"topic":"sales","tags":["a"],"ok":true,"stars":4,"score":9,"order":["y","x","z"],"note":"","parts":{"speed":"bad"}}`)
	spam := tc.submitTallied(now.Add(-time.Minute), `{"topic":"support","note":"Buy pills"}`)
	if _, err := tc.db.SetSpam(ctx, "acme", "poll", []string{spam}, true); err != nil {
		t.Fatal(err)
	}

	res := b.get(console.Path + "/forms/acme/poll/summary")
	if res.status != http.StatusOK {
		t.Fatalf("summary: %d %s", res.status, res.body)
	}
	qs, figures := summaryOf(t, res.body)
	want := map[string][]string{
		"topic": {"answered 3", "Sales team | 2 · 67%", "Support | 1 · 33%"},
		"tags":  {"answered 3", "Alpha | 2 · 67%", "Beta | 2 · 67%"},
		"ok":    {"answered 3", "Yes | 2 · 67%", "No | 1 · 33%"},
		"stars": {"answered 3", "1 | 0 · 0%", "2 | 1 · 33%", "3 | 0 · 0%", "4 | 1 · 33%", "5 | 1 · 33%"},
		"score": {"answered 3", "Detractors (0–6) | 1 · 33%", "Passives (7–8) | 0 · 0%", "Promoters (9–10) | 2 · 67%",
			"0 | 0 · 0%", "1 | 0 · 0%", "2 | 0 · 0%", "3 | 1 · 33%", "4 | 0 · 0%", "5 | 0 · 0%", "6 | 0 · 0%", "7 | 0 · 0%", "8 | 0 · 0%", "9 | 1 · 33%", "10 | 1 · 33%"},
		"order": {"answered 3", "Why | average place 1.7", "Ex | average place 2.0", "Zed | average place 2.3"},
		"parts": {"answered 2", "Bad | 1 · 50%", "Good | 1 · 50%", "Bad | 0 · 0%", "Good | 1 · 50%"},
		"note":  {"answered 2", "Lovely | /console/forms/acme/poll/submissions/" + first, "Too slow | /console/forms/acme/poll/submissions/" + qsFirstID(t, tc, old)},
	}
	for field, rows := range want {
		if got := qs[field]; strings.Join(got, "\n") != strings.Join(rows, "\n") {
			t.Errorf("the summary of %s:\n%s\nwant\n%s", field, strings.Join(got, "\n"), strings.Join(rows, "\n"))
		}
	}
	if _, ok := qs["intro"]; ok || len(qs) != len(want) {
		t.Errorf("the summary shows %d questions, the heading among them: %v", len(qs), qs["intro"])
	}
	for name, value := range map[string]string{"total": "3", "stars.average": "3.7", "score.nps": "+33"} {
		if figures[name] != value {
			t.Errorf("figure %s = %q, want %q", name, figures[name], value)
		}
	}
	for _, unwanted := range []string{"Buy pills", second + `"`} {
		if strings.Contains(res.body, unwanted) {
			t.Errorf("the summary shows %s", unwanted)
		}
	}
	if !strings.Contains(res.body, `<a href="/console/forms/acme/poll/summary" aria-current="page">Summary</a>`) {
		t.Error("the Summary tab is not the current one")
	}

	// The last 7 days leave the older submission out.
	res = b.get(console.Path + "/forms/acme/poll/summary?period=7d")
	qs, figures = summaryOf(t, res.body)
	if got := strings.Join(qs["topic"], "\n"); got != "answered 2\nSales team | 2 · 100%\nSupport | 0 · 0%" || figures["total"] != "2" || figures["score.nps"] != "+100" {
		t.Errorf("the last 7 days: topic %q, figures %v", got, figures)
	}
	if !strings.Contains(res.body, `<a href="/console/forms/acme/poll/summary?period=7d" aria-current="true">Last 7 days</a>`) ||
		!strings.Contains(res.body, `<time datetime="2026-11-21">`) {
		t.Error("the last 7 days are not the current period, from 21 November")
	}

	// Deleting a submission takes its answers out.
	if _, err := tc.db.TrashSubmissions(ctx, "acme", "poll", []string{first}, now); err != nil {
		t.Fatal(err)
	}
	qs, _ = summaryOf(t, b.get(console.Path+"/forms/acme/poll/summary?period=7d").body)
	if got := strings.Join(qs["topic"], "\n"); got != "answered 1\nSales team | 1 · 100%\nSupport | 0 · 0%" {
		t.Errorf("after a deletion, topic %q", got)
	}
}

// qsFirstID returns the id of the poll's submission created at.
func qsFirstID(t *testing.T, tc *testConsole, at time.Time) string {
	t.Helper()
	var id string
	err := tc.db.ListSubmissions(context.Background(), hub.Filter{Site: "acme", Slug: "poll", From: at, To: at.Add(time.Millisecond)}, func(s hub.Submission) error {
		id = s.ID
		return nil
	})
	if err != nil || id == "" {
		t.Fatalf("no submission at %v: %v", at, err)
	}
	return id
}

// TestSummaryEmpty says there is nothing in the period and where to share
// the form; a period that is none is refused; another workspace's form is
// not found; without a session the page sends to sign in.
func TestSummaryEmpty(t *testing.T) {
	tc, b, now := summaryConsole(t)
	tc.submitTallied(now.AddDate(0, 0, -20), `{"topic":"sales"}`)
	res := b.get(console.Path + "/forms/acme/poll/summary?period=7d")
	if res.status != http.StatusOK || !strings.Contains(res.body, "No answers yet in this period.") ||
		!strings.Contains(res.body, `href="/console/forms/acme/poll/share"`) || strings.Contains(res.body, `data-field=`) {
		t.Errorf("an empty period: %d %s", res.status, res.body)
	}
	if res := b.get(console.Path + "/forms/acme/poll/summary?period=30d"); !strings.Contains(res.body, `data-field="topic"`) {
		t.Errorf("the last 30 days do not show the submission of 20 days ago")
	}
	if res := b.get(console.Path + "/forms/acme/poll/summary?period=1y"); res.status != http.StatusBadRequest || !strings.Contains(res.body, "There is no such period") {
		t.Errorf("a period that is none: %d", res.status)
	}
	if res := tc.browser().get(console.Path + "/forms/acme/poll/summary"); res.status != http.StatusSeeOther || res.header.Get("Location") != console.Path+"/sign-in" {
		t.Errorf("without a session: %d %s", res.status, res.header.Get("Location"))
	}

	ctx := context.Background()
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
	if res := rival.get(console.Path + "/forms/acme/poll/summary"); res.status != http.StatusNotFound || strings.Contains(res.body, "Topic") {
		t.Errorf("another workspace's form's summary: %d, want 404", res.status)
	}
}
