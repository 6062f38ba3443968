package handlers_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/components"
	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

func raw(html string) templ.Component { return templ.Raw(html) }

// hostOptions are settings a host gives the contact form, each one
// recognisable in the markup.
func hostOptions() handlers.FormOptions {
	return handlers.FormOptions{
		LoadingFallback: raw(`<p class="host-loading">One moment</p>`),
		ErrorFallback: func(msg string) templ.Component {
			return raw(`<p class="host-error">` + templ.EscapeString(msg) + `</p>`)
		},
		UnconfiguredFallback: raw(`<p class="host-unconfigured">Soon</p>`),
		SuccessFallback:      raw(`<p class="host-thanks">Thank you, truly</p>`),
		FormProps: components.FormProps{
			Class: "host-form",
			Attrs: templ.Attributes{"data-host": "yes"},
			Components: components.Registry{hubclient.FieldText: func(p components.FieldProps) templ.Component {
				return raw(`<input class="host-text" name="` + templ.EscapeString(p.Field.Name) + `" value="` + templ.EscapeString(strings.Join(p.Values, "")) + `">`)
			}},
		},
	}
}

func registered(forms ...string) func(*handlers.Config) {
	return func(cfg *handlers.Config) {
		cfg.Forms = map[handlers.Form]handlers.FormOptions{}
		for _, f := range forms {
			site, slug, _ := strings.Cut(f, "/")
			cfg.Forms[handlers.Form{Site: site, Slug: slug}] = hostOptions()
		}
	}
}

