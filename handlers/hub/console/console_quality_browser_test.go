package console_test

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/hubform/hubform/handlers/hub/accounts"
	"github.com/hubform/hubform/handlers/hub/hubserver"
	"github.com/hubform/hubform/handlers/hub/manage"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/static/browsertest"
)

// npmBin is where static/package-lock.json's command-line tools are
// installed (make npm).
const npmBin = "../../../static/node_modules/.bin"

// htmlValidateConfig is the configuration html-validate checks the
// console's pages with.
const htmlValidateConfig = "testdata/html-validate.cjs"

// qualityForm is the stored form the quality test's pages show: every kind
// of value the console lists, a file field, a translation and a webhook.
const qualityForm = `{
  "title": "Order",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "Your e-mail"},
    {"name": "size", "type": "select", "label": "Size", "options": [{"value": "s", "label": "Small"}, {"value": "l", "label": "Large"}]},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "files", "type": "file", "label": "Attachments", "multiple": true}
  ],
  "steps": [{"id": "all", "fields": ["name", "email", "size", "message", "files"]}],
  "i18n": {"translations": {"de": {"title": "Bestellung", "fields": {"name": {"label": "Ihr Name"}}}}},
  "hub": {"maxFileSize": 1048576, "webhooks": [{"url": "RECEIVER", "secret": "` + webhookSecret + `"}]}
}`

