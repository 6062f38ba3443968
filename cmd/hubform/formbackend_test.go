package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/delivery/mailpittest"
	"github.com/hubform/hubform/handlers/hub/postgres/pgtest"
	"github.com/hubform/hubform/hubclient"
)

// workshopForm is a form with what owners of a form backend expect: a
// confirmation e-mail in the visitor's language, one response per
// address, and three places.
const workshopForm = `{
  "title": "Workshop",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name"},
    {"name": "email", "type": "email", "label": "Email"},
    {"name": "message", "type": "textarea", "label": "Message"}
  ],
  "steps": [{"id": "all", "fields": ["name", "email", "message"]}],
  "i18n": {"translations": {"de": {"title": "Werkstatt"}}},
  "hub": {
    "notify": {"email": ["owner@example.com"]},
    "autoresponder": {"emailField": "email", "subject": "Thanks, {{name}}", "body": "Hi {{name}}, your place is booked.",
      "i18n": {"de": {"subject": "Danke, {{name}}", "body": "Hallo {{name}}, Ihr Platz ist gebucht."}}},
    "uniqueFields": ["email"],
    "maxSubmissions": 3
  }
}`

// formsWith returns a forms directory holding form as acme/slug.
func formsWith(t testing.TB, slug, form string) string {
	t.Helper()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "acme"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "acme", slug+".json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFormBackendEndToEnd runs a hub process with Mailpit through what an
// owner of a sign-up form lives with: confirmations in the visitor's
// language, a second response from one address refused, a bot's
// submission kept as spam with its reasons and sending nothing until the
// owner says it is not spam, and the form closing once its places are
// taken, spam not counted.
func TestFormBackendEndToEnd(t *testing.T) {
	t.Parallel()
	mp := mailpittest.Start(t)
	data := t.TempDir()
	addUser(t, "owner@example.com", "correct horse battery", "--data", data)
	p := startHub(t, formsWith(t, "signup", workshopForm), data, "--smtp-url", mp.URL(), "--smtp-from", "forms@example.com")
	c := &hubclient.Client{HubURL: p.url}
	ctx := context.Background()
	human := &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 12}
	send := func(name, email, locale string, timing *hubclient.Timing) (string, error) {
		t.Helper()
		res, err := c.Submit(ctx, "acme", "signup", &hubclient.SubmitRequest{
			Payload: map[string]any{"name": name, "email": email, "message": "See you there"}, Locale: locale, Timing: timing})
		if err != nil {
			return "", err
		}
		return res.SubmissionID, nil
	}
	to := func(addr string) []mailpittest.Message {
		var out []mailpittest.Message
		for _, s := range mp.Messages(t) {
			if len(s.To) == 1 && s.To[0].Address == addr {
				out = append(out, mp.Message(t, s.ID))
			}
		}
		return out
	}

	if _, err := send("Jane", "jane@example.net", "de-AT", human); err != nil {
		t.Fatal(err)
	}
	var jane []mailpittest.Message
	waitForN(t, 30*time.Second, func() bool { jane = to("jane@example.net"); return len(jane) > 0 })
	if m := jane[0]; m.Subject != "Danke, Jane" || !strings.Contains(m.Text, "Hallo Jane, Ihr Platz ist gebucht.") {
		t.Errorf("Jane's confirmation: %q %q", m.Subject, m.Text)
	}

	_, err := send("Jane again", "JANE@Example.net", "en", human)
	var refused *hubclient.HubError
	if !errors.Is(err, hubclient.ErrDuplicate) || !errors.As(err, &refused) || refused.StatusCode != http.StatusConflict || refused.Fields["email"] == "" {
		t.Fatalf("second response from Jane's address: %v, want 409 with an error beside email", err)
	}

	bot, err := send("Bot", "bot@example.org", "en", &hubclient.Timing{Stamp: hubclient.StampValid, Seconds: 0.3})
	if err != nil || bot == "" {
		t.Fatalf("a bot is told it succeeded: %q %v", bot, err)
	}
	for _, name := range []string{"Carol", "Dan"} {
		if _, err := send(name, strings.ToLower(name)+"@example.net", "", human); err != nil {
			t.Fatalf("%s, with places left as spam does not count: %v", name, err)
		}
	}
	if _, err := send("Eve", "eve@example.net", "", human); !errors.Is(err, hubclient.ErrFormClosed) {
		t.Fatalf("a fourth person: %v, want the form closed", err)
	}
	schema, err := c.Schema(ctx, "acme", "signup")
	if err != nil || !schema.Meta.Closed {
		t.Fatalf("the schema of a full form: closed %v, %v", schema != nil && schema.Meta.Closed, err)
	}
	// Carol's and Dan's mail arrived after the bot's submission was stored;
	// none was made for the bot.
	waitForN(t, 30*time.Second, func() bool { return len(to("dan@example.net")) > 0 && len(to("owner@example.com")) == 3 })
	if got := to("bot@example.org"); len(got) != 0 {
		t.Fatalf("the bot got %d messages", len(got))
	}

	owner := signIn(t, strings.TrimSuffix(p.url, "/v1"), "owner@example.com", "correct horse battery")
	page := owner.get("/console/forms/acme/signup/submissions/" + bot)
	if !strings.Contains(page, "0.3") {
		t.Errorf("the bot's submission does not show why it was flagged:\n%.2000s", page)
	}
	if status, _ := owner.do(http.MethodPost, "/console/forms/acme/signup/submissions/spam", url.Values{"id": {bot}, "spam": {"0"}}); status != http.StatusSeeOther {
		t.Fatalf("not spam: %d", status)
	}
	waitForN(t, 30*time.Second, func() bool { return len(to("bot@example.org")) > 0 && len(to("owner@example.com")) == 4 })
	// Marked spam and not spam again, it is not delivered twice.
	for _, spam := range []string{"1", "0"} {
		owner.do(http.MethodPost, "/console/forms/acme/signup/submissions/spam", url.Values{"id": {bot}, "spam": {spam}})
	}
	if _, err := send("Frank", "frank@example.net", "", human); !errors.Is(err, hubclient.ErrFormClosed) {
		t.Fatalf("after the release: %v, want the form still closed", err)
	}
	time.Sleep(2 * time.Second) // the queue polls every second on SQLite
	if n, m := len(to("bot@example.org")), len(to("owner@example.com")); n != 1 || m != 4 {
		t.Errorf("%d confirmations to the released sender and %d notifications, want 1 and 4; hub log:\n%s", n, m, p.log)
	}
}

