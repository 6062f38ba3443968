package hosted_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
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
	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/handlers/hub/protocol"
)

// visitorHeader names, in a test's request, the address the visitor
// connects from: the test server puts it in the request's RemoteAddr, as a
// server reading it from the socket would. Requests the pages make to the
// hub in process never pass there.
const visitorHeader = "X-Test-Visitor"

// testHub is a hub of hubtest with its pages: the forms directory beside
// the database's forms, and a captcha verifier that records its calls.
type testHub struct {
	*hubtest.Hub
	t       *testing.T
	captcha *captchaRecorder
}

// startHub serves files, "site/slug" to a form file, and the hub's pages.
// configure adjusts the hub's configuration.
func startHub(t *testing.T, files map[string]string, configure ...func(*protocol.Config)) *testHub {
	t.Helper()
	h := &testHub{Hub: hubtest.NewUnstarted(t, files), t: t, captcha: &captchaRecorder{}}
	forms := &formsource.Layered{Dir: h.Forms, Stored: formsource.NewStored(h.DB, h.Logger)}
	pages, err := hosted.New(hosted.Config{HubURL: h.URL, Forms: forms, Logger: h.Logger})
	if err != nil {
		t.Fatal(err)
	}
	h.Intercept = func(w http.ResponseWriter, r *http.Request) bool {
		if v := r.Header.Get(visitorHeader); v != "" {
			r.RemoteAddr = net.JoinHostPort(v, "4711")
			r.Header.Del(visitorHeader)
		}
		return false
	}
	h.Start(append([]func(*protocol.Config){func(c *protocol.Config) {
		c.Forms, c.Captcha, c.CaptchaSecrets = forms, h.captcha, map[string]string{"turnstile": "turnstile-secret"}
		c.Mount = []func(*echo.Echo){pages.Mount}
	}}, configure...)...)
	return h
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
	req, err := http.NewRequest(http.MethodGet, h.Server.URL+path, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	return h.send(req, headers...)
}

// post sends a form-encoded POST of values to path, as a browser without
// JavaScript does.
func (h *testHub) post(path string, values url.Values, headers ...string) *answer {
	h.t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.Server.URL+path, strings.NewReader(values.Encode()))
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
	req, err := http.NewRequest(http.MethodPost, h.Server.URL+path, &body)
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

// payload returns a submission's payload.
func payload(t *testing.T, s hub.Submission) map[string]any {
	t.Helper()
	var p map[string]any
	if err := json.Unmarshal(s.Payload, &p); err != nil {
		t.Fatalf("payload %s: %v", s.Payload, err)
	}
	return p
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
