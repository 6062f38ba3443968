package protocol_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/hubclient"
)

// richForm uses many members of a schema, so that serving it exactly shows.
const richForm = `{
  "title": "Rich",
  "description": "Every kind of member",
  "fields": [
    {"name": "name", "type": "text", "label": "Name", "placeholder": "Jane", "help": "Your name", "required": true, "x-width": 6},
    {"name": "color", "type": "select", "options": [{"value": "red", "label": "Red"}, {"value": "blue", "label": "Blue"}]},
    {"name": "cv", "type": "file", "accept": "application/pdf"}
  ],
  "steps": [{"id": "one", "title": "First", "fields": ["name", "color", "cv"]}],
  "buttons": {"submit": "Send"},
  "meta": {"captchaProvider": "turnstile", "captchaSiteKey": "public-site-key"},
  "i18n": {"translations": {"de": {"fields": {"name": {"label": "Name"}}}}},
  "submit": {"type": "ignored"},
  "x-extra": {"kept": [1, 2, 3]},
  "hub": {"captchaSecret": "top-secret-value", "maxFileSize": 4096, "allowedOrigins": ["https://ok.example"]}
}`

func TestSchema(t *testing.T) {
	h := newHarness(t)
	h.WriteForm("acme", "rich", richForm)
	res := h.do(http.MethodGet, "/v1/acme/rich.json", "", "Accept: application/json")
	res.wantStatus(t, http.StatusOK)
	if ct := res.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	if cc := res.header.Get("Cache-Control"); cc != "no-cache" {
		t.Errorf("Cache-Control %q, want no-cache", cc)
	}
	if bytes.Contains(res.body, []byte("top-secret-value")) || bytes.Contains(res.body, []byte(`"hub"`)) {
		t.Errorf("schema %s reveals the server-only settings", res.body)
	}

	var got, want map[string]any
	if err := json.Unmarshal(res.body, &got); err != nil {
		t.Fatalf("schema %s: %v", res.body, err)
	}
	if err := json.Unmarshal([]byte(richForm), &want); err != nil {
		t.Fatal(err)
	}
	delete(want, "hub")
	if !reflect.DeepEqual(got, want) {
		t.Errorf("schema\n%s\nwant the file without its member hub:\n%s", res.body, mustJSON(t, want))
	}

	// The client reads it, too.
	s, err := h.client.Schema(context.Background(), "acme", "rich")
	if err != nil {
		t.Fatal(err)
	}
	if !s.Configured() || s.Meta.CaptchaSiteKey != "public-site-key" {
		t.Errorf("client read %+v", s)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSchemaETag(t *testing.T) {
	h := newHarness(t)
	res := h.do(http.MethodGet, "/v1/acme/contact.json", "")
	res.wantStatus(t, http.StatusOK)
	etag := res.header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	for _, match := range []string{etag, `"other", ` + etag, "W/" + etag, "*"} {
		res := h.do(http.MethodGet, "/v1/acme/contact.json", "", "If-None-Match: "+match)
		res.wantStatus(t, http.StatusNotModified)
		if len(res.body) != 0 {
			t.Errorf("If-None-Match %s: 304 with body %s", match, res.body)
		}
		if got := res.header.Get("ETag"); got != etag {
			t.Errorf("If-None-Match %s: 304 with ETag %q, want %q", match, got, etag)
		}
	}
	res = h.do(http.MethodGet, "/v1/acme/contact.json", "", `If-None-Match: "stale"`)
	res.wantStatus(t, http.StatusOK)
	if !bytes.Equal(res.body, h.do(http.MethodGet, "/v1/acme/contact.json", "").body) {
		t.Error("a stale ETag got another body")
	}
}

func TestSchemaEdited(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	first := h.do(http.MethodGet, "/v1/acme/contact.json", "")
	first.wantStatus(t, http.StatusOK)
	h.WriteForm("acme", "contact", strings.Replace(contactForm, `"title": "Contact"`, `"title": "Contact us, edited"`, 1))
	// The forms directory looks at a file at most once a second.
	time.Sleep(1100 * time.Millisecond)

	res := h.do(http.MethodGet, "/v1/acme/contact.json", "", "If-None-Match: "+first.header.Get("ETag"))
	res.wantStatus(t, http.StatusOK)
	if !bytes.Contains(res.body, []byte("Contact us, edited")) {
		t.Errorf("schema after the edit %s, want the new title", res.body)
	}
	if res.header.Get("ETag") == first.header.Get("ETag") {
		t.Errorf("ETag %s unchanged by the edit", res.header.Get("ETag"))
	}
}

func TestSchemaNotFound(t *testing.T) {
	h := newHarness(t)
	for _, target := range []string{"/v1/acme/nope.json", "/v1/nobody/contact.json"} {
		h.do(http.MethodGet, target, "").wantError(t, http.StatusNotFound)
	}
}

// TestSchemaBadNames lays a valid form wherever a path trick could lead and
// checks that none of them is served.
func TestSchemaBadNames(t *testing.T) {
	const marker = "LEAKED-FORM"
	leak := strings.Replace(otherForm, `"fields"`, `"title": "`+marker+`", "fields"`, 1)
	h := newHarnessWithForms(t, func(dir string) {
		for _, name := range []string{
			"../x.json", "../../x.json", "../acme/x.json", "x.json",
			".hidden/x.json", "a/b/c.json", "a/x.json", "ü/x.json", "acme/ü.json",
			"a/.x.json", "a/x.json.json",
		} {
			writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), leak)
		}
	})
	// The files are there: a plain name is served.
	if res := h.do(http.MethodGet, "/v1/a/x.json", ""); res.status != http.StatusOK || !bytes.Contains(res.body, []byte(marker)) {
		t.Fatalf("GET /v1/a/x.json: status %d, body %s; want the form", res.status, res.body)
	}
	for _, target := range []string{
		"/v1/..%2F../x.json",
		"/v1/..%2F..%2Fx.json",
		"/v1/../x.json",
		"/v1/%2E%2E/x.json",
		"/v1/a/..%2Fx.json",
		"/v1/a/b%2Fc.json",
		"/v1/a%2Fb/c.json",
		"/v1/.hidden/x.json",
		"/v1/a/.x.json",
		"/v1/a/x",
		"/v1/a/x.json.json",
		"/v1/a/x.JSON",
		"/v1/%C3%BC/x.json",
		"/v1/acme/%C3%BC.json",
		"/v1/a/x%00.json",
		"/v1/a/%2e.json",
		"/v1/a/.json",
	} {
		t.Run(target, func(t *testing.T) {
			res := h.do(http.MethodGet, target, "")
			res.wantError(t, http.StatusNotFound)
			if bytes.Contains(res.body, []byte(marker)) {
				t.Errorf("answer %s serves a form outside the rules", res.body)
			}
		})
	}
}