// TestBrowserConsoleQuality holds every console page to the same bar, on
// a hub with a stored form, its submissions (one with a file) and a
// delivery that failed:
//
//   - axe-core finds no violation, of any impact, at 1280 and at 375 CSS
//     pixels, in the light and in the dark scheme;
//   - at 375 pixels the document does not scroll sideways (a table may,
//     inside its own .console-table);
//   - the system's dark scheme changes the page's background and text;
//   - html-validate accepts the HTML the server sends;
//   - Lighthouse scores accessibility and best practices at 0.95 or more
//     on a representative set of pages;
//   - with JavaScript disabled, each kind of action works through the
//     page's own forms and reaches its result.
//
// It runs only when the browser tests are required (HUBFORM_BROWSER_TESTS=1)
// and then needs axe-core, html-validate and Lighthouse from make npm.
func TestBrowserConsoleQuality(t *testing.T) {
	if !browsertest.Required() {
		t.Skipf("set %s=1 to check the console's pages", browsertest.RequireEnv)
	}
	if testing.Short() {
		t.Skip("the full run checks the console's pages; the race detector has nothing to find in a driver")
	}
	started := time.Now()
	defer func() { t.Logf("wall time: %v", time.Since(started).Round(100*time.Millisecond)) }()
	for _, tool := range []string{"html-validate", "lighthouse"} {
		if _, err := os.Stat(filepath.Join(npmBin, tool)); err != nil {
			t.Fatalf("%s is missing (%v): run make npm", tool, err)
		}
	}
	// Lighthouse alone takes minutes on a busy machine.
	browser := browsertest.New(t, browsertest.Limit(12*time.Minute))
	axe := browsertest.Axe(t)
	q := newQualityHub(t)

	// Every page of the console, and what shows it is there.
	consolePages := []struct{ name, path, wait string }{
		{"home", "/console", "#forms table"},
		{"new form", "/console/sites", "#in-site"},
		{"overview", q.form + "/overview", "#recent"},
		{"build", q.form, "#builder"},
		{"build, JSON", q.form + "?view=json", "#body"},
		{"build, translations", q.form + "?view=translations", "#translations"},
		{"submissions", q.form + "/submissions", "#submissions"},
		{"summary", q.form + "/summary", "#summary"},
		{"a submission", q.form + "/submissions/" + q.withFile, "#values a[download]"},
		{"deliveries", q.form + "/deliveries", "tbody tr"},
		{"share", q.form + "/share", "pre"},
		{"settings", q.form + "/settings", "#workspace"},
		{"design", q.form + "/design", "#workspace"},
		{"try it", q.form + "/try", ".builder-try form"},
		{"history", q.form + "/history", "#versions"},
		{"publish", q.form + "/publish", "#publish-heading"},
		{"members", "/console/members", "#members"},
		{"a person's data", "/console/people", "#person-email"},
		{"API tokens", "/console/tokens", "#tokens"},
		{"audit log", "/console/audit", "table"},
		{"your account", "/console/account", "#sessions"},
		// The empty states of a form: no fields, not published, nothing
		// received, delivered or found.
		{"build, no fields", q.blank, "#builder"},
		{"overview, nothing received", q.blank + "/overview", "main h1"},
		{"submissions, none", q.blank + "/submissions", "#no-submissions"},
		{"summary, none", q.blank + "/summary", "#summary-empty"},
		{"submissions, nothing found", q.form + "/submissions?q=nothing-matches-this", "#no-submissions"},
		{"deliveries, none", q.blank + "/deliveries", "main h1"},
		{"share, not published", q.blank + "/share", "#not-published"},
	}
	// The empty states of a workspace, seen by the admin of one that holds
	// nothing yet.
	emptyPages := []struct{ name, path, wait string }{
		{"home, no forms", "/console", "#no-forms"},
		{"new form, no site", "/console/sites", "#in-site"},
		{"members, you alone", "/console/members", "#members"},
		{"API tokens, none", "/console/tokens", "#token-name"},
		{"audit log, nothing", "/console/audit?before=1", "main h1"},
		{"a person's data, no forms", "/console/people", "#person-email"},
	}
	// The setup page, on a hub without a user.
	fresh := startHub(t, hubserver.Config{})
	setup := strings.TrimSuffix(fresh.URL, "/v1") + "/console/setup"
	// Lighthouse audits them while the browser checks, with a session of
	// its own, the empty workspace's with its admin's, and the public
	// pages without one.
	audited := map[string]string{"sign-in": "/console/sign-in", "reset": "/console/reset", "sign-up": "/console/signup", "setup": setup}
	for _, p := range consolePages {
		audited[p.name] = p.path
	}
	var emptyNames []string
	for _, p := range emptyPages {
		audited[p.name] = p.path
		emptyNames = append(emptyNames, p.name)
	}
	lighthouse := q.startLighthouse(t, audited, []string{"sign-in", "reset", "sign-up", "setup"}, emptyNames)

	con := newConsoleTab(t, browser, q.hub)
	pages := map[string]qualityPage{} // by name: checked below, validated at the end
	check := func(name string) {
		t.Helper()
		q.checkPage(t, con, axe, name)
		pages[name] = qualityPage{path: q.path(t, con)}
	}
	checkPublic := func(name string) {
		t.Helper()
		q.checkPage(t, con, axe, name)
		pages[name] = qualityPage{path: q.path(t, con), public: true}
	}

	// The public pages.
	con.do(chromedp.Navigate(con.base + "/console/sign-in"))
	checkPublic("sign-in")
	con.do(chromedp.Navigate(con.base + "/console/reset"))
	checkPublic("reset")
	con.do(chromedp.Navigate(con.base + "/console/signup"))
	checkPublic("sign-up")
	con.do(chromedp.Navigate(setup), chromedp.WaitVisible(chromedp.CSS("#code")))
	q.checkPage(t, con, axe, "setup")
	pages["setup"] = qualityPage{path: setup, public: true}

	// Every action, once, without JavaScript: its result page is checked
	// too.
	con.signIn("jane@example.com", q.password, chromedp.WaitVisible(chromedp.CSS("#forms table")))
	invitation := q.withoutJavaScript(t, con, axe)

	// Every page of the console.
	for _, p := range consolePages {
		con.do(chromedp.Navigate(con.base+p.path), chromedp.WaitVisible(chromedp.CSS(p.wait)))
		check(p.name)
	}
	con.do(chromedp.Navigate(con.base+invitation), chromedp.WaitVisible(chromedp.CSS("#password")))
	checkPublic("an invitation")

	// The empty workspace's pages, signed in as its admin.
	con.do(chromedp.Navigate(con.base + "/console"))
	if browsertest.Eval[bool](t, con.tab, 5*time.Second, `!!document.querySelector('form[action="/console/sign-out"]')`) {
		con.do(chromedp.Click(chromedp.CSS(`form[action="/console/sign-out"] button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS("#email")))
	}
	con.signIn(emptyAdmin, q.password, chromedp.WaitVisible(chromedp.CSS("#no-forms")))
	for _, p := range emptyPages {
		con.do(chromedp.Navigate(con.base+p.path), chromedp.WaitVisible(chromedp.CSS(p.wait)))
		q.checkPage(t, con, axe, p.name)
		pages[p.name] = qualityPage{path: q.path(t, con), as: q.emptyClient}
	}
	// A person's data that the workspace does not hold: erasing it, which
	// without JavaScript asks on a page of its own, says nothing was.
	con.do(chromedp.Navigate(con.base+"/console/people"), chromedp.WaitVisible(chromedp.CSS("#person-email")))
	disableScripts(t, con, true)
	con.do(chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS("#person-email")),
		chromedp.SendKeys(chromedp.CSS("#person-email"), "nobody@example.org"),
		chromedp.Click(chromedp.CSS(`button[formaction="/console/people/erase"]`)),
		chromedp.WaitVisible(chromedp.CSS("#confirm")),
		chromedp.Click(chromedp.CSS(`#confirm button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS("#notice p")))
	disableScripts(t, con, false)
	if got := con.text("#notice"); !strings.Contains(got, "nothing was erased") {
		t.Errorf("erasing the data of an address nobody sent says %q", got)
	}
	q.checkPage(t, con, axe, "a person's data, nothing found")

	t.Logf("pages checked in the browser after %v", time.Since(started).Round(100*time.Millisecond))
	q.validate(t, pages)
	t.Logf("pages validated after %v", time.Since(started).Round(100*time.Millisecond))
	lighthouse()
}

// qualityPage is a page the quality test checked: its path, and whether
// it is for people who are not signed in.
type qualityPage struct {
	path   string // or a whole URL, of another hub
	public bool
	// as, when set, is the client signed in that reads the page, instead
	// of the admin's.
	as *http.Client
}

// qualityHub is a hub with the data the quality test's pages show.
type qualityHub struct {
	hub      *browserHub
	base     string
	password string
	form     string // the stored form's console path
	blank    string // the console path of a form with a title alone, never published
	withFile string // the id of a submission with a file
	hits     *atomic.Int64
	// client is signed in as the admin, with a session of its own;
	// emptyClient as the admin of a workspace that holds nothing.
	client, emptyClient *http.Client
}

// emptyAdmin is the admin of the quality hub's workspace that holds
// nothing: no site, no token, no other member.
const emptyAdmin = "sam@example.com"

func newQualityHub(t *testing.T) *qualityHub {
	t.Helper()
	q := &qualityHub{password: "correct horse battery", form: "/console/forms/shop/order", blank: "/console/forms/shop/blank", hits: &atomic.Int64{}}
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q.hits.Add(1)
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(receiver.Close)
	q.hub = startHub(t, hubserver.Config{Forms: formsDir(t, contactForm), Signup: "open",
		Delivery: hubserver.DeliveryConfig{AllowNets: "127.0.0.0/8", Backoff: time.Hour}})
	q.base = strings.TrimSuffix(q.hub.URL, "/v1")
	addUser(t, q.hub, "jane@example.com", q.password)
	ctx := context.Background()
	operator := manage.Config{Sites: q.hub.DB, Audit: q.hub.DB, Logger: slog.New(slog.NewTextHandler(q.hub.log, nil))}
	if err := manage.NewWorkspaces(operator, q.hub.DB).Create(ctx, manage.Operator("zebra"), "jane@example.com"); err != nil {
		t.Fatalf("creating the workspace zebra: %v", err)
	}
	hash, err := accounts.HashPassword(q.password, accounts.Params{Memory: 64, Time: 1, Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := q.hub.DB.CreateUser(ctx, accounts.User{Email: emptyAdmin, PasswordHash: hash, CreatedAt: time.Now(), ProvedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := manage.NewWorkspaces(operator, q.hub.DB).Create(ctx, manage.Operator("empty"), emptyAdmin); err != nil {
		t.Fatalf("creating the workspace empty: %v", err)
	}
	token, err := manage.NewTokens(operator, q.hub.DB).Create(ctx, manage.Operator(accounts.DefaultWorkspace), "ci", accounts.ScopeAll)
	if err != nil {
		t.Fatalf("creating a token: %v", err)
	}
	// The form is pushed and published through the admin API, as hubform
	// forms push --publish does.
	form := strings.Replace(qualityForm, "RECEIVER", receiver.URL+"/hook", 1)
	var saved struct {
		Version int64 `json:"version"`
	}
	admin := q.hub.URL + "/admin/forms/shop/order"
	if answer := q.admin(t, token, http.MethodPut, admin+"/version", form); json.Unmarshal(answer, &saved) != nil || saved.Version == 0 {
		t.Fatalf("pushing the form: the hub answered %s", answer)
	}
	q.admin(t, token, http.MethodPost, admin+"/versions/"+strconv.FormatInt(saved.Version, 10)+"/publish", "")
	// A form as the console creates it: its title alone, not published.
	q.admin(t, token, http.MethodPut, q.hub.URL+"/admin/forms/shop/blank/version", `{"title": "Blank", "fields": [], "steps": []}`)
	c := &hubclient.Client{HubURL: q.hub.URL}
	for _, p := range []map[string]any{
		{"name": "Jane Roe", "email": "jane@example.net", "size": "s", "message": "Two of them, please."},
		{"name": "John Smith", "size": "l", "message": strings.Repeat("A long message without spaces: ", 3) + strings.Repeat("x", 200)},
		{"name": "Ann Lee", "email": "ann@example.org", "message": "Mark me as spam."},
		{"name": "Bob Doe", "message": "Delete me."},
	} {
		if _, err := c.Submit(ctx, "shop", "order", &hubclient.SubmitRequest{Payload: p}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "order-list.txt")
	os.WriteFile(file, []byte("two small, one large\n"), 0o600)
	f, err := hubclient.FileFromPath(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := hubclient.NewSubmitter(hubclient.SubmitOptions{HubURL: q.hub.URL, SiteID: "shop", FormSlug: "order"}).Submit(ctx,
		hubclient.Submission{Values: map[string]any{"name": "Cy Brown", "message": "See the file.", "files": []hubclient.File{f}}})
	if err != nil {
		t.Fatalf("submit with a file: %v; hub log:\n%s", err, q.hub.log)
	}
	q.withFile = res.SubmissionID

	q.client = q.signIn(t)
	q.emptyClient = q.signInAs(t, emptyAdmin)
	// The deliveries have failed once each, and say so.
	for deadline := time.Now().Add(time.Minute); !strings.Contains(q.get(t, q.form+"/deliveries"), "HTTP 503"); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no delivery failed yet; hub log:\n%s", q.hub.log)
		}
	}
	return q
}

// admin sends body to the admin API's target with token and returns the
// answer's body; an answer other than 2xx fails the test.
func (q *qualityHub) admin(t *testing.T, token, method, target, body string) []byte {
	t.Helper()
	req, err := http.NewRequest(method, target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	if res.StatusCode/100 != 2 {
		t.Fatalf("%s %s: %s %s; hub log:\n%s", method, target, res.Status, answer, q.hub.log)
	}
	return answer
}

// signIn signs in to the console with an HTTP client of its own, which it
// returns.
func (q *qualityHub) signIn(t *testing.T) *http.Client {
	t.Helper()
	return q.signInAs(t, "jane@example.com")
}

// signInAs signs in to the console as email with an HTTP client of its
// own, which it returns.
func (q *qualityHub) signInAs(t *testing.T, email string) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	res, err := client.Get(q.base + "/console/sign-in")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	m := csrfInput.FindSubmatch(body)
	if m == nil || len(m[1]) == 0 {
		t.Fatalf("the sign-in page has no CSRF token:\n%s", body)
	}
	res, err = client.PostForm(q.base+"/console/sign-in", url.Values{"_csrf": {string(m[1])}, "email": {email}, "password": {q.password}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK || res.Request.URL.Path != "/console" {
		t.Fatalf("signing in over HTTP ends at %s with %s; hub log:\n%s", res.Request.URL, res.Status, q.hub.log)
	}
	return client
}

// get returns the page at path as the server sends it, signed in.
func (q *qualityHub) get(t *testing.T, path string) string {
	t.Helper()
	return q.getAs(t, q.client, path)
}

// getAs returns the page at path as the server sends it to client.
func (q *qualityHub) getAs(t *testing.T, client *http.Client, path string) string {
	t.Helper()
	res, err := client.Get(q.base + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v", path, res.Status, err)
	}
	return string(body)
}

// path is the path and query of the tab's page.
func (q *qualityHub) path(t *testing.T, con *consoleTab) string {
	t.Helper()
	return browsertest.Eval[string](t, con.tab, 10*time.Second, `location.pathname + location.search`)
}

// checkPage checks the page in con's tab at 1280 and 375 pixels, in the
// light and the dark scheme: axe-core, the document's width, and that the
// dark scheme changes the colours.
func (q *qualityHub) checkPage(t *testing.T, con *consoleTab, axe, name string) {
	t.Helper()
	type colours struct{ Background, Text string }
	seen := map[string]colours{}
	for _, width := range []int64{1280, 375} {
		con.do(chromedp.EmulateViewport(width, 900))
		for _, scheme := range []string{"light", "dark"} {
			browsertest.ColorScheme(t, con.tab, scheme)
			where := fmt.Sprintf("%s (%d px, %s)", name, width, scheme)
			for _, v := range browsertest.AxeRun(t, con.tab, axe) {
				t.Errorf("axe on %s: %s (%s): %s\n\t%s\n\tat %s", where, v.ID, v.Impact, v.Help, v.HelpURL, strings.Join(v.Targets, "\n\tat "))
			}
			for _, b := range browsertest.Eval[[]string](t, con.tab, 10*time.Second, buttonContrast) {
				t.Errorf("%s: %s", where, b)
			}
			if width == 1280 {
				seen[scheme] = browsertest.Eval[colours](t, con.tab, 10*time.Second, `(() => {
				  const s = getComputedStyle(document.body);
				  return {Background: s.backgroundColor, Text: s.color};
				})()`)
			} else {
				q.wantNarrow(t, con, where)
				wantAboveFold(t, con, where)
			}
		}
	}
	browsertest.ColorScheme(t, con.tab, "")
	con.do(chromedp.EmulateViewport(1280, 900))
	if light, dark := seen["light"], seen["dark"]; light.Background == dark.Background || light.Text == dark.Text {
		t.Errorf("%s: the dark scheme does not change the page's colours: light %+v, dark %+v", name, light, dark)
	}
}

// buttonContrast lists, as sentences, the buttons and links drawn as
// buttons on the page whose text is missing or does not stand out from
// their background (a contrast under 4.5:1, that of WCAG's level AA), such
// as a link whose colour the page's links rule gave the button's
// background. axe checks text it finds; this checks what a button shows.
const buttonContrast = `(() => {
  const parse = (c) => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return null;
    const p = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const luminance = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c.r) + 0.7152 * f(c.g) + 0.0722 * f(c.b);
  };
  const background = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c.a > 0) return c;
    }
    return matchMedia('(prefers-color-scheme: dark)').matches ? {r: 0, g: 0, b: 0, a: 1} : {r: 255, g: 255, b: 255, a: 1};
  };
  const out = [];
  for (const el of document.querySelectorAll('.hubform-button, .console-menu-button')) {
    const box = el.getBoundingClientRect(), s = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || !el.checkVisibility({visibilityProperty: true}) || el.disabled) continue;
    const what = el.tagName.toLowerCase() + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
    if (!(el.innerText || '').trim() && !el.getAttribute('aria-label')) { out.push(what + ' shows no text'); continue; }
    const fg = parse(s.color), bg = background(el);
    if (!fg) continue;
    const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
    const ratio = (hi + 0.05) / (lo + 0.05);
    if (ratio < 4.5) out.push(what + ': its text (' + s.color + ') on its background (rgb(' + bg.r + ', ' + bg.g + ', ' + bg.b + ')) has a contrast of ' + ratio.toFixed(2) + ':1, under 4.5:1');
  }
  return out;
})()`

// phoneFold is the height of a small phone's window at 375 CSS pixels
// wide (an iPhone SE's): a page's heading must show in it.
const phoneFold = 667

// wantAboveFold fails the test when the page's main heading ends below
// the first screen of a small phone: the page starts with its own
// content, not with the navigation.
func wantAboveFold(t *testing.T, con *consoleTab, where string) {
	t.Helper()
	bottom := browsertest.Eval[float64](t, con.tab, 10*time.Second, `(() => {
	  const h = document.querySelector('main h1');
	  return h ? h.getBoundingClientRect().bottom + window.scrollY : -1;
	})()`)
	if bottom > phoneFold {
		t.Errorf("%s starts below the fold: its heading ends %.0f px down, past the %d px of a small phone", where, bottom, phoneFold)
	}
}

// wantNarrow fails the test when the document scrolls sideways, naming
// the elements that reach past the window and are not inside an element
// that scrolls on its own.
func (q *qualityHub) wantNarrow(t *testing.T, con *consoleTab, where string) {
	t.Helper()
	wide := browsertest.Eval[[]string](t, con.tab, 10*time.Second, `(() => {
	  const root = document.documentElement, edge = window.innerWidth + 0.5;
	  if (root.scrollWidth <= window.innerWidth) return [];
	  // Inside an element that fits and scrolls or clips on its own.
	  const contained = (el) => {
	    for (let p = el.parentElement; p; p = p.parentElement) {
	      const o = getComputedStyle(p).overflowX;
	      if (o !== 'visible' && p.getBoundingClientRect().right <= edge) return true;
	    }
	    return false;
	  };
	  const out = ['document ' + root.scrollWidth + ' px wide in a window of ' + window.innerWidth];
	  for (const el of document.body.querySelectorAll('*')) {
	    const r = el.getBoundingClientRect(), parent = el.parentElement.getBoundingClientRect();
	    if (r.right > edge && parent.right <= edge && !contained(el)) {
	      out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).join('.') : '') + ' reaches ' + Math.round(r.right) + ' px');
	    }
	  }
	  if (out.length === 1) {
	    // An absolutely positioned element escapes the scrolling of an
	    // ancestor that is not its containing block: name the furthest.
	    const far = [...document.body.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > edge);
	    far.sort((a, b) => b.getBoundingClientRect().right - a.getBoundingClientRect().right);
	    for (const el of far.slice(0, 3)) out.push(el.tagName.toLowerCase() + (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).join('.') : '') + ' in ' + el.parentElement.tagName.toLowerCase() + ' reaches ' + Math.round(el.getBoundingClientRect().right) + ' px');
	  }
	  return out;
	})()`)
	if len(wide) > 0 {
		t.Errorf("%s scrolls sideways: %s", where, strings.Join(wide, "; "))
	}
}

// withoutJavaScript does each kind of action of the console once with
// JavaScript disabled in con's tab, signed in, and checks the pages on the
// way that the main list does not reach. It returns the path of an
// invitation's link. It leaves the tab signed in, with JavaScript.
func (q *qualityHub) withoutJavaScript(t *testing.T, con *consoleTab, axe string) string {
	scripts := func(disabled bool) {
		t.Helper()
		ctx, cancel := context.WithTimeout(con.tab, 5*time.Second)
		defer cancel()
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled}); err != nil {
			t.Fatal(err)
		}
	}
	// waitFor waits until js holds in the tab's page, following the page
	// across the navigation a post starts.
	waitFor := func(what, js string) {
		t.Helper()
		for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			ctx, cancel := context.WithTimeout(con.tab, 2*time.Second)
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.readyState === 'complete' && !!(`+js+`)`))
			cancel()
			if err == nil && ok {
				return
			}
		}
		t.Fatalf("without JavaScript, %s never came: the page at %s says %q; hub log:\n%s", what, q.path(t, con), con.text("main"), q.hub.log)
	}
	open := func(path, wait string) {
		t.Helper()
		con.do(chromedp.Navigate(con.base+path), chromedp.WaitVisible(chromedp.CSS(wait)))
	}
	click := func(sel string) {
		t.Helper()
		if !browsertest.Eval[bool](t, con.tab, 5*time.Second, `!!document.querySelector(`+jsString(sel)+`)`) {
			t.Fatalf("without JavaScript, the page at %s has no %s to click", q.path(t, con), sel)
		}
		con.do(chromedp.Click(chromedp.CSS(sel)))
	}
	has := func(sel, text string) string {
		return `(document.querySelector(` + jsString(sel) + `)?.textContent ?? '').includes(` + jsString(text) + `)`
	}

	scripts(true)
	defer scripts(false)
	open("/console", "#forms table")
	if browsertest.Eval[bool](t, con.tab, 5*time.Second, `typeof window.htmx !== 'undefined'`) {
		t.Fatal("the page ran its scripts with script execution disabled")
	}

	// The workspace switcher's button, and back.
	con.do(chromedp.SetValue(chromedp.CSS("#switch-workspace"), "zebra"))
	click(`.console-switch button[type="submit"]`)
	waitFor("the other workspace", has("h1", "Forms of workspace zebra"))
	con.do(chromedp.SetValue(chromedp.CSS("#switch-workspace"), "default"))
	click(`.console-switch button[type="submit"]`)
	waitFor("the workspace again", has("h1", "Forms of workspace default"))

	// Mark a submission as spam from the list: it leaves the list.
	open(q.form+"/submissions", "#submissions")
	spam := browsertest.Eval[string](t, con.tab, 5*time.Second, `[...document.querySelectorAll('#submissions tbody tr')].find((tr) => tr.textContent.includes('Ann Lee')).querySelector('input[type=checkbox]').value`)
	click(`#select-` + spam)
	click(`button[formaction$="/spam"]`)
	waitFor("the list without the spam", `document.querySelector('#submissions') && !`+has("#submissions", "Ann Lee"))

	// Delete one from its page: the list says so, with an Undo.
	del := browsertest.Eval[string](t, con.tab, 5*time.Second, `[...document.querySelectorAll('#submissions tbody tr')].find((tr) => tr.textContent.includes('Bob Doe')).querySelector('a').getAttribute('href')`)
	open(del, "#values")
	click(`button[formaction$="/delete"]`)
	waitFor("the list without the deleted one", `document.querySelector('#submissions') && !`+has("#submissions", "Bob Doe")+` && document.querySelector('#undo')`)
	scripts(false) // for axe-core; the page's own scripts were never run
	q.checkPage(t, con, axe, "the notice of a deletion")
	scripts(true)
	click(`#undo`)
	waitFor("the list with the one restored", has("#submissions", "Bob Doe")+` && `+has(`[role="status"]`, "One submission restored."))

	// Send a delivery again.
	open(q.form+"/deliveries", "tbody tr")
	hits := q.hits.Load()
	click(`tbody button[type="submit"]`)
	waitFor("the notice of the delivery sent again", has(`[role="status"]`, "will be attempted again"))
	for deadline := time.Now().Add(time.Minute); q.hits.Load() == hits; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the delivery sent again never reached the receiver; hub log:\n%s", q.hub.log)
		}
	}

	// Add a field on the Build tab, then publish the draft it made.
	open(q.form, "#builder")
	click(`details.builder-add > summary`)
	con.do(chromedp.SetValue(chromedp.CSS("#new-type"), "text"),
		chromedp.SendKeys(chromedp.CSS("#new-label"), "Company"))
	click(`details.builder-add button[type="submit"]`)
	waitFor("the new field", `document.querySelector('[data-field="company"]')`)
	click(`#publish summary`)
	click(`#publish form button[type="submit"]`)
	waitFor("the draft published", `document.querySelector('#view-live')`)
	// Roll back from the history, and forward again.
	open(q.form+"/history", "#versions")
	click(`#versions tr[data-version="1"] button[type="submit"]`)
	waitFor("the rollback", `document.querySelector('#versions tr[data-state="live"]')?.dataset.version === '1'`)
	click(`#versions tr[data-version="2"] button[type="submit"]`)
	waitFor("version 2 live again", `document.querySelector('#versions tr[data-state="live"]')?.dataset.version === '2'`)

	// Save the settings.
	open(q.form+"/settings", "#workspace")
	click(`#workspace form[method="post"] button[type="submit"]`)
	waitFor("the notice of the settings saved", `(document.querySelector('#notice')?.textContent ?? '').trim() !== ''`)

	// Invite someone; the hub sends no e-mail, so the page shows the link.
	open("/console/members", "#invite-email")
	con.do(chromedp.SendKeys(chromedp.CSS("#invite-email"), "cy@example.com"), chromedp.SetValue(chromedp.CSS("#invite-role"), "editor"))
	click(`form[action="/console/invitations"] button[type="submit"]`)
	waitFor("the invitation's link", `document.querySelector('#invitation-link')`)
	link := browsertest.Eval[string](t, con.tab, 5*time.Second, `document.querySelector('#invitation-link').value`)
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Path, "/console/invitations/") {
		t.Fatalf("the invitation's link is %q", link)
	}

	// Create a token, then revoke it.
	open("/console/tokens", "#token-name")
	con.do(chromedp.SendKeys(chromedp.CSS("#token-name"), "deploy"))
	click(`form[action="/console/tokens"] button[type="submit"]`)
	waitFor("the new token", `document.querySelector('#created-token') && document.querySelector('tr[data-token="deploy"]')`)
	click(`tr[data-token="deploy"] button[type="submit"]`)
	waitFor("the page that asks", `document.querySelector('#confirm')`)
	click(`#confirm button[type="submit"]`)
	waitFor("the token revoked", `document.querySelector('#tokens') && !document.querySelector('tr[data-token="deploy"]')`)

	// Choose a time zone.
	open("/console/account", "#time-zone")
	con.do(chromedp.SetValue(chromedp.CSS("#time-zone"), "Europe/Paris"))
	click(`form[action="/console/account/time-zone"] button[type="submit"]`)
	// The typed value is on the page before the post: the notice is not.
	waitFor("the time zone saved", has("#notice", "Times are now shown in Europe/Paris"))

	// Sign out, and in again.
	click(`form[action="/console/sign-out"] button[type="submit"]`)
	waitFor("the sign-in page", `document.querySelector('#email')`)
	con.do(chromedp.SendKeys(chromedp.CSS("#email"), "jane@example.com"), chromedp.SendKeys(chromedp.CSS("#password"), q.password))
	click(`button[type="submit"]`)
	waitFor("the home page", `document.querySelector('#forms table')`)
	return u.Path
}

// validate has html-validate check the HTML the server sends for each
// page, signed in, at once.
func (q *qualityHub) validate(t *testing.T, pages map[string]qualityPage) {
	t.Helper()
	dir := t.TempDir()
	names := map[string]string{} // file: page
	anonymous := &http.Client{Timeout: 30 * time.Second}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range pages {
			if !yield(n) {
				return
			}
		}
	}) {
		p := pages[name]
		var body string
		switch {
		case p.public:
			target := p.path
			if !strings.HasPrefix(target, "http") {
				target = q.base + target
			}
			res, err := anonymous.Get(target)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %s", p.path, res.Status)
			}
			body = string(b)
		case p.as != nil:
			body = q.getAs(t, p.as, p.path)
		default:
			body = q.get(t, p.path)
		}
		wantNoHXAttributes(t, name, body)
		file := filepath.Join(dir, regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(name), "-")+".html")
		if err := os.WriteFile(file, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		names[file] = name + " (" + p.path + ")"
	}
	files := slices.Sorted(func(yield func(string) bool) {
		for f := range names {
			if !yield(f) {
				return
			}
		}
	})
	// The report goes to a file: node may end before a pipe has taken
	// all of a long one.
	report := filepath.Join(dir, "report.json")
	cmd := exec.Command(filepath.Join(npmBin, "html-validate"), append([]string{"--config", htmlValidateConfig, "--formatter", "json=" + report}, files...)...)
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("html-validate: %v %s", err, stderr.String())
	}
	out, rerr := os.ReadFile(report)
	if rerr != nil {
		t.Fatalf("html-validate wrote no report: %v; it said %s", rerr, stderr.String())
	}
	var results []struct {
		FilePath string
		Source   string
		Messages []struct {
			RuleID   string
			Message  string
			Offset   int
			Line     int
			Column   int
			Selector string
		}
	}
	if err := json.Unmarshal(out, &results); err != nil {
		t.Fatalf("html-validate's report: %v\n%s\n%s", err, out, stderr.String())
	}
	if err != nil && len(results) == 0 {
		t.Fatalf("html-validate failed with no report: %v\n%s", err, stderr.String())
	}
	for _, r := range results {
		page := cmp.Or(names[r.FilePath], r.FilePath)
		for _, m := range r.Messages {
			// The source around the offset (of characters, near enough
			// to bytes in these pages).
			from, to := max(0, min(m.Offset, len(r.Source))-60), min(len(r.Source), m.Offset+140)
			t.Errorf("html-validate on %s: %s: %s\n\tat %s, line %d:%d: …%s…", page, m.RuleID, m.Message, m.Selector, m.Line, m.Column, strings.ToValidUTF8(r.Source[from:to], ""))
		}
	}
}

// wantNoHXAttributes fails the test when an element of the page has an
// attribute hx-*: HTML allows no attributes of one's own but data-*, and
// htmx reads data-hx-* alike. html-validate does not check attributes it
// does not know.
func wantNoHXAttributes(t *testing.T, page, body string) {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			if strings.HasPrefix(a.Key, "hx-") {
				el := "<" + goquery.NodeName(s)
				if id, ok := s.Attr("id"); ok {
					el += ` id="` + id + `"`
				} else if action, ok := s.Attr("action"); ok {
					el += ` action="` + action + `"`
				}
				found = append(found, el+" "+a.Key+">")
			}
		}
	})
	if len(found) > 0 {
		t.Errorf("%s: %d attributes hx-*, which HTML does not have (htmx reads data-hx-* alike): %s", page, len(found), strings.Join(slices.Compact(found), ", "))
	}
}

