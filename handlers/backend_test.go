package handlers_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/hubclient"
)

// Form files of the form-backend features: closing, limits, redirects,
// prefill. The forms with limits turn the hub's time trap off: a flagged
// submission counts toward none, and the tests post at once.
const (
	closedForm = `{"fields": [{"name": "email", "type": "email", "label": "Email"}], "steps": [{"id": "s", "fields": ["email"]}],
		"i18n": {"translations": {"fr": {"texts": {"closed": "Fermé."}}}},
		"hub": {"closesAt": "2020-01-01T00:00:00Z"}}`
	oneOnlyForm = `{"fields": [{"name": "email", "type": "email", "label": "Email"}], "steps": [{"id": "s", "fields": ["email"]}],
		"hub": {"maxSubmissions": 1, "minSeconds": 0}}`
	uniqueForm = `{"fields": [{"name": "name", "type": "text", "label": "Name"}, {"name": "email", "type": "email", "label": "Email"}],
		"steps": [{"id": "s", "fields": ["name", "email"]}],
		"hub": {"uniqueFields": ["email"], "minSeconds": 0}}`
	redirectForm = `{"fields": [{"name": "email", "type": "email", "label": "Email"}], "steps": [{"id": "s", "fields": ["email"]}],
		"meta": {"redirectUrl": "https://owner.example/thanks?from=form"}}`
	// badRedirectForm is served by the hub without a redirect, which it
	// would refuse, and reaches the app as badRedirectSchema: what a hub
	// that does not check it would send.
	badRedirectForm   = `{"fields": [{"name": "email", "type": "email", "label": "Email"}], "steps": [{"id": "s", "fields": ["email"]}]}`
	badRedirectSchema = `{"fields": [{"name": "email", "type": "email", "label": "Email"}], "steps": [{"id": "s", "fields": ["email"]}],
		"meta": {"redirectUrl": "javascript:alert(1)"}}`
	prefillForm = `{"fields": [
		{"name": "name", "type": "text", "label": "Name"},
		{"name": "plan", "type": "select", "label": "Plan", "options": ["basic", "pro"], "prefill": true},
		{"name": "code", "type": "text", "label": "Code", "maxLength": 4, "prefill": true},
		{"name": "utm_source", "type": "hidden"},
		{"name": "ref", "type": "hidden"}],
		"steps": [{"id": "s", "fields": ["name", "plan", "code"]}]}`
)

// backend is an app serving package handlers for a real hub holding the
// form files above, through a proxy that keeps the bodies of the
// submissions the hub received. Its Echo server also serves a page of any
// form at /page/{site}/{slug}, rendered with PropsFor.
type backend struct {
	hub   *hubtest.Hub
	h     *handlers.Handler
	srv   *httptest.Server
	calls *calls

	mu     sync.Mutex
	bodies []map[string]json.RawMessage
}

func newBackend(t *testing.T, configure ...func(*handlers.Config)) *backend {
	t.Helper()
	b := &backend{calls: &calls{}, hub: hubtest.Start(t, map[string]string{
		"acme/contact": contactForm, "acme/closed": closedForm, "acme/oneonly": oneOnlyForm, "acme/unique": uniqueForm,
		"acme/redirect": redirectForm, "acme/badredirect": badRedirectForm, "acme/prefill": prefillForm,
	})}
	target, _ := url.Parse(b.hub.Server.URL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	recorder := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasPrefix(r.URL.Path, "/v1/acme/badredirect") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, badRedirectSchema)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/submit") {
			data, _ := io.ReadAll(r.Body)
			var body map[string]json.RawMessage
			json.Unmarshal(data, &body)
			b.mu.Lock()
			b.bodies = append(b.bodies, body)
			b.mu.Unlock()
			r.Body = io.NopCloser(bytes.NewReader(data))
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(recorder.Close)
	cfg := handlers.Config{HubURL: recorder.URL + "/v1", Logger: quiet}
	b.calls.config(&cfg)
	for _, c := range configure {
		c(&cfg)
	}
	b.h = handlers.New(cfg)
	e := echo.New()
	b.h.Mount(e)
	e.GET("/page/:site/:slug", func(c echo.Context) error {
		p := b.h.PropsFor(c, c.Param("site"), c.Param("slug"))
		return components.HubForm(p).Render(c.Request().Context(), c.Response())
	})
	b.srv = httptest.NewServer(e)
	t.Cleanup(b.srv.Close)
	return b
}

// received returns the submit bodies the hub received.
func (b *backend) received() []map[string]json.RawMessage {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), b.bodies...)
}

// send posts parts to target, without following a redirect.
func (b *backend) send(t *testing.T, target string, htmx bool, parts ...part) (*http.Response, string) {
	t.Helper()
	body, contentType := multipartBody(t, parts...)
	req, _ := http.NewRequest(http.MethodPost, b.srv.URL+target, body)
	req.Header.Set("Content-Type", contentType)
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res, string(data)
}