func TestSchemaInvalidForm(t *testing.T) {
	h := newHarness(t)
	h.WriteForm("acme", "broken", `{
  "fields": [{"name": "name", "type": "bogus-kind"}],
  "steps": [{"id": "main", "fields": ["name", "no-such-field"]}],
  "hub": {"captchaSecret": "broken-secret"}
}`)
	h.WriteForm("acme", "syntax", `{"fields": [`)
	for _, tt := range []struct{ slug, problem string }{
		{"broken", "bogus-kind"},
		{"syntax", "unexpected end of JSON input"},
	} {
		for _, target := range []string{"/v1/acme/" + tt.slug + ".json", "/v1/acme/" + tt.slug + "/submit"} {
			method := http.MethodGet
			if strings.HasSuffix(target, "/submit") {
				method = http.MethodPost
			}
			res := h.do(method, target, `{"payload":{}}`, "Content-Type: application/json")
			a := res.wantError(t, http.StatusInternalServerError)
			for _, secret := range []string{tt.problem, "no-such-field", "broken-secret", h.FormsDir} {
				if strings.Contains(string(res.body), secret) {
					t.Errorf("%s %s: answer %s reveals %q", method, target, res.body, secret)
				}
			}
			if !strings.Contains(a.Error, "acme/"+tt.slug) {
				t.Errorf("%s %s: error %q, want it to name the form", method, target, a.Error)
			}
		}
		if log := h.Log.String(); !strings.Contains(log, tt.problem) {
			t.Errorf("log does not name the problem %q of %s:\n%s", tt.problem, tt.slug, log)
		}
	}
	if log := h.Log.String(); strings.Contains(log, "broken-secret") {
		t.Errorf("log reveals the form's captcha secret:\n%s", log)
	}
}

