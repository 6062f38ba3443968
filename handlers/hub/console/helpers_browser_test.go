package console_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/static/browsertest"
)

// contactForm is acme/contact, the form the console's browser tests show.
const contactForm = `{
  "title": "Contact us",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "files", "type": "file", "label": "Attachments", "multiple": true},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [{"id": "all", "fields": ["name", "message", "files", "_hp"]}],
  "hub": {"maxFileSize": 8388608}
}`

// webhookSecret signs the deliveries of the forms that have a webhook.
const webhookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// formsDir returns a forms directory holding acme/contact.json, whose
// content is form.
func formsDir(t *testing.T, form string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "acme"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "acme", "contact.json"), []byte(form), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// browserHub is a hub served in the test's process, as hubform hub serves
// one, with everything it logs kept for the test's failures.
type browserHub struct {
	*hubserver.Hub
	log *testkit.Buffer
}

// startHub serves the hub cfg describes until t ends: its forms, data
// directory (a fresh one when cfg leaves it empty), console and deliveries,
// on a loopback port unless cfg names an address, without a rate limit,
// and with hubform hub's defaults where cfg leaves the rest at zero.
func startHub(t *testing.T, cfg hubserver.Config) *browserHub {
	t.Helper()
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:0"
	}
	if cfg.Data == "" {
		cfg.Data = t.TempDir()
	}
	cfg.MaxBody, cfg.UploadTTL, cfg.SweepInterval = protocol.DefaultMaxBodyBytes, 24*time.Hour, 10*time.Minute
	// A browser's tab may keep a request open: the test does not wait on it.
	cfg.ShutdownGrace = time.Second
	log := &testkit.Buffer{}
	h, err := hubserver.Open(context.Background(), cfg, slog.New(slog.NewTextHandler(log, nil)))
	if err != nil {
		t.Fatalf("the hub did not open: %v; log:\n%s", err, log)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-served; err != nil {
			t.Errorf("serving: %v; log:\n%s", err, log)
		}
		h.Close()
	})
	return &browserHub{Hub: h, log: log}
}

// addUser adds a user whose password is password, with a proved address,
// as an admin of the default workspace, as hubform users add does; the
// password is hashed at argon2id's lowest cost so that signing in stays
// fast.
func addUser(t *testing.T, h *browserHub, email, password string) {
	t.Helper()
	ctx := context.Background()
	hash, err := accounts.HashPassword(password, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := h.DB.CreateUser(ctx, accounts.User{Email: email, PasswordHash: hash, CreatedAt: now, ProvedAt: now}); err != nil {
		t.Fatal(err)
	}
	members := manage.NewMembers(manage.Config{Sites: h.DB, Audit: h.DB, Logger: slog.New(slog.NewTextHandler(h.log, nil))}, h.DB)
	if err := members.Add(ctx, manage.Operator(accounts.DefaultWorkspace), email, accounts.Admin); err != nil {
		t.Fatal(err)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// A consoleTab is a browser tab on a hub's console; a failed action fails
// the test with the hub's log.
type consoleTab struct {
	t    *testing.T
	tab  context.Context
	hub  *browserHub
	base string // the hub's address without /v1
}

func newConsoleTab(t *testing.T, browser context.Context, h *browserHub) *consoleTab {
	return &consoleTab{t: t, tab: browsertest.NewTab(t, browser), hub: h, base: strings.TrimSuffix(h.URL, "/v1")}
}

func (c *consoleTab) do(actions ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(c.tab, 20*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		c.t.Fatalf("%v; hub log:\n%s", err, c.hub.log)
	}
}

// acceptDialogs answers yes to every window.confirm the page asks from now
// on, and counts them.
func (c *consoleTab) acceptDialogs() *atomic.Int32 {
	var asked atomic.Int32
	err := chromedp.Listen(c.tab, func(ev any) {
		if _, ok := ev.(*page.EventJavascriptDialogOpening); ok {
			asked.Add(1)
			// A listener may not send a command itself.
			go func() {
				if _, err := chromedp.Call(c.tab, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true}); err != nil {
					c.t.Logf("accepting a dialog: %v", err)
				}
			}()
		}
	})
	if err != nil {
		c.t.Fatal(err)
	}
	return &asked
}

// screenshot saves the tab as it shows: see browsertest.Screenshot.
func (c *consoleTab) screenshot(name string) {
	c.t.Helper()
	browsertest.Screenshot(c.t, c.tab, name)
}

// text returns the text of the first element sel matches, or "".
func (c *consoleTab) text(sel string) string {
	c.t.Helper()
	return browsertest.Eval[string](c.t, c.tab, 10*time.Second, `document.querySelector(`+"`"+sel+"`"+`)?.textContent ?? ''`)
}

// eval evaluates js in the tab and returns its value as a string.
func (c *consoleTab) eval(js string) string {
	c.t.Helper()
	return browsertest.Eval[string](c.t, c.tab, 10*time.Second, js)
}

// waitIdle waits until js is true in the tab and htmx is idle.
func (c *consoleTab) waitIdle(js string) {
	c.t.Helper()
	browsertest.WaitFor(c.t, c.tab, 10*time.Second, `(`+js+`) && `+browsertest.HTMXIdle)
}

// storedFormTab starts a hub whose workspace holds the site acme and its
// form slug of body, and signs jane in on a tab of its console, 1280 px
// wide.
func storedFormTab(t *testing.T, browser context.Context, slug, body string) *consoleTab {
	t.Helper()
	h := startHub(t, hubserver.Config{})
	addUser(t, h, "jane@example.com", "correct horse battery")
	ctx, now := t.Context(), time.Now()
	if _, err := h.DB.ClaimSite(ctx, "acme", accounts.DefaultWorkspace, now); err != nil {
		t.Fatal(err)
	}
	if _, err := h.DB.SaveFormVersion(ctx, "acme", slug, []byte(body), "jane@example.com", now); err != nil {
		t.Fatal(err)
	}
	con := newConsoleTab(t, browser, h)
	con.do(chromedp.EmulateViewport(1280, 900))
	con.signIn("jane@example.com", "correct horse battery", chromedp.WaitVisible(chromedp.CSS(`a[href="/console/sites"]`)))
	return con
}

// signIn opens the console, sends its sign-in form and then does then.
func (c *consoleTab) signIn(email, password string, then ...chromedp.Action[chromedp.Void]) {
	c.t.Helper()
	c.do(append([]chromedp.Action[chromedp.Void]{
		chromedp.Navigate(c.base + "/console"), chromedp.WaitVisible(chromedp.CSS("#email")),
		chromedp.SendKeys(chromedp.CSS("#email"), email),
		chromedp.SendKeys(chromedp.CSS("#password"), password),
		chromedp.Click(chromedp.CSS(`button[type="submit"]`)),
	}, then...)...)
}
