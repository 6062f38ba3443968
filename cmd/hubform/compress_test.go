package main

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/andybalholm/brotli"

	"github.com/hubform/hubform/handlers/hub/hubtest"
	"github.com/hubform/hubform/static"
)

// TestDemoCompresses checks that the demo's pages go out gzip and its
// assets in the encoding they were compressed in at start, once each.
func TestDemoCompresses(t *testing.T) {
	t.Parallel()
	hub := hubtest.Start(t, exampleFormFiles(t))
	srv := httptest.NewServer(newDemoApp(demoConfig{hubURL: hub.URL, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer srv.Close()
	raw := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(path, accept string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.Header.Set("Accept-Encoding", accept)
		res, err := raw.Do(req)
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", path, res.Status, err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
	for _, path := range []string{"/", "/f/demo/contact", "/hubform/demo/contact"} {
		res := get(path, "gzip, br")
		if res.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s: Content-Encoding %q, want gzip", path, res.Header.Get("Content-Encoding"))
		}
	}
	// Decoded once, the page is HTML with the form.
	res, err := http.Get(srv.URL + "/f/demo/contact")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if doc.Find("form[data-hubform-form]").Length() != 1 {
		t.Error("the contact page, decoded, lacks its form")
	}
	src, _ := doc.Find(`script[data-hubform-loader]`).Attr("data-js")
	plain, _ := io.ReadAll(get(src, "").Body)
	res = get(src, "gzip, br")
	body, err := io.ReadAll(brotli.NewReader(res.Body))
	if res.Header.Get("Content-Encoding") != "br" || err != nil || string(body) != string(plain) || !strings.Contains(string(plain), "hubformScript") {
		t.Errorf("hubform.js: Content-Encoding %q, %d bytes decoded (%v); want br that decodes once to the %d of the file",
			res.Header.Get("Content-Encoding"), len(body), err, len(plain))
	}
	if !strings.HasPrefix(src, "/hubform/static/"+static.URL("hubform.js")) {
		t.Errorf("script %q", src)
	}
}
