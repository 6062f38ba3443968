package hosted_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/protocol"
)

const (
	contactForm = `{
  "title": "Contact us",
  "description": "Write to the Acme team.",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "Email", "required": true},
    {"name": "message", "type": "textarea", "label": "Message"},
    {"name": "files", "type": "file", "label": "Attachments", "multiple": true},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [{"id": "main", "fields": ["name", "email", "message", "files", "_hp"]}],
  "i18n": {"translations": {
    "de": {"title": "Kontakt", "description": "Schreiben Sie uns.", "fields": {"name": {"label": "Ihr Name"}}},
    "fr": {"title": "Écrivez-nous"}
  }},
  "hub": {"allowedOrigins": ["https://www.acme.example"]}
}`
	newsletterForm = `{
  "title": "Newsletter",
  "fields": [{"name": "email", "type": "email", "label": "Email", "required": true}],
  "steps": [{"id": "main", "fields": ["email"]}]
}`
	turnstileForm = `{
  "title": "Guarded",
  "fields": [{"name": "name", "type": "text", "label": "Name"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"}
}`
	recaptchaForm = `{
  "title": "Scored",
  "fields": [{"name": "name", "type": "text", "label": "Name"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "meta": {"captchaProvider": "recaptcha-v3", "captchaSiteKey": "site-key"},
  "hub": {"captchaSecret": "recaptcha-secret"}
}`
	// embedForm's owner lets two sites of theirs alone show its page in
	// a frame.
	embedForm = `{
  "title": "Embedded",
  "fields": [{"name": "name", "type": "text", "label": "Name"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "hub": {"embedOrigins": ["https://www.acme.example", "https://shop.acme.example:8443"]}
}`
	// offForm's owner shows it in their own app only.
	offForm = `{
  "title": "Internal",
  "fields": [{"name": "name", "type": "text", "label": "Name"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "hub": {"hostedPage": false}
}`
)

func testForms() map[string]string {
	return map[string]string{
		"acme/contact": contactForm, "acme/newsletter": newsletterForm, "acme/turnstile": turnstileForm,
		"acme/recaptcha": recaptchaForm, "acme/off": offForm, "acme/embed": embedForm,
	}
}

// nonceOf returns the nonce the policy names for scripts.
var nonceOf = regexp.MustCompile(`script-src 'self' 'nonce-([A-Za-z0-9+/=_-]+)'`)

