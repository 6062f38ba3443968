package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/testkit"
	"github.com/hubform/hubform/hubclient"
)

// The forms every harness serves, as DIR/acme/<slug>.json.
const (
	// contactForm has a field of every type but file, and a honeypot.
	contactForm = `{
  "title": "Contact",
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "required": true},
    {"name": "email", "type": "email", "required": true},
    {"name": "phone", "type": "tel"},
    {"name": "website", "type": "url"},
    {"name": "age", "type": "number"},
    {"name": "message", "type": "textarea"},
    {"name": "color", "type": "select", "options": [{"value": "red", "label": "Red"}, {"value": "green"}]},
    {"name": "size", "type": "radio", "options": [{"value": "s"}, {"value": "m"}]},
    {"name": "toppings", "type": "checkboxes", "options": [{"value": "ham"}, {"value": "egg"}]},
    {"name": "agree", "type": "checkbox"},
    {"name": "born", "type": "date"},
    {"name": "ref", "type": "hidden"},
    {"name": "_hp", "type": "text"}
  ],
  "steps": [{"id": "main", "fields": ["name", "email", "phone", "website", "age", "message", "color", "size", "toppings", "agree", "born", "_hp"]}]
}`
	// applyForm takes files: one required cv, several photos.
	applyForm = `{
  "fields": [
    {"name": "name", "type": "text"},
    {"name": "cv", "type": "file", "required": true},
    {"name": "photos", "type": "file", "multiple": true}
  ],
  "steps": [{"id": "main", "fields": ["name", "cv", "photos"]}],
  "hub": {"maxFileSize": 1024, "maxFiles": 3, "allowedTypes": ["application/pdf", "image/*"]}
}`
	// logicForm has rules and conditions: "other" reveals a required text,
	// a box makes the email required, a step is for companies only.
	logicForm = `{
  "fields": [
    {"name": "source", "type": "select", "options": ["web", "other"]},
    {"name": "sourceOther", "type": "text", "required": true, "minLength": 3,
     "messages": {"minLength": "Say a bit more: {limit} letters at least."},
     "visibleIf": {"==": [{"var": "source"}, "other"]}},
    {"name": "news", "type": "checkbox"},
    {"name": "email", "type": "email", "requiredIf": {"var": "news"}},
    {"name": "code", "type": "text", "pattern": "[A-Z]{2}[0-9]{3}"},
    {"name": "guests", "type": "number", "min": 1, "max": 8, "step": 1},
    {"name": "day", "type": "date", "min": "2026-01-01"},
    {"name": "extras", "type": "checkboxes", "options": ["a", "b", "c"], "maxItems": 2},
    {"name": "company", "type": "text", "required": true},
    {"name": "logo", "type": "file"}
  ],
  "steps": [
    {"id": "main", "fields": ["source", "sourceOther", "news", "email", "code", "guests", "day", "extras"]},
    {"id": "firm", "fields": ["company", "logo"], "visibleIf": {"==": [{"var": "source"}, "web"]}}
  ]
}`
	// otherForm is a second form taking files, for uploads of another form.
	otherForm = `{
  "fields": [{"name": "cv", "type": "file"}],
  "steps": [{"id": "main", "fields": ["cv"]}]
}`
	// corsForm may be used from one origin only.
	corsForm = `{
  "fields": [{"name": "name", "type": "text"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "hub": {"allowedOrigins": ["https://ok.example"]}
}`
	// turnstileForm names its own captcha secret.
	turnstileForm = `{
  "fields": [{"name": "name", "type": "text"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"},
  "hub": {"captchaSecret": "form-secret"}
}`
	// turnstileDefaultForm relies on Config.CaptchaSecrets.
	turnstileDefaultForm = `{
  "fields": [{"name": "name", "type": "text"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "site-key"}
}`
	// recaptchaForm wants a reCAPTCHA v3 score of 0.7.
	recaptchaForm = `{
  "fields": [{"name": "name", "type": "text"}],
  "steps": [{"id": "main", "fields": ["name"]}],
  "meta": {"captchaProvider": "recaptcha-v3", "captchaSiteKey": "site-key"},
  "hub": {"captchaSecret": "recaptcha-secret", "recaptchaMinScore": 0.7}
}`
)

