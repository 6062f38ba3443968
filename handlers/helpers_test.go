package handlers_test

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/a-h/templ"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/handlers/hub/hubtest"
)

const contactForm = `{
  "title": "Contact us",
  "fields": [
    {"name": "name", "type": "text", "label": "Your name", "required": true},
    {"name": "email", "type": "email", "label": "Email", "required": true},
    {"name": "age", "type": "number", "label": "Age"},
    {"name": "topics", "type": "checkboxes", "label": "Topics", "options": ["sales", "support"]},
    {"name": "agree", "type": "checkbox", "label": "I agree"},
    {"name": "files", "type": "file", "label": "Attachments", "multiple": true},
    {"name": "_hp", "type": "text", "label": "Leave this empty"}
  ],
  "steps": [{"id": "all", "fields": ["name", "email", "age", "topics", "agree", "files", "_hp"]}],
  "i18n": {"translations": {"de": {"title": "Kontakt", "fields": {"name": {"label": "Ihr Name"}}, "texts": {"required": "Pflichtfeld."}}}},
  "submit": {"url": "https://elsewhere.example/collect"},
  "hub": {"maxFileSize": 134217728}
}`

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// calls records the handler's callbacks.
type calls struct {
	mu        sync.Mutex
	successes []map[string]any
	errors    []error
}

func (c *calls) config(cfg *handlers.Config) {
	cfg.OnSuccess = func(_ context.Context, _ handlers.Form, values map[string]any) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.successes = append(c.successes, values)
	}
	cfg.OnError = func(_ context.Context, _ handlers.Form, err error) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.errors = append(c.errors, err)
	}
}

func (c *calls) counts() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.successes), len(c.errors)
}

// app serves a Handler for a hub holding the contact form.
type app struct {
	hub   *hubtest.Hub
	h     *handlers.Handler
	srv   *httptest.Server
	calls *calls
}

func newApp(t *testing.T, configure ...func(*handlers.Config)) *app {
	t.Helper()
	a := &app{hub: hubtest.Start(t, map[string]string{"acme/contact": contactForm, "acme/empty": `{"fields":[],"steps":[]}`}), calls: &calls{}}
	cfg := handlers.Config{HubURL: a.hub.URL, Logger: quiet}
	a.calls.config(&cfg)
	for _, c := range configure {
		c(&cfg)
	}
	a.h = handlers.New(cfg)
	a.srv = httptest.NewServer(a.h)
	t.Cleanup(a.srv.Close)
	return a
}

// part is one part of a multipart post: a value, or a file when filename
// is set.
// part is one part of a multipart post: a file when filename is set, of
// type mime (application/octet-stream when empty).
type part struct{ name, value, filename, mime string }

func multipartBody(t *testing.T, parts ...part) (io.Reader, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, p := range parts {
		if p.filename != "" {
			h := textproto.MIMEHeader{}
			h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, p.name, p.filename))
			h.Set("Content-Type", cmp.Or(p.mime, "application/octet-stream"))
			fw, _ := w.CreatePart(h)
			io.WriteString(fw, p.value)
		} else {
			w.WriteField(p.name, p.value)
		}
	}
	w.Close()
	return &buf, w.FormDataContentType()
}

// post and get send a request, htmx setting HX-Request as htmx does, and
// parse the answer.
func (a *app) post(t *testing.T, target string, htmx bool, parts ...part) (*http.Response, *goquery.Document) {
	t.Helper()
	res, html := a.postHTML(t, target, htmx, parts...)
	return res, parse(t, html)
}

func (a *app) get(t *testing.T, target string, htmx bool) (*http.Response, *goquery.Document) {
	t.Helper()
	res, html := a.getHTML(t, target, htmx)
	return res, parse(t, html)
}

func text(doc *goquery.Document, selector string) string {
	return strings.Join(strings.Fields(doc.Find(selector).Text()), " ")
}

// wholePage reports whether doc is a page rather than a fragment: only
// pages carry the form's stylesheet.
func wholePage(doc *goquery.Document) bool {
	return doc.Find("head style[data-hubform-styles]").Length() > 0
}

// getHTML and postHTML are get and post returning the body as it came.
func (a *app) getHTML(t *testing.T, target string, htmx bool) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL+target, nil)
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	return doHTML(t, req)
}

func (a *app) postHTML(t *testing.T, target string, htmx bool, parts ...part) (*http.Response, string) {
	t.Helper()
	body, contentType := multipartBody(t, parts...)
	req, _ := http.NewRequest(http.MethodPost, a.srv.URL+target, body)
	req.Header.Set("Content-Type", contentType)
	if htmx {
		req.Header.Set("HX-Request", "true")
	}
	return doHTML(t, req)
}

func doHTML(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(body)
}

func parse(t *testing.T, html string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(html))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func render(t *testing.T, c templ.Component) string {
	t.Helper()
	var b strings.Builder
	if err := c.Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