// page returns the page of a form at target, parsed.
func (b *backend) page(t *testing.T, target string) string {
	t.Helper()
	res, err := http.Get(b.srv.URL + target)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", target, res.StatusCode, data)
	}
	return string(data)
}

// stampOf returns the stamp input's value in html.
func stampOf(t *testing.T, html string) string {
	t.Helper()
	v, ok := parse(t, html).Find(`input[type=hidden][name="` + components.StampField + `"]`).Attr("value")
	if !ok || v == "" {
		t.Fatalf("no stamp in %s", html)
	}
	return v
}

func TestClosedSchemaRendersTheClosedState(t *testing.T) {
	b := newBackend(t)
	for _, target := range []string{"/page/acme/closed", "/hubform/acme/closed"} {
		doc := parse(t, b.page(t, target))
		if got := text(doc, "[data-hubform] [data-vendor-hubform-closed]"); got != "This form is closed and no longer takes submissions." || doc.Find("form").Length() != 0 {
			t.Errorf("%s: closed panel %q, %d forms", target, got, doc.Find("form").Length())
		}
	}
	if got := text(parse(t, b.page(t, "/page/acme/closed?locale=fr")), "[data-vendor-hubform-closed]"); got != "Fermé." {
		t.Errorf("the closed state in French reads %q", got)
	}
	for _, htmx := range []bool{true, false} {
		res, html := b.send(t, "/hubform/acme/closed/submit", htmx, part{name: "email", value: "jane@example.com"})
		want := http.StatusForbidden
		if htmx {
			want = http.StatusOK
		}
		if doc := parse(t, html); res.StatusCode != want || doc.Find("[data-vendor-hubform-closed]").Length() != 1 || wholePage(doc) == htmx {
			t.Errorf("htmx %v: a post to a closed form answered %d, %s", htmx, res.StatusCode, html)
		}
	}
	if n := len(b.received()); n != 0 {
		t.Errorf("%d posts to a closed form reached the hub", n)
	}
}

func TestClosedBySubmitRendersTheClosedState(t *testing.T) {
	for _, htmx := range []bool{true, false} {
		b := newBackend(t, func(c *handlers.Config) {
			c.Forms = map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "oneonly"}: {ClosedFallback: templ.Raw(`<p class="gone">Full.</p>`)}}
		})
		// The page caches the open schema: the hub alone knows it fills.
		stamp := stampOf(t, b.page(t, "/page/acme/oneonly"))
		if res, html := b.send(t, "/hubform/acme/oneonly/submit", htmx, part{name: "email", value: "a@example.com"}, part{name: components.StampField, value: stamp}); res.StatusCode != http.StatusOK || !strings.Contains(html, "data-vendor-hubform-submitted") {
			t.Fatalf("htmx %v: the first submission answered %d, %s", htmx, res.StatusCode, html)
		}
		res, html := b.send(t, "/hubform/acme/oneonly/submit", htmx, part{name: "email", value: "b@example.com"}, part{name: components.StampField, value: stamp})
		want := http.StatusForbidden
		if htmx {
			want = http.StatusOK
		}
		doc := parse(t, html)
		if res.StatusCode != want || text(doc, "[data-hubform] p.gone") != "Full." || doc.Find("form, [data-hubform-submit-error]").Length() != 0 {
			t.Errorf("htmx %v: the refused submission answered %d, %s", htmx, res.StatusCode, html)
		}
		if n := len(b.hub.Submissions()); n != 1 {
			t.Errorf("htmx %v: %d submissions stored", htmx, n)
		}
		b.calls.mu.Lock()
		errs := b.calls.errors
		b.calls.mu.Unlock()
		if len(errs) != 1 || !errors.Is(errs[0], hubclient.ErrFormClosed) {
			t.Errorf("htmx %v: OnError got %v", htmx, errs)
		}
	}
}