// TestRegisteredOptionsHoldOnEveryRoute renders a registered form on every
// route and finds the host's settings each time.
func TestRegisteredOptionsHoldOnEveryRoute(t *testing.T) {
	a := newApp(t, registered("acme/contact", "acme/empty", "acme/missing"))
	type check struct{ selector, text string }
	form := []check{{"form.hubform-form.host-form[data-host=yes]", ""}, {"input.host-text[name=name]", ""}}
	tests := []struct {
		name   string
		do     func() (*http.Response, string)
		checks []check
	}{
		{"page props", func() (*http.Response, string) {
			return nil, render(t, components.HubForm(a.h.Props(context.Background(), "acme", "contact", "de")))
		}, append(form, check{"form[lang=de]", ""})},
		{"load htmx", func() (*http.Response, string) { return a.getHTML(t, "/hubform/acme/contact?locale=de", true) }, append(form, check{"form[lang=de]", ""})},
		{"load page", func() (*http.Response, string) { return a.getHTML(t, "/hubform/acme/contact?locale=de", false) }, append(form, check{"form[lang=de]", ""})},
		{"load unconfigured", func() (*http.Response, string) { return a.getHTML(t, "/hubform/acme/empty", true) }, []check{{".host-unconfigured", "Soon"}}},
		{"load error", func() (*http.Response, string) { return a.getHTML(t, "/hubform/acme/missing?locale=de", true) }, []check{{".host-error", "Dieses Formular konnte nicht geladen werden."}}},
		{"submit valid", func() (*http.Response, string) {
			return a.postHTML(t, "/hubform/acme/contact/submit", true, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"})
		}, []check{{".host-thanks", "Thank you, truly"}}},
		{"submit invalid", func() (*http.Response, string) {
			return a.postHTML(t, "/hubform/acme/contact/submit?locale=de", true, part{name: "name", value: "Jane"}, part{name: "email", value: "nope"})
		}, append(form, check{"input.host-text[value=Jane]", ""}, check{".hubform-field-error", "Enter an email address."}, check{"form[lang=de]", ""})},
		{"submit refused", func() (*http.Response, string) {
			a.hub.FailNext("/submit", http.StatusBadRequest, "no")
			return a.postHTML(t, "/hubform/acme/contact/submit", false, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"})
		}, append(form, check{"[data-hubform-submit-error]", "The form was not accepted."})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, html := tc.do()
			doc := parse(t, html)
			for _, c := range tc.checks {
				s := doc.Find("[data-hubform] " + c.selector)
				if s.Length() == 0 || !strings.Contains(s.Text(), c.text) {
					t.Errorf("%s: want %s holding %q in\n%s", tc.name, c.selector, c.text, html)
				}
			}
		})
	}
	a.hub.Server.Close()
	if html := render(t, components.HubForm(a.h.Props(context.Background(), "acme", "never-fetched", ""))); !strings.Contains(html, "data-vendor-hubform-loading") {
		t.Errorf("an unregistered form whose fetch fails: %s, want the built-in loading state", html)
	}
	if html := render(t, components.HubForm(a.h.Props(context.Background(), "acme", "missing", ""))); !strings.Contains(html, `<p class="host-loading">One moment</p>`) {
		t.Errorf("a registered form whose fetch fails: %s, want the host's loading state", html)
	}
}

// callbackLog records the callbacks of a form and of the handler, in order.
type callbackLog struct {
	events []string
	values []map[string]any
	errs   []error
}

func (l *callbackLog) options(o *handlers.FormOptions, cfg *handlers.Config) {
	o.OnSuccess = func(_ context.Context, f handlers.Form, values map[string]any) {
		l.events = append(l.events, "form success "+f.Site+"/"+f.Slug)
		l.values = append(l.values, readFiles(values))
	}
	o.OnError = func(_ context.Context, f handlers.Form, err error) {
		l.events = append(l.events, "form error "+f.Site+"/"+f.Slug)
		l.errs = append(l.errs, err)
	}
	cfg.OnSuccess = func(_ context.Context, f handlers.Form, _ map[string]any) {
		l.events = append(l.events, "handler success "+f.Site+"/"+f.Slug)
	}
	cfg.OnError = func(_ context.Context, f handlers.Form, _ error) {
		l.events = append(l.events, "handler error "+f.Site+"/"+f.Slug)
	}
}

// readFiles replaces the files among values with what OnSuccess learns
// of each: its field, name, size and type, and whether it has a key in the
// hub's storage.
func readFiles(values map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range values {
		if files, ok := v.([]hubclient.Attachment); ok {
			var read []string
			for _, a := range files {
				read = append(read, fmt.Sprintf("%s: %s, %d bytes, %s, stored %v", a.Field, a.Filename, a.Size, a.MIME, strings.HasPrefix(a.Key, "uploads/")))
			}
			v = read
		}
		out[k] = v
	}
	return out
}

func TestCallbacksPerFormAndHandler(t *testing.T) {
	log := &callbackLog{}
	a := newApp(t, func(cfg *handlers.Config) {
		o := hostOptions()
		log.options(&o, cfg)
		cfg.Forms = map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "contact"}: o}
	})
	a.post(t, "/hubform/acme/contact/submit", true,
		part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"}, part{name: "age", value: "42"},
		part{name: "topics", value: "support"}, part{name: "agree", value: "on"}, part{name: "smuggled", value: "x"},
		part{name: "files", value: "first", filename: "a.txt"}, part{name: "files", value: "second", filename: "b.txt"})
	want := map[string]any{
		"name": "Jane", "email": "jane@example.com", "age": 42.0, "topics": []string{"support"}, "agree": true, "_hp": "",
		"files": []string{"files: a.txt, 5 bytes, application/octet-stream, stored true", "files: b.txt, 6 bytes, application/octet-stream, stored true"},
	}
	if len(log.values) != 1 || !reflect.DeepEqual(log.values[0], want) {
		t.Errorf("OnSuccess got %v, want once %v", log.values, want)
	}
	if want := []string{"form success acme/contact", "handler success acme/contact"}; !reflect.DeepEqual(log.events, want) {
		t.Errorf("callbacks %q, want %q", log.events, want)
	}
}

