package console_test

import (
	"context"
	"errors"
	"html"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/console"
)

// fakeChats answers test messages as chats do: one whose URL holds
// "refuses" with a 404, any other with "ok".
type fakeChats struct {
	mu   sync.Mutex
	sent []string // the URLs messages went to
}

func (f *fakeChats) TestChat(_ context.Context, form *hub.Form, d hub.Destination) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sent = append(f.sent, d.URL)
	if strings.Contains(d.URL, "refuses") {
		const answer = "Slack answered 404 Not Found: no_service"
		return answer, errors.New(answer)
	}
	return "Slack answered 200 OK: ok", nil
}

func (f *fakeChats) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sent)
}

const slackURL = "https://hooks.slack.com/services/T0/B0/s3cr3tT0k3n"

// TestSettingsChats adds a chat by pasting its address, which says which
// chat it is, lists it without the address's token, sends it a test
// message that shows the chat's answer, and removes it; an address of no
// chat is refused with a message that does not repeat it.
func TestSettingsChats(t *testing.T) {
	chats := &fakeChats{}
	f := newBuilderFormWith(t, func(cfg *console.Config) { cfg.ChatTester = chats })
	form := f.settingsForm()
	form.Set("destinationURL", "https://example.com/hooks/s3cr3tT0k3n")
	if body := html.UnescapeString(f.refused("/settings", form, http.StatusUnprocessableEntity)); !strings.Contains(body, `id="set-destination-error">this is not the address of a Slack, Discord, Microsoft Teams or Google Chat incoming webhook`) ||
		strings.Count(body, "s3cr3tT0k3n") > 1 { // once, in the input typed
		t.Errorf("an address of no chat: %s", body)
	}
	form.Set("destinationURL", slackURL)
	f.act("/settings", form)
	form = f.settingsForm()
	form.Set("destinationURL", "https://discord.com/api/webhooks/1/refuses")
	f.act("/settings", form)
	if got := f.hubJSON("destinations"); got != `[{"url":"`+slackURL+`"},{"url":"https://discord.com/api/webhooks/1/refuses"}]` {
		t.Fatalf("hub.destinations = %s", got)
	}
	page := html.UnescapeString(f.b.get("/console/forms/acme/contact/settings").body)
	for _, want := range []string{`<strong id="destination-0">Slack</strong>`, "<code>https://hooks.slack.com/…</code>", `<strong id="destination-1">Discord</strong>`, "Send a test message"} {
		if !strings.Contains(page, want) {
			t.Errorf("the settings lack %q", want)
		}
	}
	if strings.Contains(page, "s3cr3t") {
		t.Error("the settings show a chat's token")
	}

	// A test message: the chat's answer shown beside it, once.
	if res := f.post("/forms/acme/contact/settings/destinations/0/test", url.Values{}); res.status != http.StatusSeeOther || !strings.HasSuffix(res.header.Get("Location"), "/settings#destinations") {
		t.Fatalf("test message: %d %s", res.status, res.header.Get("Location"))
	}
	page = f.b.get("/console/forms/acme/contact/settings").body
	if !strings.Contains(page, `<p role="status" class="console-chat-test">Test message sent. Slack answered 200 OK: ok</p>`) {
		t.Errorf("the test's answer is not shown: %s", page)
	}
	if strings.Contains(f.b.get("/console/forms/acme/contact/settings").body, "Test message sent") {
		t.Error("the test's answer is shown twice")
	}
	f.post("/forms/acme/contact/settings/destinations/1/test", url.Values{})
	if page := f.b.get("/console/forms/acme/contact/settings").body; !strings.Contains(page, `class="console-chat-test console-chat-test--failed">Slack answered 404 Not Found: no_service <br>The chat refused it`) {
		t.Errorf("a refused test is not shown: %s", page)
	}
	if chats.sent[0] != slackURL || chats.count() != 2 {
		t.Errorf("test messages went to %q", chats.sent)
	}
	if res := f.post("/forms/acme/contact/settings/destinations/2/test", url.Values{}); res.status != http.StatusNotFound {
		t.Errorf("a test to a chat the form lacks: %d", res.status)
	}

	// A viewer sees which chats, not where, and has no test to send;
	// another workspace's admin and a viewer send none.
	val := f.member("val@example.com", accounts.Viewer)
	page = html.UnescapeString(val.get("/console/forms/acme/contact/settings").body)
	if !strings.Contains(page, ">Slack</strong>") || strings.Contains(page, "<code>https://hooks.slack.com") || strings.Contains(page, "Send a test message") {
		t.Errorf("a viewer's settings: %s", page)
	}
	sent := chats.count()
	f.refusedToOutsiders(map[string]url.Values{"/settings/destinations/0/test": {}})
	if chats.count() != sent {
		t.Error("an outsider sent a test message")
	}

	form = f.settingsForm()
	form.Set("destinationRemove", "0")
	f.act("/settings", form)
	if got := f.hubJSON("destinations"); got != `[{"url":"https://discord.com/api/webhooks/1/refuses"}]` {
		t.Errorf("after removing the first: %s", got)
	}

	// An editor, who never sees the addresses, adds one and keeps the
	// others as they are.
	eve := f.member("eve@example.com", accounts.Editor)
	page = eve.get("/console/forms/acme/contact/settings").body
	form = pageForm(t, page, "/console/forms/acme/contact/settings")
	form.Set("destinationURL", "https://chat.googleapis.com/v1/spaces/AAA/messages?key=k&token=t0k")
	if res := eve.do(http.MethodPost, "/console/forms/acme/contact/settings", form, nil); res.status != http.StatusSeeOther {
		t.Fatalf("an editor's save: %d", res.status)
	}
	if got := f.hubJSON("destinations"); got != `[{"url":"https://discord.com/api/webhooks/1/refuses"},{"url":"https://chat.googleapis.com/v1/spaces/AAA/messages?key=k\u0026token=t0k"}]` {
		t.Errorf("after an editor added one: %s", got)
	}
}