// TestPage checks a form's page: the form, rendered on the server to post
// to the hub's handlers; the title, description and preview the page
// gives; its icon; and the headers that keep it to itself.
func TestPage(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	a := h.get("/f/acme/contact")
	if a.status != http.StatusOK {
		t.Fatalf("status %d: %s", a.status, a.body)
	}
	for selector, want := range map[string]string{
		"title":                                  "Contact us",
		"html[lang=en] form h2":                  "Contact us",
		`label[for="hubform-acme-contact-name"]`: "Your name",
	} {
		if got := a.text(selector); !strings.HasPrefix(got, want) {
			t.Errorf("%s: %q, want %q", selector, got, want)
		}
	}
	for _, m := range []struct{ selector, attr, want string }{
		{`meta[name=description]`, "content", "Write to the Acme team."},
		{`meta[property="og:title"]`, "content", "Contact us"},
		{`meta[property="og:description"]`, "content", "Write to the Acme team."},
		{`link[rel=icon]`, "href", "/f/favicon.svg"},
		{`form[data-hubform-form]`, "action", "/hubform/acme/contact/submit"},
		{`form[data-hubform-form]`, "enctype", "multipart/form-data"},
		{`script[data-hubform-loader]`, "data-js", "/hubform/static/hubform.js"},
		{`script[data-hubform-loader]`, "data-htmx", "/hubform/static/htmx.min.js"},
		{`meta[name=viewport]`, "content", "width=device-width, initial-scale=1"},
	} {
		if got := a.attr(m.selector, m.attr); !strings.HasPrefix(got, m.want) {
			t.Errorf("%s %s = %q, want %q", m.selector, m.attr, got, m.want)
		}
	}
	if a.doc.Find("style[data-hubform-styles]").Length() != 1 {
		t.Error("the page does not carry hubform.css")
	}
	// The form's title is the page's one heading of the first level.
	if h1 := a.doc.Find("h1"); h1.Length() != 1 || h1.Text() != "Contact us" {
		t.Errorf("h1: %d, %q", h1.Length(), h1.Text())
	}
	// Attributes of one's own are data-*, htmx's too.
	a.doc.Find("*").Each(func(_ int, el *goquery.Selection) {
		for _, at := range el.Nodes[0].Attr {
			if strings.HasPrefix(at.Key, "hx-") {
				t.Errorf("<%s %s> is not HTML", goquery.NodeName(el), at.Key)
			}
		}
	})

	csp := a.header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "form-action 'self'", "object-src 'none'", "base-uri 'none'",
		"frame-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe") || strings.Contains(csp, "cloudflare") || strings.Contains(csp, "google") {
		t.Errorf("policy %q allows more than the page needs", csp)
	}
	m := nonceOf.FindStringSubmatch(csp)
	if m == nil {
		t.Fatalf("policy %q names no script nonce", csp)
	}
	if !strings.Contains(csp, "style-src 'self' 'nonce-"+m[1]+"'") {
		t.Errorf("policy %q: styles not allowed by the scripts' nonce", csp)
	}
	// Every inline element carries the nonce, and htmx is told it for the
	// style it adds.
	a.doc.Find("style, script").Each(func(_ int, el *goquery.Selection) {
		if n, _ := el.Attr("nonce"); n != m[1] {
			t.Errorf("<%s> without the policy's nonce (%q)", goquery.NodeName(el), n)
		}
	})
	if got := a.attr(`meta[name=htmx-config]`, "content"); got != `{"inlineStyleNonce":"`+m[1]+`"}` {
		t.Errorf("htmx-config %q", got)
	}
	if again := nonceOf.FindStringSubmatch(h.get("/f/acme/contact").header.Get("Content-Security-Policy")); again == nil || again[1] == m[1] {
		t.Error("two answers share a nonce")
	}
	for name, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "Referrer-Policy": "strict-origin-when-cross-origin",
		"Cache-Control": "no-store", "Content-Type": "text/html; charset=utf-8",
	} {
		if got := a.header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	if !slices.Contains(a.header.Values("Vary"), "Accept-Language") {
		t.Errorf("Vary %q lacks Accept-Language", a.header.Values("Vary"))
	}

	// Compressed for a browser that accepts it.
	req, _ := http.NewRequest(http.MethodGet, h.Server.URL+"/f/acme/contact", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	if res, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		res.Body.Close()
		if res.Header.Get("Content-Encoding") != "gzip" || !slices.Contains(res.Header.Values("Vary"), "Accept-Encoding") {
			t.Errorf("asked for gzip: Content-Encoding %q, Vary %q", res.Header.Get("Content-Encoding"), res.Header.Values("Vary"))
		}
	}

	icon := h.get("/f/favicon.svg")
	if icon.status != http.StatusOK || icon.header.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(icon.body, "<svg") {
		t.Errorf("icon: %d %q %.40q", icon.status, icon.header.Get("Content-Type"), icon.body)
	}
	// The scripts the loader adds are served.
	for _, path := range []string{a.attr(`script[data-hubform-loader]`, "data-js"), a.attr(`script[data-hubform-loader]`, "data-htmx")} {
		if s := h.get(path); s.status != http.StatusOK || !strings.Contains(s.header.Get("Content-Type"), "javascript") {
			t.Errorf("GET %s: %d %q", path, s.status, s.header.Get("Content-Type"))
		}
	}
}

// TestPageDescription checks the description of a form that has none of
// its own: a sentence with its title.
func TestPageDescription(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	a := h.get("/f/acme/newsletter")
	if a.status != http.StatusOK {
		t.Fatalf("status %d", a.status)
	}
	want := "Fill in and send the form “Newsletter”."
	if got := a.attr(`meta[name=description]`, "content"); got != want {
		t.Errorf("description %q, want %q", got, want)
	}
	if got := a.attr(`meta[property="og:title"]`, "content"); got != "Newsletter" {
		t.Errorf("og:title %q", got)
	}
}