// TestSubmissionFailures fails a submission in every way a hub can and
// checks what the visitor reads and what OnError hears.
func TestSubmissionFailures(t *testing.T) {
	tests := []struct {
		name    string
		fail    func(h *hubtest.Hub)
		errType any
		status  int
		message string
	}{
		{"upload-url 5xx", func(h *hubtest.Hub) { h.FailNext("/upload-url", 500, "disk full at 10.0.0.7:9000") }, new(*hubclient.UploadURLError), 500, "A file could not be uploaded."},
		{"upload-url 4xx", func(h *hubtest.Hub) { h.FailNext("/upload-url", 415, "type refused") }, new(*hubclient.UploadURLError), 415, "A file was not accepted"},
		{"upload PUT", func(h *hubtest.Hub) { h.FailNext("/_uploads", 500, "bucket away") }, new(*hubclient.UploadError), 500, "A file could not be uploaded."},
		{"hub 4xx", func(h *hubtest.Hub) { h.FailNext("/submit", 400, "payload must be an object") }, new(*hubclient.SubmitError), 400, "The form was not accepted."},
		{"hub 403", func(h *hubtest.Hub) { h.FailNext("/submit", 403, "captcha refused: timeout-or-duplicate") }, new(*hubclient.SubmitError), 403, "did not pass"},
		{"hub 429", func(h *hubtest.Hub) { h.FailNext("/submit", 429, "too many requests: at most 3 a minute") }, new(*hubclient.SubmitError), 429, "Too many attempts."},
		{"hub quota", func(h *hubtest.Hub) {
			h.FailNext("/submit", 429, hubclient.QuotaReached+": this form takes no more submissions for now")
		}, new(*hubclient.SubmitError), 429, "This form is not taking submissions for now."},
		{"hub 5xx", func(h *hubtest.Hub) { h.FailNext("/submit", 503, "database locked") }, new(*hubclient.SubmitError), 503, "cannot be sent right now"},
		{"hub's storage full", func(h *hubtest.Hub) {
			h.FailNext("/submit", 507, hubclient.StorageFull+": nothing was stored; try again later")
		}, new(*hubclient.SubmitError), 507, "cannot store what you sent right now"},
		{"hub's disk full for a file", func(h *hubtest.Hub) {
			h.FailNext("/_uploads", 507, hubclient.StorageFull+": nothing was stored; try again later")
		}, new(*hubclient.UploadError), 507, "cannot store what you sent right now"},
		{"dead hub", func(h *hubtest.Hub) { h.Server.Close() }, new(*hubclient.UploadURLError), 0, "cannot be sent right now"},
	}
	for _, tc := range tests {
		for _, htmx := range []bool{true, false} {
			log := &callbackLog{}
			a := newApp(t, func(cfg *handlers.Config) {
				o := handlers.FormOptions{}
				log.options(&o, cfg)
				cfg.Forms = map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "contact"}: o}
			})
			a.get(t, "/hubform/acme/contact", true) // the schema is cached, as after a page
			tc.fail(a.hub)
			res, html := a.postHTML(t, "/hubform/acme/contact/submit", htmx,
				part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"}, part{name: "files", value: "body", filename: "a.txt"})
			what := tc.name
			if htmx {
				what += " (htmx)"
			}
			if want := map[bool]int{true: 200, false: 502}[htmx]; res.StatusCode != want {
				t.Errorf("%s: status %d, want %d", what, res.StatusCode, want)
			}
			doc := parse(t, html)
			if got := text(doc, "[data-hubform-submit-error]"); !strings.Contains(got, tc.message) {
				t.Errorf("%s: the visitor reads %q, want %q", what, got, tc.message)
			}
			if v, _ := doc.Find("#hubform-acme-contact-name").Attr("value"); v != "Jane" {
				t.Errorf("%s: the name is not kept: %q", what, v)
			}
			noHubDetails(t, what, html, a.hub)
			if want := []string{"form error acme/contact", "handler error acme/contact"}; !reflect.DeepEqual(log.events, want) {
				t.Errorf("%s: callbacks %q, want %q", what, log.events, want)
				continue
			}
			err := log.errs[0]
			if !errors.As(err, tc.errType) {
				t.Errorf("%s: OnError got %T (%v), want %T", what, err, err, tc.errType)
			}
			var hubErr *hubclient.HubError
			if tc.status != 0 && (!errors.As(err, &hubErr) || hubErr.StatusCode != tc.status) {
				t.Errorf("%s: OnError got %v, want the hub's %d", what, err, tc.status)
			}
			if len(a.hub.Submissions()) != 0 && tc.name != "dead hub" {
				t.Errorf("%s: stored a submission", what)
			}
		}
	}
}

