package hosted_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
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

	"github.com/PuerkitoBio/goquery"
	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/captcha"
	"github.com/hubform/hubform/handlers/hub/formsource"
	"github.com/hubform/hubform/handlers/hub/hosted"
	"github.com/hubform/hubform/handlers/hub/localblob"
	"github.com/hubform/hubform/handlers/hub/protocol"
	"github.com/hubform/hubform/handlers/hub/sqldb"
	"github.com/hubform/hubform/handlers/hub/sqlite"
	"github.com/hubform/hubform/handlers/hub/testkit"
)

// visitorHeader names, in a test's request, the address the visitor
// connects from: the test server puts it in the request's RemoteAddr, as a
// server reading it from the socket would. Requests the pages make to the
// hub in process never pass there.
const visitorHeader = "X-Test-Visitor"

// testHub is a hub with its pages, served over real HTTP with its real
// dependencies: a forms directory beside the database's forms, SQLite,
// local file storage, and a captcha verifier that records its calls.
type testHub struct {
	t       *testing.T
	srv     *httptest.Server
	db      *sqldb.DB
	blobs   *localblob.Store
	forms   string // the forms directory
	captcha *captchaRecorder
	log     *testkit.Buffer
}

// startHub serves files, "site/slug" to a form file, and the hub's pages.
// configure adjusts the hub's configuration.
func startHub(t *testing.T, files map[string]string, configure ...func(*protocol.Config)) *testHub {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	h := &testHub{t: t, forms: filepath.Join(root, "forms"), captcha: &captchaRecorder{}, log: &testkit.Buffer{}}
	for name, content := range files {
		h.writeForm(name, content)
	}
	logger := slog.New(slog.NewTextHandler(h.log, nil))
	var err error
	if h.db, err = sqlite.Open(ctx, filepath.Join(root, "hub.db")); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.db.Close() })
	h.srv = httptest.NewUnstartedServer(nil)
	base := "http://" + h.srv.Listener.Addr().String()
	secret := make([]byte, 32)
	rand.Read(secret)
	if h.blobs, err = localblob.Open(ctx, filepath.Join(root, "files"), base+protocol.UploadsPath, secret); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.blobs.Close() })
	dir, err := formsource.Open(h.forms, logger)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dir.Close() })
	forms := &formsource.Layered{Dir: dir, Stored: formsource.NewStored(h.db, logger)}
	pages, err := hosted.New(hosted.Config{HubURL: base + "/v1", Forms: forms, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	cfg := protocol.Config{
		Forms: forms, Store: h.db, Blobs: h.blobs, Uploads: h.blobs.PutHandler(h.db), Logger: logger,
		Captcha: h.captcha, CaptchaSecrets: map[string]string{"turnstile": "turnstile-secret"},
		Mount: []func(*echo.Echo){pages.Mount},
	}
	for _, c := range configure {
		c(&cfg)
	}
	server, err := protocol.NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get(visitorHeader); v != "" {
			r.RemoteAddr = net.JoinHostPort(v, "4711")
			r.Header.Del(visitorHeader)
		}
		server.ServeHTTP(w, r)
	})
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	return h
}

// writeForm writes the form file of name, "site/slug", in the forms
// directory.
func (h *testHub) writeForm(name, content string) {
	h.t.Helper()
	path := filepath.Join(h.forms, filepath.FromSlash(name)+".json")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		h.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		h.t.Fatal(err)
	}
}

// answer is a response read whole, its body parsed as HTML.
type answer struct {
	status int
	header http.Header
	body   string
	doc    *goquery.Document
}

// get sends GET path with headers ("Name: value").
func (h *testHub) get(path string, headers ...string) *answer {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.send(req, headers...)
}

// post sends a form-encoded POST of values to path, as a browser without
// JavaScript does.
func (h *testHub) post(path string, values url.Values, headers ...string) *answer {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(values.Encode()))
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return h.send(req, headers...)
}

// postFiles sends a multipart POST of values and files (field name to file
// name to content) to path.
func (h *testHub) postFiles(path string, values url.Values, files map[string]map[string][]byte, headers ...string) *answer {
	h.t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for name, vs := range values {
		for _, v := range vs {
			mw.WriteField(name, v)
		}
	}
	for field, byName := range files {
		for name, content := range byName {
			w, err := mw.CreateFormFile(field, name)
			if err != nil {
				h.t.Fatal(err)
			}
			w.Write(content)
		}
	}
	mw.Close()
	req, err := http.NewRequest(http.MethodPost, h.srv.URL+path, &body)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	return h.send(req, headers...)
}

func (h *testHub) send(req *http.Request, headers ...string) *answer {
	h.t.Helper()
	for _, hv := range headers {
		name, value, ok := strings.Cut(hv, ":")
		if !ok {
			h.t.Fatalf("header %q: want Name: value", hv)
		}
		req.Header.Set(name, strings.TrimSpace(value))
	}
	ctx, cancel := context.WithTimeout(h.t.Context(), 20*time.Second)
	defer cancel()
	res, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		h.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	a := &answer{status: res.StatusCode, header: res.Header, body: string(data)}
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		if a.doc, err = goquery.NewDocumentFromReader(bytes.NewReader(data)); err != nil {
			h.t.Fatal(err)
		}
	}
	return a
}

// text returns the trimmed text of the first element matching selector.
func (a *answer) text(selector string) string {
	return strings.TrimSpace(a.doc.Find(selector).First().Text())
}

// attr returns an attribute of the first element matching selector.
func (a *answer) attr(selector, name string) string {
	v, _ := a.doc.Find(selector).First().Attr(name)
	return v
}

// submissions returns every stored submission, oldest first.
func (h *testHub) submissions() []hub.Submission {
	h.t.Helper()
	var out []hub.Submission
	err := h.db.ListSubmissions(context.Background(), hub.Filter{}, func(s hub.Submission) error {
		out = append(out, s)
		return nil
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// payload returns a submission's payload.
func payload(t *testing.T, s hub.Submission) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(s.Payload, &p); err != nil {
		t.Fatalf("payload %s: %v", s.Payload, err)
	}
	return p
}

// file returns the stored body of an uploaded file.
func (h *testHub) file(key string) []byte {
	h.t.Helper()
	r, err := h.blobs.NewReader(context.Background(), key)
	if err != nil {
		h.t.Fatal(err)
	}
	defer r.Close()
	data, err := io.ReadAll(r)
	if err != nil {
		h.t.Fatal(err)
	}
	return data
}

// captchaRecorder accepts the token "good" alone and records every token
// it is asked to verify.
type captchaRecorder struct {
	mu    sync.Mutex
	calls []captcha.Request
}

func (c *captchaRecorder) Verify(_ context.Context, r captcha.Request) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls = append(c.calls, r)
	if r.Token != "good" {
		return &captcha.RefusedError{Provider: r.Provider, Reason: "not the token"}
	}
	return nil
}

func (c *captchaRecorder) requests() []captcha.Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]captcha.Request(nil), c.calls...)
}