var testForms = map[string]string{
	"contact":           contactForm,
	"apply":             applyForm,
	"other":             otherForm,
	"logic":             logicForm,
	"cors":              corsForm,
	"turnstile":         turnstileForm,
	"turnstile-default": turnstileDefaultForm,
	"recaptcha":         recaptchaForm,
}

// harness is a hub of hubtest serving testForms for site "acme" on a
// settable clock, with a client of it.
type harness struct {
	*hubtest.Hub
	t      *testing.T
	clock  *testkit.Clock
	client *hubclient.Client
}

// newHarness serves testForms for site "acme" from a hub whose Config the
// options may change. The clock starts at the present.
func newHarness(t *testing.T, options ...func(*protocol.Config)) *harness {
	t.Helper()
	return newHarnessWithForms(t, nil, options...)
}

// newHarnessWithForms is newHarness that first calls prepare with the
// forms directory, for tests that lay out files of their own.
func newHarnessWithForms(t *testing.T, prepare func(dir string), options ...func(*protocol.Config)) *harness {
	t.Helper()
	forms := make(map[string]string, len(testForms))
	for slug, form := range testForms {
		forms["acme/"+slug] = form
	}
	h := &harness{Hub: hubtest.NewUnstarted(t, forms), t: t, clock: testkit.NewClock(time.Now())}
	if prepare != nil {
		prepare(h.FormsDir)
	}
	h.Start(append([]func(*protocol.Config){func(c *protocol.Config) { c.Now = h.clock.Now }}, options...)...)
	h.client = &hubclient.Client{HubURL: h.URL, UserAgent: "hub-test/1"}
	return h
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

// do sends a request with the given headers ("Name: value") and body to
// the hub; target is a path below the server's root, sent as is.
func (h *harness) do(method, target, body string, headers ...string) *response {
	h.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, h.Server.URL+target, r)
	if err != nil {
		h.t.Fatal(err)
	}
	for _, hv := range headers {
		name, value, ok := strings.Cut(hv, ":")
		if !ok {
			h.t.Fatalf("header %q: want Name: value", hv)
		}
		req.Header.Set(name, strings.TrimSpace(value))
	}
	return send(h.t, req)
}

func send(t *testing.T, req *http.Request) *response {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("%s %s: reading the answer: %v", req.Method, req.URL, err)
	}
	return &response{status: res.StatusCode, header: res.Header, body: data}
}

// postJSON posts v, encoded as JSON, to target.
func (h *harness) postJSON(target string, v any, headers ...string) *response {
	h.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.do(http.MethodPost, target, string(data), append([]string{"Content-Type: application/json"}, headers...)...)
}

// submit posts a submit body to form slug of site acme.
func (h *harness) submit(slug string, body any, headers ...string) *response {
	h.t.Helper()
	return h.postJSON("/v1/acme/"+slug+"/submit", body, headers...)
}

// wantStatus fails the test unless res has the status.
func (res *response) wantStatus(t *testing.T, want int) {
	t.Helper()
	if res.status != want {
		t.Fatalf("status %d, want %d; body %s", res.status, want, res.body)
	}
}

// answer decodes a JSON answer of the hub's shape {ok, error, fields},
// failing the test when it is something else.
func (res *response) answer(t *testing.T) hubclient.SubmitResponse {
	t.Helper()
	if ct := res.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q, want application/json; body %s", ct, res.body)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(res.body, &raw); err != nil {
		t.Fatalf("body %s is not a JSON object: %v", res.body, err)
	}
	if _, ok := raw["ok"]; !ok {
		t.Errorf("body %s has no member ok", res.body)
	}
	var a hubclient.SubmitResponse
	if err := json.Unmarshal(res.body, &a); err != nil {
		t.Fatalf("body %s: %v", res.body, err)
	}
	return a
}

// wantError checks that res is a refusal with status: JSON with ok false
// and an error message, which it returns.
func (res *response) wantError(t *testing.T, status int) hubclient.SubmitResponse {
	t.Helper()
	res.wantStatus(t, status)
	a := res.answer(t)
	if a.OK || a.Error == "" {
		t.Errorf("body %s, want ok false and an error message", res.body)
	}
	return a
}