var keyPattern = regexp.MustCompile(`^uploads/acme/apply/[0-9a-f]{24}/([^/]+)$`)

func TestUploadURL(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		filename, mime, wantName string
	}{
		{"cv.pdf", "application/pdf", "cv.pdf"},
		{"../../etc/my cv.pdf", "application/pdf", "my_cv.pdf"},
		{`C:\Users\me\.photo.png`, "image/png", "photo.png"},
		{"scan.jpeg", "image/jpeg; name=x", "scan.jpeg"},
		{"résumé.PDF", "Application/PDF", "r_sum_.PDF"},
	}
	for _, tt := range tests {
		u := h.uploadURL("apply", tt.filename, tt.mime, 100)
		if !u.OK {
			t.Errorf("%s: ok false", tt.filename)
		}
		m := keyPattern.FindStringSubmatch(u.Key)
		if m == nil {
			t.Errorf("%s: key %q, want uploads/acme/apply/<24 hex>/<name>", tt.filename, u.Key)
			continue
		}
		if m[1] != tt.wantName {
			t.Errorf("%s: key ends in %q, want %q", tt.filename, m[1], tt.wantName)
		}
		if !strings.HasPrefix(u.UploadURL, h.Server.URL+"/v1/_uploads?") {
			t.Errorf("%s: upload URL %q, want one at %s/v1/_uploads", tt.filename, u.UploadURL, h.Server.URL)
		}
	}
	a, b := h.uploadURL("apply", "same.pdf", "application/pdf", 1), h.uploadURL("apply", "same.pdf", "application/pdf", 1)
	if a.Key == b.Key || a.UploadURL == b.UploadURL {
		t.Errorf("two uploads of one name share key %q", a.Key)
	}
}

func TestUploadURLRefusals(t *testing.T) {
	h := newHarness(t)
	const json = "Content-Type: application/json"
	tests := []struct {
		name, slug, body, contentType string
		status                        int
	}{
		{"form-encoded", "apply", "filename=a.pdf&size=1&mime=application/pdf", "Content-Type: application/x-www-form-urlencoded", http.StatusUnsupportedMediaType},
		{"text", "apply", `{"filename":"a.pdf","size":1,"mime":"application/pdf"}`, "Content-Type: text/plain", http.StatusUnsupportedMediaType},
		{"no content type", "apply", `{"filename":"a.pdf","size":1,"mime":"application/pdf"}`, "X-None: 1", http.StatusUnsupportedMediaType},
		{"malformed", "apply", `{"filename":"a.pdf",`, json, http.StatusBadRequest},
		{"wrong member type", "apply", `{"filename":"a.pdf","size":"big","mime":"application/pdf"}`, json, http.StatusBadRequest},
		{"not an object", "apply", `[]`, json, http.StatusBadRequest},
		{"no filename", "apply", `{"size":1,"mime":"application/pdf"}`, json, http.StatusBadRequest},
		{"long filename", "apply", `{"filename":"` + strings.Repeat("a", 252) + `.pdf","size":1,"mime":"application/pdf"}`, json, http.StatusBadRequest},
		{"negative size", "apply", `{"filename":"a.pdf","size":-1,"mime":"application/pdf"}`, json, http.StatusBadRequest},
		{"too large", "apply", `{"filename":"a.pdf","size":1025,"mime":"application/pdf"}`, json, http.StatusRequestEntityTooLarge},
		{"type not allowed", "apply", `{"filename":"a.txt","size":1,"mime":"text/plain"}`, json, http.StatusUnsupportedMediaType},
		{"family not allowed", "apply", `{"filename":"a.mp4","size":1,"mime":"video/mp4"}`, json, http.StatusUnsupportedMediaType},
		{"prefix of an allowed type", "apply", `{"filename":"a","size":1,"mime":"application/pdfx"}`, json, http.StatusUnsupportedMediaType},
		{"no type", "apply", `{"filename":"a.pdf","size":1}`, json, http.StatusUnsupportedMediaType},
		{"not a type", "apply", `{"filename":"a.pdf","size":1,"mime":"pdf"}`, json, http.StatusUnsupportedMediaType},
		{"wildcard type", "apply", `{"filename":"a.png","size":1,"mime":"image/*"}`, json, http.StatusUnsupportedMediaType},
		{"NUL in a parameter", "apply", `{"filename":"a.pdf","size":1,"mime":"application/pdf; a=\"\u0000\""}`, json, http.StatusUnsupportedMediaType},
		{"line break in a parameter", "apply", `{"filename":"a.pdf","size":1,"mime":"application/pdf; a=\"x\r\nX-Evil: 1\""}`, json, http.StatusUnsupportedMediaType},
		{"DEL in a parameter", "apply", `{"filename":"a.pdf","size":1,"mime":"application/pdf; a=\"\u007f\""}`, json, http.StatusUnsupportedMediaType},
		{"body too large", "apply", `{"filename":"a.pdf","size":1,"mime":"application/pdf","x":"` + strings.Repeat("x", 20<<10) + `"}`, json, http.StatusRequestEntityTooLarge},
		{"form without file fields", "contact", `{"filename":"a.pdf","size":1,"mime":"application/pdf"}`, json, http.StatusBadRequest},
		{"unknown form", "nope", `{"filename":"a.pdf","size":1,"mime":"application/pdf"}`, json, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := h.do(http.MethodPost, "/v1/acme/"+tt.slug+"/upload-url", tt.body, tt.contentType)
			res.wantError(t, tt.status)
			if cc := res.header.Get("Cache-Control"); cc != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", cc)
			}
		})
	}
	h.wantNoUploads()

	// The default limit applies where the form sets none.
	h.postJSON("/v1/acme/other/upload-url", hubclient.UploadURLRequest{Filename: "a.bin", Size: 25<<20 + 1, MIME: "application/octet-stream"}).
		wantError(t, http.StatusRequestEntityTooLarge)
	h.uploadURL("other", "a.bin", "application/octet-stream", 25<<20)
}