// startLighthouse audits each of pages (name: path) with Lighthouse, one
// after the other in a Chromium of its own (testdata/lighthouse.mjs),
// signed in with a session of its own except on the public pages. The
// function it returns waits for the audits and fails the test on an audit
// that ended on another page, or a score of accessibility or best
// practices under 0.95, with the audits that failed.
func (q *qualityHub) startLighthouse(t *testing.T, pages map[string]string, public, empty []string) func() {
	t.Helper()
	cookieHeader := func(client *http.Client) []byte {
		u, _ := url.Parse(q.base + "/console")
		var cookies []string
		for _, c := range client.Jar.Cookies(u) {
			cookies = append(cookies, c.Name+"="+c.Value)
		}
		headers, _ := json.Marshal(map[string]string{"Cookie": strings.Join(cookies, "; ")})
		return headers
	}
	headers, emptyHeaders := cookieHeader(q.signIn(t)), cookieHeader(q.signInAs(t, emptyAdmin))
	dir := t.TempDir()
	// The script audits the public pages in a browser of their own (see
	// testdata/lighthouse.mjs).
	names := slices.Sorted(maps.Keys(pages))
	args := []string{"--input-type=module", "-", dir}
	for _, name := range names {
		target := pages[name]
		if !strings.HasPrefix(target, "http") {
			target = q.base + target
		}
		args = append(args, name+"="+target)
	}
	script, err := os.Open("testdata/lighthouse.mjs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { script.Close() })
	// A test that stops early ends the audits, and waits for them before
	// their directory is removed.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	cmd := exec.CommandContext(ctx, "node", args...)
	cmd.Dir, cmd.Stdin = "../../../static", script
	cmd.Env = append(os.Environ(), "CHROME_PATH="+browsertest.ExecPath, "LIGHTHOUSE_HEADERS="+string(headers), "LIGHTHOUSE_PUBLIC="+strings.Join(public, ","),
		"LIGHTHOUSE_OTHER="+strings.Join(empty, ","), "LIGHTHOUSE_OTHER_HEADERS="+string(emptyHeaders))
	// Interrupted, Lighthouse ends its Chromium too.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	began := time.Now()
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting Lighthouse: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cancel(); <-done })
	return func() {
		t.Helper()
		if err := <-done; err != nil {
			done <- err
			t.Fatalf("Lighthouse: %v\n%s", err, out.String())
		}
		done <- nil
		var summary []string
		for _, name := range names {
			scores, failed := lighthouseFailures(name, pages[name], filepath.Join(dir, name+".json"))
			for _, f := range failed {
				t.Error(f)
			}
			summary = append(summary, scores)
		}
		t.Logf("Lighthouse, in %v (milliseconds a page: %s):\n\t%s", time.Since(began).Round(100*time.Millisecond),
			strings.Join(strings.Fields(out.String()), " "), strings.Join(summary, "\n\t"))
	}
}