// noHubDetails fails when html tells the visitor where the hub is or
// what it said.
func noHubDetails(t *testing.T, what, html string, h *hubtest.Hub) {
	t.Helper()
	u, _ := url.Parse(h.URL)
	// The port alone would be found, now and then, in a token's digits.
	for _, leak := range []string{u.Host, ":" + u.Port(), "127.0.0.1", "10.0.0.7", "http://", "/v1", "failed:", "Service Unavailable", "Bad Gateway", "dial tcp", "connection refused"} {
		if strings.Contains(html, leak) {
			t.Errorf("%s: the page shows %q:\n%s", what, leak, html)
		}
	}
}

func TestLoadFailuresShowNoHubDetails(t *testing.T) {
	a := newApp(t)
	for _, htmx := range []bool{true, false} {
		_, html := a.getHTML(t, "/hubform/acme/missing", htmx)
		noHubDetails(t, "missing form", html, a.hub)
		a.hub.FailNext(".json", 503, "maintenance on 10.0.0.7:5432")
		_, html = a.getHTML(t, "/hubform/acme/not-cached", htmx)
		noHubDetails(t, "hub 503", html, a.hub)
		if !strings.Contains(html, "This form could not be loaded. Please try again later.") {
			t.Errorf("hub 503: %s", html)
		}
	}
	a.hub.Server.Close()
	_, html := a.getHTML(t, "/hubform/acme/contact", false)
	noHubDetails(t, "dead hub", html, a.hub)
	// A post whose form cannot be fetched at all.
	_, html = a.postHTML(t, "/hubform/acme/contact/submit", true, part{name: "name", value: "Jane"})
	noHubDetails(t, "post, dead hub", html, a.hub)
}

func TestPostProblemsShowNoDetails(t *testing.T) {
	a := newApp(t, func(cfg *handlers.Config) { cfg.MaxPostBytes = 1 << 20 })
	// The app answers a post declared too long at once, without reading
	// it, and closes the connection: a client still sending the body may
	// see it reset before it reads the answer. This one waits to be told
	// (Expect: 100-continue), as it then sends nothing.
	body, contentType := multipartBody(t, part{name: "files", value: strings.Repeat("x", 2<<20), filename: "big.txt"})
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/hubform/acme/contact/submit", body)
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("HX-Request", "true")
	req.Header.Set("Expect", "100-continue")
	client := &http.Client{Transport: &http.Transport{ExpectContinueTimeout: time.Minute}}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	html := string(page)
	if got := text(parse(t, html), "[data-hubform-submit-error]"); !strings.Contains(got, "at most 1 MiB") || strings.Contains(got, "http:") {
		t.Errorf("too large: %q", got)
	}
	req, _ = http.NewRequest(http.MethodPost, a.srv.URL+"/hubform/acme/contact/submit", strings.NewReader("--x\r\nbroken"))
	req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
	res, html = doHTML(t, req)
	if got := text(parse(t, html), "[data-hubform-submit-error]"); res.StatusCode != 400 || !strings.HasSuffix(got, "The form could not be read. Please try again.") {
		t.Errorf("unreadable post: %d %q", res.StatusCode, got)
	}
}