func TestUploadURLExpires(t *testing.T) {
	h := newHarness(t, func(c *protocol.Config) { c.UploadURLExpiry = time.Minute })
	// Signed two minutes ago, by the hub's clock, for one minute.
	h.clock.Set(time.Now().Add(-2 * time.Minute))
	u := h.uploadURL("apply", "a.pdf", "application/pdf", 3)
	res := h.put(u.UploadURL, "application/pdf", []byte("abc"))
	res.wantError(t, http.StatusForbidden)
	if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin %q on a refused PUT, want *", got)
	}
	h.wantNoFile(u.Key)

	// Signed now, it works.
	h.clock.Set(time.Now())
	u = h.uploadURL("apply", "a.pdf", "application/pdf", 3)
	h.put(u.UploadURL, "application/pdf", []byte("abc")).wantStatus(t, http.StatusOK)
}

func TestPut(t *testing.T) {
	h := newHarness(t)
	body := []byte("%PDF-1.7\x00\xff\xfe binary \r\n body")
	u := h.uploadURL("apply", "a.pdf", "application/pdf", int64(len(body)))
	res := h.put(u.UploadURL, "application/pdf", body)
	res.wantStatus(t, http.StatusOK)
	if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
		t.Errorf("Access-Control-Allow-Origin %q, want *", got)
	}
	if got := h.File(u.Key); !bytes.Equal(got, body) {
		t.Errorf("stored %q, want %q", got, body)
	}

	// A second PUT is refused and leaves the file alone.
	res = h.put(u.UploadURL, "application/pdf", bytes.Repeat([]byte("x"), len(body)))
	res.wantError(t, http.StatusConflict)
	if got := h.File(u.Key); !bytes.Equal(got, body) {
		t.Errorf("after a second PUT stored %q, want %q", got, body)
	}
}