// TestPagePolicyCaptcha checks that the policy lets the captcha provider a
// form uses, and that one alone, load its script and frame.
func TestPagePolicyCaptcha(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	for _, tt := range []struct {
		form, scripts, frames string
	}{
		{"turnstile", "https://challenges.cloudflare.com", "https://challenges.cloudflare.com"},
		{"recaptcha", "https://www.google.com https://www.gstatic.com", "https://www.google.com https://recaptcha.google.com"},
		{"newsletter", "", "'none'"},
	} {
		a := h.get("/f/acme/" + tt.form)
		if a.status != http.StatusOK {
			t.Errorf("%s: status %d", tt.form, a.status)
		}
		d := directives(a.header.Get("Content-Security-Policy"))
		nonce := strings.TrimPrefix(strings.Fields(d["style-src"])[1], "'nonce-")
		if want := strings.TrimSpace("'self' 'nonce-" + nonce + " " + tt.scripts); d["script-src"] != want {
			t.Errorf("%s: script-src %q, want %q", tt.form, d["script-src"], want)
		}
		if d["frame-src"] != tt.frames {
			t.Errorf("%s: frame-src %q, want %q", tt.form, d["frame-src"], tt.frames)
		}
	}
}

// TestPageFraming checks who may show a form's page in a frame: any site
// by default, whatever origins may call the form's routes (the contact
// form lists one), so that the frame the Share tab offers works on the
// owner's site at once; the hub and the sites of embedOrigins alone when
// the form lists some. The hub sets no X-Frame-Options, which would
// override neither way but confuse the reader.
func TestPageFraming(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	for _, tt := range []struct{ form, want string }{
		{"contact", "*"},
		{"newsletter", "*"},
		{"embed", "'self' https://www.acme.example https://shop.acme.example:8443"},
	} {
		a := h.get("/f/acme/" + tt.form)
		if a.status != http.StatusOK {
			t.Errorf("%s: status %d", tt.form, a.status)
		}
		if got := directives(a.header.Get("Content-Security-Policy"))["frame-ancestors"]; got != tt.want {
			t.Errorf("%s: frame-ancestors %q, want %q", tt.form, got, tt.want)
		}
		if got := a.header.Get("X-Frame-Options"); got != "" {
			t.Errorf("%s: X-Frame-Options %q", tt.form, got)
		}
	}
}

// directives returns a policy's directives by name.
func directives(policy string) map[string]string {
	out := map[string]string{}
	for _, d := range strings.Split(policy, ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		out[name] = value
	}
	return out
}

// TestPageNotFound checks that a form without a page answers 404 with a
// short page for people, whatever the reason: no such form, a name that
// cannot be one, a form saved but never published, a form whose page its
// owner turned off. The last still serves its schema.
func TestPageNotFound(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	ctx := context.Background()
	body := []byte(`{"title": "Draft", "fields": [{"name": "a", "type": "text"}], "steps": [{"id": "s", "fields": ["a"]}]}`)
	if _, err := h.DB.SaveFormVersion(ctx, "acme", "draft", body, "test", time.Now()); err != nil {
		t.Fatal(err)
	}
	host := strings.TrimPrefix(h.Server.URL, "http://")
	_, port, _ := net.SplitHostPort(host)
	for _, path := range []string{"/f/acme/missing", "/f/nobody/contact", "/f/acme/draft", "/f/acme/off", "/f/acme/..%2fcontact", "/f/_x/contact"} {
		a := h.get(path)
		if a.status != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", path, a.status)
			continue
		}
		if got := a.text("h1"); got != "Form not found" {
			t.Errorf("GET %s: heading %q", path, got)
		}
		for _, leak := range []string{"127.0.0.1", port, "error", "hostedPage", "not found:", "acme"} {
			if strings.Contains(a.text("main"), leak) {
				t.Errorf("GET %s tells the visitor %q: %q", path, leak, a.text("main"))
			}
		}
		if a.header.Get("Content-Security-Policy") == "" || a.header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: headers %v", path, a.header)
		}
	}
	// The routes the page would post to are closed to a form without a
	// page as well.
	if a := h.post("/hubform/acme/off/submit", url.Values{"name": {"Jo"}}); a.status != http.StatusNotFound {
		t.Errorf("post to a form whose page is off: %d, want 404", a.status)
	}
	if a := h.get("/hubform/acme/off"); a.status != http.StatusNotFound {
		t.Errorf("load route of a form whose page is off: %d, want 404", a.status)
	}
	if n := len(h.Submissions()); n != 0 {
		t.Errorf("%d submissions stored", n)
	}
	// Its schema is served as before, and so is the draft's page once
	// published.
	if a := h.get("/v1/acme/off.json"); a.status != http.StatusOK || !strings.Contains(a.body, `"Internal"`) {
		t.Errorf("schema of a form whose page is off: %d %s", a.status, a.body)
	}
	if err := h.DB.PublishFormVersion(ctx, "acme", "draft", 1, time.Now()); err != nil {
		t.Fatal(err)
	}
	if a := h.get("/f/acme/draft"); a.status != http.StatusOK || a.text("title") != "Draft" {
		t.Errorf("published draft: %d %q", a.status, a.text("title"))
	}
}

