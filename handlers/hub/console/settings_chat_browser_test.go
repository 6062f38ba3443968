package console_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/delivery/chat/chattest"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserChatSettings sends each of a form's chats a test message
// from the Settings tab in headless Chromium, with axe-core checking the
// page at 1280 and 375 px, light and dark: the chat that takes it and the
// one that refuses it each show their answer beside them.
func TestBrowserChatSettings(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	slack, discord := chattest.NewReceiver("slack"), chattest.NewReceiver("discord")
	defer slack.Close()
	defer discord.Close()
	discord.Fail(404)
	h := startHub(t, hubserver.Config{Delivery: hubserver.DeliveryConfig{AllowNets: "127.0.0.0/8", Backoff: time.Hour}})
	addUser(t, h, "jane@example.com", "correct horse battery")
	ctx, now := t.Context(), time.Now()
	if _, err := h.DB.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, now); err != nil {
		t.Fatal(err)
	}
	body := `{"title": "Feedback", "fields": [{"name": "name", "type": "text", "label": "Your name"}, {"name": "score", "type": "nps", "label": "How likely are you to recommend us?"}],
		"hub": {"destinations": [{"kind": "slack", "url": "` + slack.URL + `/services/T0/B0/token"}, {"kind": "discord", "url": "` + discord.URL + `/api/webhooks/1/token"}]}}`
	if _, err := h.DB.SaveFormVersion(ctx, "acme", "feedback", []byte(body), "jane@example.com", now); err != nil {
		t.Fatal(err)
	}
	con := newConsoleTab(t, browser, h)
	con.do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	settings := con.base + "/console/forms/acme/feedback/settings#destinations"
	con.do(chromedp.Navigate(settings), chromedp.WaitVisible(chromedp.CSS("#destination-1")))
	con.waitIdle(`document.readyState === "complete" && !!window.htmx`)
	if got := con.text("#destinations ul"); !strings.Contains(got, "Slack") || !strings.Contains(got, "Discord") || strings.Contains(got, "token") {
		t.Errorf("the chats listed: %q", got)
	}

	// With JavaScript the page is swapped in place; the answers stay
	// beside their chats.
	con.do(chromedp.Click(chromedp.CSS(`#destinations li:nth-child(1) button`)))
	con.waitIdle(`document.querySelector('#destinations li:nth-child(1) .console-chat-test') !== null`)
	if got := con.text(`#destinations li:nth-child(1) .console-chat-test`); got != "Test message sent. Slack answered 200 OK: ok" {
		t.Errorf("Slack's answer shown as %q", got)
	}
	if got := slack.Messages(); len(got) != 1 || len(slack.Errors()) > 0 || !strings.Contains(string(got[0]), "How likely are you to recommend us?") {
		t.Errorf("Slack got %q, %v", got, slack.Errors())
	}
	con.do(chromedp.Click(chromedp.CSS(`#destinations li:nth-child(2) button`)))
	con.waitIdle(`document.querySelector('#destinations li:nth-child(2) .console-chat-test--failed') !== null`)
	if got := con.text(`#destinations li:nth-child(2) .console-chat-test`); !strings.HasPrefix(got, "Discord answered 404 Not Found") {
		t.Errorf("Discord's refusal shown as %q", got)
	}
	for _, width := range []int{1280, 375} {
		for _, scheme := range []string{"light", "dark"} {
			con.do(chromedp.EmulateViewport(int64(width), 900))
			browsertest.ColorScheme(t, con.tab, scheme)
			con.do(chromedp.ScrollIntoView(chromedp.CSS("#destinations")))
			browsertest.CheckAxe(t, con.tab, axe, fmt.Sprintf("the settings' chats at %d px, %s", width, scheme))
			con.screenshot(fmt.Sprintf("console-settings-chats-%d-%s", width, scheme))
		}
	}
}