func TestPutRefusals(t *testing.T) {
	h := newHarness(t)
	tests := []struct {
		name        string
		contentType string
		body        string
		tamper      func(string) string
		status      int
	}{
		{"other type", "image/png", "abc", nil, http.StatusUnsupportedMediaType},
		{"no type", "", "abc", nil, http.StatusUnsupportedMediaType},
		{"longer", "application/pdf", "abcd", nil, http.StatusRequestEntityTooLarge},
		{"shorter", "application/pdf", "ab", nil, http.StatusBadRequest},
		{"tampered signature", "application/pdf", "abc", func(u string) string { return strings.Replace(u, "signature=", "signature=x", 1) }, http.StatusForbidden},
		{"unsigned", "application/pdf", "abc", func(u string) string { return u[:strings.Index(u, "?")] }, http.StatusForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := h.uploadURL("apply", "a.pdf", "application/pdf", 3)
			target := u.UploadURL
			if tt.tamper != nil {
				target = tt.tamper(target)
			}
			res := h.put(target, tt.contentType, []byte(tt.body))
			res.wantError(t, tt.status)
			if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
				t.Errorf("Access-Control-Allow-Origin %q on a refusal, want *", got)
			}
			h.wantNoFile(u.Key)
		})
	}

	// Other methods on the upload path are refused with the header too.
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		res := h.do(method, "/v1/_uploads", "")
		if res.status/100 != 4 {
			t.Errorf("%s /v1/_uploads: status %d, want 4xx", method, res.status)
		}
		if got := res.header.Get("Access-Control-Allow-Origin"); got != "*" {
			t.Errorf("%s /v1/_uploads: Access-Control-Allow-Origin %q, want *", method, got)
		}
	}
}

func TestPutPreflight(t *testing.T) {
	h := newHarness(t)
	res := h.do(http.MethodOptions, "/v1/_uploads?obj=x", "", "Origin: https://anywhere.example",
		"Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: content-type")
	res.wantStatus(t, http.StatusNoContent)
	for name, want := range map[string]string{
		"Access-Control-Allow-Origin":  "*",
		"Access-Control-Allow-Methods": "PUT",
	} {
		if got := res.header.Get(name); got != want {
			t.Errorf("%s %q, want %q", name, got, want)
		}
	}
	if got := strings.ToLower(res.header.Get("Access-Control-Allow-Headers")); !strings.Contains(got, "content-type") {
		t.Errorf("Access-Control-Allow-Headers %q, want Content-Type", got)
	}
}

