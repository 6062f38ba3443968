package console_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// TestBrowserConsoleDeliveries shows a form's deliveries in the console
// of a hub in headless Chromium, with axe-core checking the page: a
// receiver that answers 503 is listed with its attempt, and the page's
// button sends the delivery again.
func TestBrowserConsoleDeliveries(t *testing.T) {
	browser := browsertest.New(t)
	axe := browsertest.Axe(t)
	var hits atomic.Int64
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer receiver.Close()
	form := `{"title": "Contact", "fields": [{"name": "name", "type": "text", "label": "Name"}],
		"hub": {"webhooks": [{"url": "` + receiver.URL + `/hook", "secret": "` + webhookSecret + `"}]}}`
	h := startHub(t, hubserver.Config{Forms: formsDir(t, form),
		Delivery: hubserver.DeliveryConfig{AllowNets: "127.0.0.0/8", Backoff: time.Hour}})
	addUser(t, h, "jane@example.com", "correct horse battery")
	c := &hubclient.Client{HubURL: h.URL}
	if _, err := c.Submit(context.Background(), "acme", "contact", &hubclient.SubmitRequest{Payload: map[string]any{"name": "Jane"}}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); hits.Load() == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no attempt; hub log:\n%s", h.log)
		}
	}

	con := newConsoleTab(t, browser, h)
	tab, do := con.tab, con.do
	text := con.text
	// From the home page to the form's overview, then its Deliveries tab.
	con.signIn("jane@example.com", "correct horse battery",
		chromedp.WaitVisible(chromedp.CSS(`#forms a[href="/console/forms/acme/contact/overview"]`)),
		chromedp.Click(chromedp.CSS(`#forms a[href="/console/forms/acme/contact/overview"]`)),
		chromedp.WaitVisible(chromedp.CSS(`.console-tabs a[href="/console/forms/acme/contact/deliveries"]`)),
		chromedp.Click(chromedp.CSS(`.console-tabs a[href="/console/forms/acme/contact/deliveries"]`)),
		chromedp.WaitVisible(chromedp.CSS("tbody tr")))
	// The attempt is recorded once the hub completes it, a moment after
	// the receiver answered.
	for deadline := time.Now().Add(time.Minute); !strings.Contains(text("tbody"), "HTTP 503"); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the page says %q", text("main"))
		}
		do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("tbody tr")))
	}
	if got := text("tbody"); !strings.Contains(got, receiver.URL+"/hook") || !strings.Contains(got, "failed; to be attempted again") {
		t.Errorf("the deliveries say %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the deliveries page")

	do(chromedp.Click(chromedp.CSS(`tbody button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(`[role="status"] p`)))
	if got := text(`[role="status"]`); !strings.Contains(got, "will be attempted again") {
		t.Errorf("after sending again the page says %q", got)
	}
	browsertest.CheckAxe(t, tab, axe, "the deliveries page after sending one again")
	for deadline := time.Now().Add(time.Minute); hits.Load() < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the delivery sent again never reached the receiver; hub log:\n%s", h.log)
		}
	}
}