// lighthouseFailures reads a Lighthouse report of page, at path (with its
// query), and returns the page's scores, and describes each category under
// 0.95, with the audits of it that did not pass. An audit that ended
// elsewhere, such as on the sign-in page of a session that did not reach
// the browser, audited another page: that is a failure too.
func lighthouseFailures(page, path, report string) (string, []string) {
	data, err := os.ReadFile(report)
	if err != nil {
		return "", []string{fmt.Sprintf("Lighthouse on %s wrote no report: %v", page, err)}
	}
	var r struct {
		FinalDisplayedURL string `json:"finalDisplayedUrl"`
		RuntimeError      *struct{ Code, Message string }
		Categories        map[string]struct {
			Title     string
			Score     *float64
			AuditRefs []struct {
				ID     string
				Weight float64
			}
		}
		Audits map[string]struct {
			Title            string
			Score            *float64
			ScoreDisplayMode string
			Details          *struct {
				Items []map[string]any
			}
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return "", []string{fmt.Sprintf("Lighthouse's report on %s: %v", page, err)}
	}
	if r.RuntimeError != nil && r.RuntimeError.Code != "" {
		return "", []string{fmt.Sprintf("Lighthouse on %s: %s %s", page, r.RuntimeError.Code, r.RuntimeError.Message)}
	}
	final, _ := url.Parse(r.FinalDisplayedURL)
	scores := page + " (" + final.Path + "):"
	var out []string
	if u, err := url.Parse(path); err == nil && u.IsAbs() {
		path = u.RequestURI()
	}
	if final.RequestURI() != path {
		out = append(out, fmt.Sprintf("Lighthouse on %s audited %s, not %s", page, final.RequestURI(), path))
	}
	for _, id := range []string{"accessibility", "best-practices"} {
		c, ok := r.Categories[id]
		if !ok || c.Score == nil {
			out = append(out, fmt.Sprintf("Lighthouse on %s (%s): no %s score", page, r.FinalDisplayedURL, id))
			continue
		}
		scores += fmt.Sprintf(" %s %.2f", id, *c.Score)
		if *c.Score >= 0.95 {
			continue
		}
		msg := fmt.Sprintf("Lighthouse on %s (%s): %s %.2f, under 0.95", page, r.FinalDisplayedURL, c.Title, *c.Score)
		for _, ref := range c.AuditRefs {
			a := r.Audits[ref.ID]
			if a.Score == nil || *a.Score >= 1 || a.ScoreDisplayMode == "informative" || a.ScoreDisplayMode == "manual" {
				continue
			}
			msg += fmt.Sprintf("\n\t%s (weight %g): %s", ref.ID, ref.Weight, a.Title)
			if a.Details != nil {
				for i, item := range a.Details.Items {
					if i == 5 {
						msg += "\n\t\t…"
						break
					}
					b, _ := json.Marshal(item)
					if len(b) > 300 {
						b = append(b[:300], "…"...)
					}
					msg += "\n\t\t" + string(b)
				}
			}
		}
		out = append(out, msg)
	}
	return scores, out
}
