package handlers_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/static"
)

// rawClient asks for gzip itself and leaves the body as it came.
var rawClient = &http.Client{Transport: &http.Transport{DisableCompression: true}}

// fetch sends req and returns the answer with its body decoded once,
// as a browser would.
func fetch(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	res, err := rawClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body io.Reader = res.Body
	if res.Header.Get("Content-Encoding") == "gzip" {
		if body, err = gzip.NewReader(res.Body); err != nil {
			t.Fatal(err)
		}
	}
	data, err := io.ReadAll(body)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	return res, string(data)
}

func TestPagesCompressed(t *testing.T) {
	a := newApp(t)
	post := func(htmx bool) *http.Request {
		body, contentType := multipartBody(t, part{name: "name", value: "Jane"}, part{name: "email", value: "jane@example.com"})
		req, _ := http.NewRequest(http.MethodPost, a.srv.URL+"/hubform/acme/contact/submit", body)
		req.Header.Set("Content-Type", contentType)
		if htmx {
			req.Header.Set("HX-Request", "true")
		}
		return req
	}
	get := func(htmx bool) *http.Request {
		req, _ := http.NewRequest(http.MethodGet, a.srv.URL+"/hubform/acme/contact", nil)
		if htmx {
			req.Header.Set("HX-Request", "true")
		}
		return req
	}
	tests := []struct {
		name string
		req  func() *http.Request
		want string // in the decoded body
	}{
		{"load, page", func() *http.Request { return get(false) }, "data-hubform-styles"},
		{"load, fragment", func() *http.Request { return get(true) }, "data-hubform-form"},
		{"submit, page", func() *http.Request { return post(false) }, "data-vendor-hubform-submitted"},
	}
	for _, tt := range tests {
		for _, accept := range []bool{true, false} {
			req := tt.req()
			if accept {
				req.Header.Set("Accept-Encoding", "gzip")
			}
			res, body := fetch(t, req)
			coding := res.Header.Get("Content-Encoding")
			if accept != (coding == "gzip") {
				t.Errorf("%s, gzip accepted %v: Content-Encoding %q", tt.name, accept, coding)
			}
			if !strings.Contains(body, tt.want) {
				t.Errorf("%s, gzip accepted %v: body lacks %s", tt.name, accept, tt.want)
			}
			vary := strings.Join(res.Header.Values("Vary"), ",")
			if !strings.Contains(vary, "Accept-Encoding") || !strings.Contains(vary, "HX-Request") {
				t.Errorf("%s: Vary %q, want Accept-Encoding and HX-Request", tt.name, vary)
			}
		}
	}
}

// TestGzipInFrontIsNotDoubled checks an app that compresses every answer
// with Echo's Gzip: pages and assets still arrive compressed once.
func TestGzipInFrontIsNotDoubled(t *testing.T) {
	a := newApp(t)
	forms := handlers.New(handlers.Config{HubURL: a.hub.URL, Logger: quiet})
	e := echo.New()
	e.Use(middleware.Gzip())
	forms.Mount(e)
	srv := httptest.NewServer(e)
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/hubform/acme/contact", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	res, body := fetch(t, req)
	if res.Header.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(strings.ToLower(body), "<!doctype html>") {
		t.Errorf("page: Content-Encoding %q, decoded once it begins %.40q", res.Header.Get("Content-Encoding"), body)
	}
	for _, accept := range []string{"gzip", "gzip, br"} {
		req, _ = http.NewRequest(http.MethodGet, srv.URL+"/hubform/static/"+static.URL("hubform.js"), nil)
		req.Header.Set("Accept-Encoding", accept)
		res, body = fetch(t, req)
		want, _ := io.ReadAll(get(t, static.Handler(), "/hubform.js"))
		if res.Header.Get("Content-Encoding") != "gzip" || body != string(want) {
			t.Errorf("hubform.js, Accept-Encoding %q: Content-Encoding %q, %d bytes decoded once, want the %d of the file",
				accept, res.Header.Get("Content-Encoding"), len(body), len(want))
		}
	}
}

// get serves target from h, without Accept-Encoding.
func get(t *testing.T, h http.Handler, target string) io.Reader {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, target, nil))
	return bytes.NewReader(w.Body.Bytes())
}