// TestFormsOfTwoHubs serves one form from each of two hubs: each is
// fetched from and delivered to its own.
func TestFormsOfTwoHubs(t *testing.T) {
	first := hubtest.Start(t, map[string]string{"acme/contact": contactForm})
	second := hubtest.Start(t, map[string]string{"beta/contact": strings.Replace(contactForm, "Contact us", "Beta contact", 1)})
	h := handlers.New(handlers.Config{HubURL: first.URL, Logger: quiet, Forms: map[handlers.Form]handlers.FormOptions{
		{Site: "beta", Slug: "contact"}: {HubURL: second.URL},
	}})
	if p := h.Props(context.Background(), "beta", "contact", ""); p.InitialSchema == nil || p.InitialSchema.Title != "Beta contact" {
		t.Fatalf("beta/contact from the second hub: %+v", p.InitialSchema)
	}
	if p := h.Props(context.Background(), "acme", "contact", ""); p.InitialSchema == nil || p.InitialSchema.Title != "Contact us" {
		t.Fatalf("acme/contact from the first hub: %+v", p.InitialSchema)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	a := &app{hub: second, h: h, srv: srv}
	_, doc := a.post(t, "/hubform/beta/contact/submit", true, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"})
	if doc.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("submit to the second hub: %s", doc.Text())
	}
	if len(second.Submissions()) != 1 || len(first.Submissions()) != 0 {
		t.Errorf("stored: first hub %d, second hub %d; want 0 and 1", len(first.Submissions()), len(second.Submissions()))
	}
	_, doc = a.get(t, "/hubform/beta/contact", true)
	if text(doc, ".hubform-title") != "Beta contact" {
		t.Errorf("load route of beta/contact: %q", text(doc, ".hubform-title"))
	}
}

// TestPropsLocaleSetByTheHost changes the locale after PropsFor: the
// routes the form loads and posts to carry it.
func TestPropsLocaleSetByTheHost(t *testing.T) {
	a := newApp(t)
	e := echo.New()
	c := e.NewContext(httptest.NewRequest(http.MethodGet, "/contact", nil), httptest.NewRecorder())
	p := a.h.PropsFor(c, "acme", "contact")
	p.Locale = "de"
	doc := parse(t, render(t, components.HubForm(p)))
	if action, _ := doc.Find("form").Attr("action"); action != "/hubform/acme/contact/submit?locale=de" {
		t.Errorf("form action %q, want the locale on it", action)
	}
	p.InitialSchema = nil
	doc = parse(t, render(t, components.HubForm(p)))
	if load, _ := doc.Find("[data-vendor-hubform-loading]").Attr("data-hx-get"); load != "/hubform/acme/contact?locale=de" {
		t.Errorf("load route %q, want the locale on it", load)
	}
}

// tokenRecorder stands in for the captcha provider: it accepts every
// token and records it.
type tokenRecorder struct{ tokens []string }

func (r *tokenRecorder) Verify(_ context.Context, req captcha.Request) error {
	r.tokens = append(r.tokens, req.Token)
	return nil
}

// TestCaptchaWiredByTheSchema posts to a form whose schema asks for
// Turnstile: the provider's own field reaches the hub as the token, and a
// post without one never leaves the app.
func TestCaptchaWiredByTheSchema(t *testing.T) {
	verifier := &tokenRecorder{}
	withCaptcha := strings.Replace(contactForm, `"hub": {`, `"meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"}, "hub": {"captchaSecret": "secret", `, 1)
	h := hubtest.Start(t, map[string]string{"acme/contact": withCaptcha}, func(cfg *protocol.Config) { cfg.Captcha = verifier })
	log := &callbackLog{}
	cfg := handlers.Config{HubURL: h.URL, Logger: quiet}
	o := handlers.FormOptions{}
	log.options(&o, &cfg)
	cfg.Forms = map[handlers.Form]handlers.FormOptions{{Site: "acme", Slug: "contact"}: o}
	srv := httptest.NewServer(handlers.New(cfg))
	defer srv.Close()
	a := &app{hub: h, srv: srv}
	values := []part{{name: "name", value: "Jane"}, {name: "email", value: "jane@example.com"}}

	_, html := a.postHTML(t, "/hubform/acme/contact/submit", true, values...)
	if got := text(parse(t, html), "[data-hubform-submit-error]"); !strings.Contains(got, "did not pass") {
		t.Errorf("a post without a token: the visitor reads %q", got)
	}
	if len(log.errs) != 1 || !errors.Is(log.errs[0], hubclient.ErrNoCaptchaToken) {
		t.Errorf("a post without a token: OnError got %v, want ErrNoCaptchaToken", log.errs)
	}
	if n := len(h.Submissions()); n != 0 || len(verifier.tokens) != 0 {
		t.Errorf("a post without a token reached the hub: %d stored, %d verified", n, len(verifier.tokens))
	}

	_, html = a.postHTML(t, "/hubform/acme/contact/submit", true, append(values, part{name: "cf-turnstile-response", value: "token-from-widget"})...)
	if parse(t, html).Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("a post with the widget's token: %s", html)
	}
	if !reflect.DeepEqual(verifier.tokens, []string{"token-from-widget"}) || len(h.Submissions()) != 1 {
		t.Errorf("the hub verified %q and stored %d, want the widget's token and one", verifier.tokens, len(h.Submissions()))
	}
}