// TestLimitAcrossHubsOnPostgres sends 500 submissions at once, split
// between two hub processes on one PostgreSQL database, to a form with
// ten places: exactly ten are stored, and every other sender is told the
// form is closed.
func TestLimitAcrossHubsOnPostgres(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.URL(t)
	forms := formsWith(t, "seats", `{"title": "Seats", "fields": [{"name": "name", "type": "text", "label": "Name"}],
		"steps": [{"id": "all", "fields": ["name"]}], "hub": {"maxSubmissions": 10}}`)
	hubs := []*hubProcess{
		startHub(t, forms, t.TempDir(), "--db", dbURL),
		startHub(t, forms, t.TempDir(), "--db", dbURL),
	}
	var (
		stored, closed atomic.Int32
		wg             sync.WaitGroup
		mu             sync.Mutex
		other          []error
	)
	transport := &http.Transport{MaxIdleConnsPerHost: 250}
	defer transport.CloseIdleConnections()
	for i := range 500 {
		wg.Go(func() {
			c := &hubclient.Client{HubURL: hubs[i%2].url, HTTPClient: &http.Client{Transport: transport, Timeout: time.Minute}}
			_, err := c.Submit(context.Background(), "acme", "seats", &hubclient.SubmitRequest{Payload: map[string]any{"name": fmt.Sprint("visitor ", i)}})
			switch {
			case err == nil:
				stored.Add(1)
			case errors.Is(err, hubclient.ErrFormClosed):
				closed.Add(1)
			default:
				mu.Lock()
				other = append(other, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(other) > 0 {
		t.Fatalf("%d failed otherwise, first: %v", len(other), other[0])
	}
	if stored.Load() != 10 || closed.Load() != 490 {
		t.Fatalf("%d stored and %d closed, want 10 and 490", stored.Load(), closed.Load())
	}
	schema, err := (&hubclient.Client{HubURL: hubs[0].url}).Schema(context.Background(), "acme", "seats")
	if err != nil || !schema.Meta.Closed {
		t.Fatalf("schema of the full form: %v", err)
	}
	// What the hubs answered is what the database holds.
	status, out, stderr := hubform(t, "submissions", "export", "--db", dbURL, "--site", "acme", "--form", "seats")
	var list []json.RawMessage
	if err := json.Unmarshal([]byte(out), &list); status != 0 || err != nil {
		t.Fatalf("export: %d %v %s", status, err, stderr)
	}
	if len(list) != 10 {
		t.Fatalf("%d submissions stored, want 10", len(list))
	}
}

// TestPageStampAcrossHubs shows a form's page on one hub and sends it, a
// person's time later, to another hub of the same PostgreSQL database, as
// a load balancer may: the second hub reads the first one's stamp, and
// the submission is not taken for a bot's.
func TestPageStampAcrossHubs(t *testing.T) {
	t.Parallel()
	dbURL := pgtest.URL(t)
	forms := formsWith(t, "ask", askPageForm)
	shows, takes := startHub(t, forms, t.TempDir(), "--db", dbURL), startHub(t, forms, t.TempDir(), "--db", dbURL)
	browser := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	page := openPage(t, browser, strings.TrimSuffix(shows.url, "/v1"), "/f/acme/ask")
	time.Sleep(pageMinimum)
	res := postPage(t, browser, strings.TrimSuffix(takes.url, "/v1"), page, map[string]string{"message": "Do you ship to Norway?"})
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the post to the other hub: %d", res.StatusCode)
	}
	status, out, stderr := hubform(t, "submissions", "export", "--db", dbURL, "--site", "acme", "--form", "ask")
	var list []struct {
		Spam bool `json:"spam"`
	}
	if err := json.Unmarshal([]byte(out), &list); status != 0 || err != nil || len(list) != 1 {
		t.Fatalf("export: %d %v %s %s", status, err, out, stderr)
	}
	if list[0].Spam {
		t.Errorf("the submission was flagged as spam: %s", out)
	}
}