func TestPutPreflightForTheFormsOrigins(t *testing.T) {
	// A form that lists origins takes files from browsers on those alone;
	// one that lists none, from any.
	h := newHarnessWithForms(t, func(dir string) {
		form := `{"fields": [{"name": "cv", "type": "file"}], "steps": [{"id": "main", "fields": ["cv"]}], "hub": {"allowedOrigins": ["https://ok.example"]}}`
		if err := os.WriteFile(filepath.Join(dir, "acme", "cors-files.json"), []byte(form), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	preflight := func(uploadURL, origin string) *response {
		t.Helper()
		return h.do(http.MethodOptions, strings.TrimPrefix(uploadURL, h.Server.URL), "", "Origin: "+origin,
			"Access-Control-Request-Method: PUT", "Access-Control-Request-Headers: content-type")
	}
	listed := h.uploadURL("cors-files", "cv.pdf", "application/pdf", 3).UploadURL
	for _, tt := range []struct {
		name, uploadURL, origin string
		status                  int
		allow                   string
	}{
		{"a listed origin", listed, "https://ok.example", http.StatusNoContent, "https://ok.example"},
		{"another origin", listed, "https://elsewhere.example", http.StatusForbidden, ""},
		{"a form that lists none", h.uploadURL("apply", "a.pdf", "application/pdf", 3).UploadURL, "https://elsewhere.example", http.StatusNoContent, "*"},
	} {
		res := preflight(tt.uploadURL, tt.origin)
		if res.status != tt.status || res.header.Get("Access-Control-Allow-Origin") != tt.allow {
			t.Errorf("%s: %d, Allow-Origin %q; want %d, %q", tt.name, res.status, res.header.Get("Access-Control-Allow-Origin"), tt.status, tt.allow)
		}
	}
}

func TestPutWithClient(t *testing.T) {
	h := newHarness(t)
	body := []byte("\x89PNG\r\n\x1a\n")
	u := h.uploadURL("apply", "p.png", "image/png", int64(len(body)))
	f := fileOf("p.png", "image/png", body)
	if err := h.client.Put(context.Background(), u.UploadURL, f); err != nil {
		t.Fatal(err)
	}
	if got := h.File(u.Key); !bytes.Equal(got, body) {
		t.Errorf("stored %q, want %q", got, body)
	}
}

func TestPutEmptyFile(t *testing.T) {
	h := newHarness(t)
	sub := hubclient.NewSubmit(hubclient.SubmitOptions{HubURL: h.client.HubURL, SiteID: "acme", FormSlug: "apply"})
	if _, err := sub.OnSubmit(context.Background(), map[string]any{"cv": fileOf("empty.pdf", "application/pdf", nil)}); err != nil {
		t.Fatal(err)
	}
	subs := h.Submissions()
	if len(subs) != 1 || len(subs[0].Attachments) != 1 {
		t.Fatalf("stored %+v, want one submission with one file", subs)
	}
	if got := h.File(subs[0].Attachments[0].Key); len(got) != 0 {
		t.Errorf("stored %q, want nothing", got)
	}
}

// TestUploadURLReservedNames uploads files whose names end as the files
// local storage keeps beside an object: they get keys of their own and
// are stored like any other.
func TestUploadURLReservedNames(t *testing.T) {
	h := newHarness(t)
	for _, name := range []string{"notes.attrs", "scan.PDF.attrs", "a.pdf.0123.tmp"} {
		body := []byte("%PDF " + name)
		a := h.upload("apply", "cv", name, "application/pdf", body)
		if strings.HasSuffix(strings.ToLower(a.Key), ".attrs") || strings.HasSuffix(a.Key, ".tmp") {
			t.Errorf("%s: key %q keeps the reserved ending", name, a.Key)
		}
		if got := h.File(a.Key); !bytes.Equal(got, body) {
			t.Errorf("%s: stored %q", name, got)
		}
		h.submit("apply", hubclient.SubmitRequest{Payload: map[string]any{}, Attachments: []hubclient.Attachment{a}}).wantOK(t)
	}
	for _, s := range h.Submissions() {
		if f := s.Attachments[0].Filename; !strings.HasSuffix(f, ".attrs") && !strings.HasSuffix(f, ".tmp") {
			t.Errorf("file name %q: want the visitor's own", f)
		}
	}
}

// failingBlobs cannot sign URLs.
type failingBlobs struct{ hub.Blobs }

func (failingBlobs) SignedPutURL(context.Context, hub.Upload, time.Duration) (string, error) {
	return "", errors.New("signer: 10.0.0.7:9000 refused")
}

// TestUploadURLLeavesNoRecordOnError makes signing fail: the client gets a
// 500 without the cause, and no upload is recorded.
func TestUploadURLLeavesNoRecordOnError(t *testing.T) {
	h := newHarness(t, func(c *protocol.Config) { c.Blobs = failingBlobs{c.Blobs} })
	res := h.postJSON("/v1/acme/apply/upload-url", hubclient.UploadURLRequest{Filename: "a.pdf", Size: 1, MIME: "application/pdf"})
	answer := res.wantError(t, http.StatusInternalServerError)
	if strings.Contains(answer.Error, "10.0.0.7") {
		t.Errorf("answer %q reveals the cause", answer.Error)
	}
	h.wantNoUploads()
}

// swapForms serves one form that a test replaces.
type swapForms struct {
	mu   sync.Mutex
	form *hub.Form
}

func (f *swapForms) Lookup(site, slug string) (*hub.Form, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.form, nil
}

// TestSchemaETagFollowsContent publishes two versions saved in one
// millisecond, of one length: a client holding the first's ETag gets the
// second, and the first again after a rollback.
func TestSchemaETagFollowsContent(t *testing.T) {
	saved := time.Now()
	version := func(title string) *hub.Form {
		form, err := formsource.Parse("acme", "contact", []byte(`{"title":"`+title+`"}`))
		if err != nil {
			t.Fatal(err)
		}
		form.ModTime = saved
		return form
	}
	served := &swapForms{form: version("One")}
	h := newHarness(t, func(c *protocol.Config) { c.Forms = served })
	first := h.do(http.MethodGet, "/v1/acme/contact.json", "")
	first.wantStatus(t, http.StatusOK)
	served.mu.Lock()
	served.form = version("Two")
	served.mu.Unlock()
	res := h.do(http.MethodGet, "/v1/acme/contact.json", "", "If-None-Match: "+first.header.Get("ETag"))
	res.wantStatus(t, http.StatusOK)
	if !bytes.Contains(res.body, []byte("Two")) {
		t.Errorf("body %s, want version Two", res.body)
	}
	served.mu.Lock()
	served.form = version("One")
	served.mu.Unlock()
	h.do(http.MethodGet, "/v1/acme/contact.json", "", "If-None-Match: "+first.header.Get("ETag")).wantStatus(t, http.StatusNotModified)
}