// TestOneSubmissionPerSend posts one rendering of the form twice, as a
// double click without JavaScript does: the key it carries reaches the
// hub, which stores one submission.
func TestOneSubmissionPerSend(t *testing.T) {
	fake := fakehub.NewServer()
	defer fake.Close()
	var schema hubclient.Schema
	if err := json.Unmarshal([]byte(contactForm), &schema); err != nil {
		t.Fatal(err)
	}
	fake.SetForm("acme", "contact", &schema)
	h := handlers.New(handlers.Config{HubURL: fake.URL, Logger: quiet})
	srv := httptest.NewServer(h)
	defer srv.Close()
	a := &app{h: h, srv: srv}

	first, second := h.Props(context.Background(), "acme", "contact", ""), h.Props(context.Background(), "acme", "contact", "")
	if first.SubmissionKey == "" || first.SubmissionKey == second.SubmissionKey {
		t.Fatalf("keys of two renderings: %q and %q, want two different ones", first.SubmissionKey, second.SubmissionKey)
	}
	_, loaded := a.get(t, "/hubform/acme/contact", true)
	key, _ := loaded.Find(`input[type=hidden][name="` + hubclient.IdempotencyKeyField + `"]`).Attr("value")
	if key == "" || key == first.SubmissionKey {
		t.Fatalf("the load route's form carries key %q, want a fresh one", key)
	}

	post := func(parts ...part) *goquery.Document {
		_, doc := a.post(t, "/hubform/acme/contact/submit", false, append(parts, part{name: hubclient.IdempotencyKeyField, value: key})...)
		return doc
	}
	// A post the app refuses keeps the key, so that the corrected post
	// is the same send.
	refused := post(part{name: "name", value: "Jane"})
	if got, _ := refused.Find(`input[name="` + hubclient.IdempotencyKeyField + `"]`).Attr("value"); got != key {
		t.Errorf("the form shown again carries key %q, want the posted %q", got, key)
	}
	for range 2 {
		if doc := post(part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"}); doc.Find("[data-vendor-hubform-submitted]").Length() != 1 {
			t.Fatalf("post: %s", doc.Text())
		}
	}
	subs := fake.Submissions()
	if len(subs) != 1 || subs[0].Request.IdempotencyKey != key {
		t.Fatalf("the hub stored %d submissions (%+v), want one with key %q", len(subs), subs, key)
	}
	if _, ok := subs[0].Request.Payload[hubclient.IdempotencyKeyField]; ok {
		t.Error("the key went into the payload")
	}

	// A key that cannot be one is not sent; the form gets a fresh one.
	_, doc := a.post(t, "/hubform/acme/contact/submit", true, part{name: "name", value: "Jane"}, part{name: hubclient.IdempotencyKeyField, value: "bad\x01key"})
	if got, _ := doc.Find(`input[name="` + hubclient.IdempotencyKeyField + `"]`).Attr("value"); got == "" || strings.Contains(got, "bad") {
		t.Errorf("after a bad key the form carries %q, want a fresh key", got)
	}
}
