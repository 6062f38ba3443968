package handlers_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers"
	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// fromAddr returns a client whose connections come from the loopback
// address local, as a visitor's would from their own address.
func fromAddr(t *testing.T, local string) *http.Client {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(local)}}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
}

// TestVisitorReachesTheHub posts the form from 127.0.0.2 to apps set up in
// different ways, and checks which address the hub was told on each call
// made for the visitor: upload-url, the PUT and submit. Visitors sending
// X-Forwarded-For or X-Real-IP of their own must not be believed.
func TestVisitorReachesTheHub(t *testing.T) {
	forged := map[string]string{"X-Forwarded-For": "198.51.100.66", "X-Real-IP": "198.51.100.77"}
	for _, tc := range []struct {
		name string
		// extractor is the host Echo's IPExtractor; mounted says whether
		// the routes are on a host Echo at all, or served by the Handler.
		mounted   bool
		extractor echo.IPExtractor
		visitor   func(r *http.Request) string
		header    map[string]string
		want      []string
	}{
		{name: "Handler alone, forged headers", header: forged, want: []string{"127.0.0.2"}},
		{name: "host Echo without extractor, forged headers", mounted: true, header: forged, want: []string{"127.0.0.2"}},
		{name: "host Echo, direct", mounted: true, extractor: echo.ExtractIPDirect(), header: forged, want: []string{"127.0.0.2"}},
		{name: "host Echo behind a loopback proxy", mounted: true, extractor: echo.ExtractIPFromXFFHeader(),
			header: map[string]string{"X-Forwarded-For": "203.0.113.7"}, want: []string{"203.0.113.7"}},
		{name: "host Echo behind a loopback proxy, forged first hop", mounted: true, extractor: echo.ExtractIPFromXFFHeader(),
			header: map[string]string{"X-Forwarded-For": "198.51.100.66, 203.0.113.7"}, want: []string{"203.0.113.7"}},
		{name: "VisitorAddr", mounted: true, visitor: func(r *http.Request) string { return r.Header.Get("CF-Connecting-IP") },
			header: map[string]string{"CF-Connecting-IP": "203.0.113.9", "X-Forwarded-For": "198.51.100.66"}, want: []string{"203.0.113.9"}},
		{name: "VisitorAddr wins over the extractor", mounted: true, extractor: echo.ExtractIPDirect(),
			visitor: func(*http.Request) string { return "2001:db8::5" }, want: []string{"2001:db8::5"}},
		{name: "VisitorAddr without an address", visitor: func(*http.Request) string { return "unknown" }, header: forged},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hub := fakehub.NewServer()
			defer hub.Close()
			hub.SetForm("acme", "contact", &hubclient.Schema{
				Fields: []hubclient.Field{{Name: "name", Type: "text"}, {Name: "files", Type: "file", Multiple: true}},
				Steps:  []hubclient.Step{{ID: "all", Fields: []string{"name", "files"}}},
			})
			h := handlers.New(handlers.Config{HubURL: hub.URL, Logger: quiet, VisitorAddr: tc.visitor})
			var app http.Handler = h
			if tc.mounted {
				e := echo.New()
				e.IPExtractor = tc.extractor
				h.Mount(e)
				app = e
			}
			srv := httptest.NewServer(app)
			defer srv.Close()

			body, contentType := multipartBody(t, part{name: "name", value: "Jane"}, part{name: "files", value: "hello", filename: "a.txt"})
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hubform/acme/contact/submit", body)
			req.Header.Set("Content-Type", contentType)
			for k, v := range tc.header {
				req.Header.Set(k, v)
			}
			res, err := fromAddr(t, "127.0.0.2").Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusOK || len(hub.Submissions()) != 1 {
				t.Fatalf("post: %s, %d stored", res.Status, len(hub.Submissions()))
			}
			calls := 0
			for _, r := range hub.Requests() {
				got := r.Header.Values("X-Forwarded-For")
				if r.Method == http.MethodGet {
					if got != nil {
						t.Errorf("schema fetch names a visitor: %q", got)
					}
					continue
				}
				calls++
				if !slices.Equal(got, tc.want) {
					t.Errorf("%s %s: X-Forwarded-For %q, want %q", r.Method, r.RequestURI, got, tc.want)
				}
			}
			if calls != 3 {
				t.Errorf("%d calls for the visitor, want upload-url, PUT and submit", calls)
			}
		})
	}
}