// TestPageFollowsPublish checks that a version published in the database
// shows on the page within moments, without a restart.
func TestPageFollowsPublish(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	ctx := context.Background()
	version := func(title string) []byte {
		return []byte(`{"title": "` + title + `", "fields": [{"name": "a", "type": "text", "label": "A"}], "steps": [{"id": "s", "fields": ["a"]}]}`)
	}
	for n, title := range []string{"First", "Second"} {
		if _, err := h.DB.SaveFormVersion(ctx, "acme", "news", version(title), "test", time.Now()); err != nil {
			t.Fatal(err)
		}
		if err := h.DB.PublishFormVersion(ctx, "acme", "news", int64(n+1), time.Now()); err != nil {
			t.Fatal(err)
		}
		// The page's schema is fetched again behind a page once it is a
		// second old: a later page shows the new version.
		deadline := time.Now().Add(10 * time.Second)
		for h.get("/f/acme/news").text("title") != title {
			if time.Now().After(deadline) {
				t.Fatalf("the page does not show version %d, %q", n+1, title)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}

// TestPageUnavailable checks a form whose file does not validate: a page
// that says so in a sentence, the cause in the log alone.
func TestPageUnavailable(t *testing.T) {
	t.Parallel()
	files := testForms()
	files["acme/broken"] = `{"fields": [{"name": "a", "type": "nonsense"}], "steps": [{"id": "s", "fields": ["a"]}]}`
	h := startHub(t, files)
	a := h.get("/f/acme/broken")
	if a.status != http.StatusInternalServerError || a.text("h1") != "Form unavailable" || strings.Contains(a.body, "nonsense") {
		t.Errorf("status %d, page %q", a.status, a.text("main"))
	}
	said := false
	for _, line := range strings.Split(h.Log.String(), "\n") {
		said = said || strings.Contains(line, "page cannot be shown") && strings.Contains(line, "/f/acme/broken") && strings.Contains(line, "nonsense")
	}
	if !said {
		t.Errorf("the log does not say which page failed, and why:\n%s", h.Log)
	}
}

// TestPageLocale checks the page's language: the query's locale first,
// then the browser's Accept-Language, matched against the form's
// translations; a post goes on in the same language.
func TestPageLocale(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	for _, tt := range []struct {
		query, accept     string
		title, lang, name string
	}{
		{"", "", "Contact us", "en", "Your name"},
		{"?locale=de", "", "Kontakt", "de", "Ihr Name"},
		{"", "de-AT,de;q=0.9,en;q=0.5", "Kontakt", "de", "Ihr Name"},
		{"", "ja,fr-CA;q=0.8", "Écrivez-nous", "fr", "Your name"},
		{"", "en-GB,de;q=0.9", "Contact us", "en", "Your name"},
		{"", "ja", "Contact us", "en", "Your name"},
		{"?locale=fr", "de", "Écrivez-nous", "fr", "Your name"},
	} {
		headers := []string{}
		if tt.accept != "" {
			headers = append(headers, "Accept-Language: "+tt.accept)
		}
		a := h.get("/f/acme/contact"+tt.query, headers...)
		got := []string{a.text("title"), a.attr("html", "lang"), a.text(`label[for="hubform-acme-contact-name"]`)}
		if want := []string{tt.title, tt.lang, tt.name}; !strings.HasPrefix(got[2], want[2]) || got[0] != want[0] || got[1] != want[1] {
			t.Errorf("%q, Accept-Language %q: title, lang, label %q; want %q", tt.query, tt.accept, got, want)
		}
		action := a.attr("form[data-hubform-form]", "action")
		if tt.lang != "en" && !strings.HasSuffix(action, "?locale="+tt.lang) {
			t.Errorf("%q, Accept-Language %q: the form posts to %q, without its locale", tt.query, tt.accept, action)
		}
	}
	// A post without JavaScript is answered in the form's language.
	a := h.post("/hubform/acme/contact/submit?locale=de", url.Values{"email": {"jo@example.com"}})
	if a.status != http.StatusUnprocessableEntity || a.attr("html", "lang") != "de" || a.text("title") != "Kontakt" {
		t.Errorf("post in German: %d, lang %q, title %q", a.status, a.attr("html", "lang"), a.text("title"))
	}
	if got := a.attr(`meta[name=description]`, "content"); got != "Schreiben Sie uns." {
		t.Errorf("description after the post %q", got)
	}
}

// TestPostWithoutJavaScript posts the form as a browser without
// JavaScript does: a missing value comes back as the whole page with the
// field's error and the values kept; a complete post is stored by the hub
// and answered with the thank-you page.
func TestPostWithoutJavaScript(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	page := h.get("/f/acme/contact")
	action := page.attr("form[data-hubform-form]", "action")
	key := page.attr(`input[name="_idempotencyKey"]`, "value")
	if key == "" {
		t.Fatal("the form carries no submission key")
	}

	a := h.post(action, url.Values{"email": {"jo@example.com"}, "_idempotencyKey": {key}, "_hp": {""}})
	if a.status != http.StatusUnprocessableEntity {
		t.Fatalf("incomplete post: %d, want 422", a.status)
	}
	if got := a.text("#hubform-acme-contact-name-error"); !strings.Contains(got, "required") {
		t.Errorf("name's error %q", got)
	}
	if got := a.attr("#hubform-acme-contact-email", "value"); got != "jo@example.com" {
		t.Errorf("email after the error %q", got)
	}
	if a.text("title") != "Contact us" || a.attr(`link[rel=icon]`, "href") == "" || a.header.Get("Content-Security-Policy") == "" {
		t.Errorf("the answer is not the form's page: title %q, headers %v", a.text("title"), a.header)
	}
	if n := len(h.Submissions()); n != 0 {
		t.Fatalf("%d submissions stored after an incomplete post", n)
	}

	a = h.post(action, url.Values{"name": {"Jo"}, "email": {"jo@example.com"}, "message": {"Hello"}, "_idempotencyKey": {key}, "_hp": {""}})
	if a.status != http.StatusOK || a.doc.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("complete post: %d\n%s", a.status, a.body)
	}
	if a.text("title") != "Contact us" {
		t.Errorf("thank-you page's title %q", a.text("title"))
	}
	subs := h.Submissions()
	if len(subs) != 1 || subs[0].Site != "acme" || subs[0].Slug != "contact" || subs[0].IdempotencyKey != key {
		t.Fatalf("stored %+v", subs)
	}
	if p := payload(t, subs[0]); p["name"] != "Jo" || p["email"] != "jo@example.com" || p["message"] != "Hello" {
		t.Errorf("payload %v", p)
	}

	// With htmx the same route answers the panel alone.
	a = h.post(action, url.Values{"name": {"Ann"}, "email": {"ann@example.com"}}, "HX-Request: true")
	if a.status != http.StatusOK || strings.Contains(a.body, "<html") || a.doc.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Errorf("htmx post: %d\n%s", a.status, a.body)
	}
	if n := len(h.Submissions()); n != 2 {
		t.Errorf("%d submissions stored, want 2", n)
	}
}

// TestPostFile posts a form with two files: the hub stores both, byte for
// byte, uploaded in process through its own signed URLs.
func TestPostFile(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	big := bytes.Repeat([]byte("hubform "), 300_000) // 2.4 MB, beyond the handlers' memory
	files := map[string][]byte{"notes.txt": []byte("Some notes.\n"), "big.txt": big}
	a := h.postFiles("/hubform/acme/contact/submit", url.Values{"name": {"Jo"}, "email": {"jo@example.com"}},
		map[string]map[string][]byte{"files": files})
	if a.status != http.StatusOK || a.doc.Find("[data-vendor-hubform-submitted]").Length() != 1 {
		t.Fatalf("post: %d\n%s\nlog:\n%s", a.status, a.text("main"), h.Log)
	}
	subs := h.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 2 {
		t.Fatalf("stored %+v", subs)
	}
	for _, att := range subs[0].Attachments {
		want, ok := files[att.Filename]
		if !ok || att.Field != "files" || !bytes.Equal(h.File(att.Key), want) {
			t.Errorf("attachment %+v: %d bytes stored, want the %d of %s", att, len(h.File(att.Key)), len(want), att.Filename)
		}
	}
}

// TestVisitorAddress checks that the hub sees the visitor who posts to a
// form's page, not itself: the stored submission and the captcha check
// name the visitor's address, rate limits count each visitor apart, and a
// visitor's own X-Forwarded-For changes nothing.
func TestVisitorAddress(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms(), func(c *protocol.Config) { c.RateLimit = 2 })
	post := func(visitor, form string, values url.Values, headers ...string) *answer {
		t.Helper()
		return h.post("/hubform/acme/"+form+"/submit", values, append(headers, visitorHeader+": "+visitor)...)
	}
	a := post("203.0.113.7", "turnstile", url.Values{"name": {"Jo"}, "cf-turnstile-response": {"good"}}, "X-Forwarded-For: 198.51.100.66")
	if a.status != http.StatusOK {
		t.Fatalf("post with a captcha: %d\n%s", a.status, a.body)
	}
	calls := h.captcha.requests()
	if len(calls) != 1 || calls[0].Token != "good" || calls[0].RemoteIP != "203.0.113.7" {
		t.Errorf("captcha verified %+v, want the token of 203.0.113.7", calls)
	}
	subs := h.Submissions()
	if len(subs) != 1 || subs[0].ClientAddr != "203.0.113.7" {
		t.Fatalf("stored %+v, want one from 203.0.113.7", subs)
	}

	// 203.0.113.7 made one submit; one more is within its 2 a minute, the
	// next is not. Another visitor's budget is whole.
	if a := post("203.0.113.7", "newsletter", url.Values{"email": {"a@example.com"}}); a.status != http.StatusOK {
		t.Fatalf("second post: %d", a.status)
	}
	a = post("203.0.113.7", "newsletter", url.Values{"email": {"b@example.com"}})
	if a.status == http.StatusOK || !strings.Contains(a.text("[data-hubform-submit-error]"), "Too many attempts") {
		t.Errorf("third post of one visitor within a minute: %d, %q", a.status, a.text("[data-hubform-submit-error]"))
	}
	if a := post("2001:db8::5", "newsletter", url.Values{"email": {"c@example.com"}}); a.status != http.StatusOK {
		t.Errorf("another visitor's post: %d, %q", a.status, a.text("[data-hubform-submit-error]"))
	}
	subs = h.Submissions()
	if len(subs) != 3 || subs[1].ClientAddr != "203.0.113.7" || subs[2].ClientAddr != "2001:db8::5" {
		t.Errorf("stored from %v", clientAddrs(subs))
	}
}

// TestVisitorBehindProxy checks a hub behind a proxy it trusts: the
// visitor is the address the proxy names, and reaches the hub's check
// through the page's post.
func TestVisitorBehindProxy(t *testing.T) {
	t.Parallel()
	_, loopback, _ := net.ParseCIDR("127.0.0.0/8")
	h := startHub(t, testForms(), func(c *protocol.Config) { c.TrustedProxies = []*net.IPNet{loopback} })
	a := h.post("/hubform/acme/newsletter/submit", url.Values{"email": {"jo@example.com"}}, "X-Forwarded-For: 192.0.2.44")
	if a.status != http.StatusOK {
		t.Fatalf("post: %d", a.status)
	}
	if subs := h.Submissions(); len(subs) != 1 || subs[0].ClientAddr != "192.0.2.44" {
		t.Errorf("stored from %v, want 192.0.2.44", clientAddrs(subs))
	}
}

func clientAddrs(subs []hub.Submission) []string {
	var out []string
	for _, s := range subs {
		out = append(out, s.ClientAddr)
	}
	return out
}