// wantOK checks that res is a 200 JSON answer with ok true.
func (res *response) wantOK(t *testing.T) hubclient.SubmitResponse {
	t.Helper()
	res.wantStatus(t, http.StatusOK)
	a := res.answer(t)
	if !a.OK {
		t.Errorf("body %s, want ok true", res.body)
	}
	return a
}

// count returns the number of submissions stored.
func (h *harness) count() int {
	h.t.Helper()
	n, err := h.DB.CountSubmissions(context.Background(), hub.Filter{})
	if err != nil {
		h.t.Fatal(err)
	}
	return n
}

// wantCount fails the test unless n submissions are stored.
func (h *harness) wantCount(want int) {
	h.t.Helper()
	if got := h.count(); got != want {
		h.t.Errorf("%d submissions stored, want %d", got, want)
	}
}

// uploadURL asks form slug for an upload URL and expects success.
func (h *harness) uploadURL(slug, filename, mime string, size int64) hubclient.UploadURLResponse {
	h.t.Helper()
	res := h.postJSON("/v1/acme/"+slug+"/upload-url", hubclient.UploadURLRequest{Filename: filename, Size: size, MIME: mime})
	res.wantStatus(h.t, http.StatusOK)
	var u hubclient.UploadURLResponse
	if err := json.Unmarshal(res.body, &u); err != nil {
		h.t.Fatalf("upload-url answer %s: %v", res.body, err)
	}
	return u
}

// put sends body to a signed URL with the given Content-Type.
func (h *harness) put(uploadURL, contentType string, body []byte) *response {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPut, uploadURL, bytes.NewReader(body))
	if err != nil {
		h.t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return send(h.t, req)
}

// upload signs and PUTs a file to form slug and returns its attachment.
func (h *harness) upload(slug, field, filename, mime string, body []byte) hubclient.Attachment {
	h.t.Helper()
	u := h.uploadURL(slug, filename, mime, int64(len(body)))
	h.put(u.UploadURL, mime, body).wantStatus(h.t, http.StatusOK)
	return hubclient.Attachment{Key: u.Key, Filename: filename, Size: int64(len(body)), MIME: mime, Field: field}
}

// wantNoUploads fails the test if any upload is recorded.
func (h *harness) wantNoUploads() {
	h.t.Helper()
	left, err := h.DB.StaleUploads(context.Background(), time.Now().Add(24*time.Hour), 10)
	if err != nil || len(left) != 0 {
		h.t.Errorf("uploads recorded: %+v (%v), want none", left, err)
	}
}

// wantNoFile fails the test if an object is stored under key.
func (h *harness) wantNoFile(key string) {
	h.t.Helper()
	if _, _, err := h.Blobs.Attributes(context.Background(), key); !errors.Is(err, hub.ErrNotFound) {
		h.t.Errorf("Attributes(%s) error %v, want hub.ErrNotFound", key, err)
	}
}

// siteverify is a stand-in for a captcha provider's siteverify endpoint.
type siteverify struct {
	srv *httptest.Server

	mu       sync.Mutex
	answer   string // the JSON answered
	status   int    // the status answered; zero means 200
	requests []url.Values
}

func newSiteverify(t *testing.T, answer string) *siteverify {
	t.Helper()
	sv := &siteverify{answer: answer}
	sv.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		sv.mu.Lock()
		sv.requests = append(sv.requests, r.PostForm)
		answer, status := sv.answer, sv.status
		sv.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
		}
		io.WriteString(w, answer)
	}))
	t.Cleanup(sv.srv.Close)
	return sv
}

func (sv *siteverify) received() []url.Values {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return append([]url.Values(nil), sv.requests...)
}

// withCaptcha makes the hub verify captchas with endpoint for both
// providers.
func withCaptcha(endpoint string) func(*protocol.Config) {
	return func(c *protocol.Config) {
		c.Captcha = &captcha.Verifier{TurnstileURL: endpoint, RecaptchaURL: endpoint}
	}
}

// closedURL returns the URL of a port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/siteverify"
}

// fileOf returns a file for hubclient with the given body.
func fileOf(name, mime string, body []byte) hubclient.File {
	return hubclient.NewFile(name, mime, int64(len(body)), func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(body)), nil
	})
}