func TestRedirectAfterSuccess(t *testing.T) {
	b := newBackend(t)
	res, html := b.send(t, "/hubform/acme/redirect/submit", true, part{name: "email", value: "a@example.com"})
	if res.StatusCode != http.StatusOK || res.Header.Get("HX-Redirect") != "https://owner.example/thanks?from=form" || strings.Contains(html, "data-vendor-hubform-submitted") {
		t.Errorf("htmx: %d, HX-Redirect %q, body %q", res.StatusCode, res.Header.Get("HX-Redirect"), html)
	}
	res, _ = b.send(t, "/hubform/acme/redirect/submit", false, part{name: "email", value: "b@example.com"})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "https://owner.example/thanks?from=form" {
		t.Errorf("without JavaScript: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	if n := len(b.hub.Submissions()); n != 2 {
		t.Errorf("%d submissions stored, want 2", n)
	}
	if s, e := b.calls.counts(); s != 2 || e != 0 {
		t.Errorf("OnSuccess %d times, OnError %d times; want 2 and 0", s, e)
	}
	// A failed submission stays on the form, whatever the redirect.
	res, html = b.send(t, "/hubform/acme/redirect/submit", true, part{name: "email", value: "not an address"})
	if res.Header.Get("HX-Redirect") != "" || !strings.Contains(html, "hubform-field-error") {
		t.Errorf("an invalid post was redirected: %q, %s", res.Header.Get("HX-Redirect"), html)
	}
	// A javascript: redirect, sent by a hub that does not refuse it, is
	// ignored.
	res, html = b.send(t, "/hubform/acme/badredirect/submit", false, part{name: "email", value: "c@example.com"})
	if res.StatusCode != http.StatusOK || res.Header.Get("Location") != "" || !strings.Contains(html, "data-vendor-hubform-submitted") {
		t.Errorf("javascript: redirect: %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
}

func TestPrefillFromTheQuery(t *testing.T) {
	b := newBackend(t)
	doc := parse(t, b.page(t, "/page/acme/prefill?utm_source=newsletter&plan=pro&code=AB12&name=Mallory&ref="))
	value := func(name string) string {
		return doc.Find(`[name="`+name+`"]`).AttrOr("value", "")
	}
	if value("utm_source") != "newsletter" || value("code") != "AB12" || value("name") != "" || value("ref") != "" {
		t.Errorf("utm_source %q, code %q, name %q, ref %q", value("utm_source"), value("code"), value("name"), value("ref"))
	}
	if got := doc.Find(`select[name=plan] option[selected]`).AttrOr("value", ""); got != "pro" {
		t.Errorf("plan selected %q, want pro", got)
	}
	doc = parse(t, b.page(t, "/page/acme/prefill?plan=enterprise&code=TOOLONG&utm_source=ok"))
	if doc.Find(`select[name=plan] option[selected]`).Length() != 0 || value("code") != "" || value("utm_source") != "ok" {
		t.Errorf("invalid values shown: plan %q, code %q", doc.Find(`select[name=plan] option[selected]`).AttrOr("value", ""), value("code"))
	}
	if doc.Find(".hubform-field-error").Length() != 0 {
		t.Error("a dropped value shows an error")
	}
	// What was prefilled is sent as typed values are.
	res, _ := b.send(t, "/hubform/acme/prefill/submit", true, part{name: "utm_source", value: "newsletter"}, part{name: "plan", value: "pro"})
	subs := b.hub.Submissions()
	if res.StatusCode != http.StatusOK || len(subs) != 1 || !strings.Contains(string(subs[0].Payload), `"utm_source":"newsletter"`) {
		t.Errorf("status %d, submissions %v", res.StatusCode, subs)
	}
}

// timingOf returns the timing member of a submit body.
func timingOf(t *testing.T, body map[string]json.RawMessage) hubclient.Timing {
	t.Helper()
	var tm hubclient.Timing
	if err := json.Unmarshal(body["timing"], &tm); err != nil {
		t.Fatalf("timing %s: %v", body["timing"], err)
	}
	return tm
}

func TestStampReachesTheHub(t *testing.T) {
	key := []byte("0123456789abcdef0123456789abcdef")
	b := newBackend(t, func(c *handlers.Config) { c.StampKey = key })
	stamp := stampOf(t, b.page(t, "/page/acme/contact"))
	other := stampOf(t, b.page(t, "/page/acme/unique"))
	loaded := stampOf(t, b.page(t, "/hubform/acme/contact"))
	tampered := []byte(stamp)
	tampered[len(tampered)/4] ^= 1 // a digit of the time
	for _, tc := range []struct {
		what, stamp, want string
	}{
		{"the page's stamp", stamp, hubclient.StampValid},
		{"the load route's stamp", loaded, hubclient.StampValid},
		{"no stamp", "", hubclient.StampMissing},
		{"a stamp with its time changed", string(tampered), hubclient.StampInvalid},
		{"another form's stamp", other, hubclient.StampInvalid},
		{"garbage", "yesterday", hubclient.StampInvalid},
	} {
		parts := []part{{name: "name", value: "Jane"}, {name: "email", value: "jane@example.com"}}
		if tc.stamp != "" {
			parts = append(parts, part{name: components.StampField, value: tc.stamp})
		}
		before := len(b.received())
		if res, html := b.send(t, "/hubform/acme/contact/submit?locale=de", true, parts...); res.StatusCode != http.StatusOK || !strings.Contains(html, "data-vendor-hubform-submitted") {
			t.Fatalf("%s: %d %s", tc.what, res.StatusCode, html)
		}
		bodies := b.received()
		if len(bodies) != before+1 {
			t.Fatalf("%s: %d bodies received", tc.what, len(bodies)-before)
		}
		body := bodies[len(bodies)-1]
		tm := timingOf(t, body)
		if tm.Stamp != tc.want {
			t.Errorf("%s: stamp %q, want %q", tc.what, tm.Stamp, tc.want)
		}
		// The page was rendered within this test: a plausible time, not
		// one measured from elsewhere.
		if tc.want == hubclient.StampValid && (tm.Seconds < 0 || tm.Seconds > 600) {
			t.Errorf("%s: %v seconds", tc.what, tm.Seconds)
		}
		if tc.want != hubclient.StampValid && tm.Seconds != 0 {
			t.Errorf("%s: %v seconds for a stamp that is not valid", tc.what, tm.Seconds)
		}
		if string(body["locale"]) != `"de"` {
			t.Errorf("%s: locale %s, want \"de\"", tc.what, body["locale"])
		}
	}
	subs := b.hub.Submissions()
	if len(subs) == 0 || subs[0].Locale != "de" {
		t.Errorf("the hub stored the locale %q", subs[0].Locale)
	}

	// An app that plain HTML forms post to sends their posts without a
	// timing, and still judges a stamp that is there.
	plain := newBackend(t, func(c *handlers.Config) { c.StampKey, c.PlainFormPosts = key, true })
	for _, stamp := range []string{"", stamp, "yesterday"} {
		parts := []part{{name: "name", value: "Jane"}, {name: "email", value: "jane@example.com"}}
		if stamp != "" {
			parts = append(parts, part{name: components.StampField, value: stamp})
		}
		plain.send(t, "/hubform/acme/contact/submit", true, parts...)
		body := plain.received()[len(plain.received())-1]
		if got, ok := body["timing"]; ok == (stamp == "") {
			t.Errorf("PlainFormPosts, stamp %q: timing %s", stamp, got)
		}
	}

	// Another instance of the app with the same key takes the stamp; one
	// with a key of its own does not.
	for _, tc := range []struct {
		key  []byte
		want string
	}{{key, hubclient.StampValid}, {nil, hubclient.StampInvalid}} {
		peer := newBackend(t, func(c *handlers.Config) { c.StampKey = tc.key })
		peer.send(t, "/hubform/acme/contact/submit", true, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"}, part{name: components.StampField, value: stamp})
		if got := timingOf(t, peer.received()[0]).Stamp; got != tc.want {
			t.Errorf("an instance with key %q read the stamp as %q, want %q", tc.key, got, tc.want)
		}
	}
}

func TestFormShownAgainKeepsItsStamp(t *testing.T) {
	b := newBackend(t)
	stamp := stampOf(t, b.page(t, "/page/acme/contact"))
	_, html := b.send(t, "/hubform/acme/contact/submit", true, part{name: "email", value: "jane@example.com"}, part{name: components.StampField, value: stamp})
	if got := stampOf(t, html); got != stamp {
		t.Errorf("the form shown again after an error carries stamp %q, want the first rendering's %q", got, stamp)
	}
	_, html = b.send(t, "/hubform/acme/contact/submit", true, part{name: "email", value: "jane@example.com"}, part{name: components.StampField, value: "forged"})
	if got := stampOf(t, html); got == "forged" {
		t.Error("a forged stamp is shown again")
	}
}

func TestDuplicateValueShownBesideItsField(t *testing.T) {
	for _, htmx := range []bool{true, false} {
		b := newBackend(t)
		if res, _ := b.send(t, "/hubform/acme/unique/submit", htmx, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"}); res.StatusCode != http.StatusOK {
			t.Fatalf("htmx %v: first submission %d", htmx, res.StatusCode)
		}
		res, html := b.send(t, "/hubform/acme/unique/submit?locale=de", htmx, part{name: "name", value: "Jane"}, part{name: "email", value: "Jane@Example.com"})
		want := http.StatusConflict
		if htmx {
			want = http.StatusOK
		}
		doc := parse(t, html)
		if res.StatusCode != want {
			t.Errorf("htmx %v: status %d, want %d", htmx, res.StatusCode, want)
		}
		if got := text(doc, "#hubform-acme-unique-email-error"); got != "Dies wurde bereits gesendet: Das Formular nimmt eine Antwort pro Person an." {
			t.Errorf("htmx %v: the email field's error reads %q", htmx, got)
		}
		if doc.Find(".hubform-field-error").Length() != 1 || doc.Find("#hubform-acme-unique-email").AttrOr("value", "") != "Jane@Example.com" {
			t.Errorf("htmx %v: %s", htmx, html)
		}
		if n := len(b.hub.Submissions()); n != 1 {
			t.Errorf("htmx %v: %d submissions stored", htmx, n)
		}
	}
}
