package handlers_test

import (
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
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

// TestVisitorNamedOnUploadsAndDrafts checks the calls made for a visitor
// besides a submission: the upload route's upload-url, and a draft's
// saves, with the file a save uploads and the draft a later save reads
// for the files it keeps. The visitor is the socket's address.
func TestVisitorNamedOnUploadsAndDrafts(t *testing.T) {
	d := newDraftApp(t, func(appURL string) string { return appURL })
	log := &hubRequests{}
	served := d.hub.Server.Config.Handler
	d.hub.Server.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.mu.Lock()
		log.list = append(log.list, hubRequest{r.Method, r.URL.Path, r.Header.Get("X-Forwarded-For")})
		log.mu.Unlock()
		served.ServeHTTP(w, r)
	})

	rendering, route := rendered(t, &d.app, "acme/trip")
	status, ans := askUpload(t, &d.app, route, url.Values{"field": {"ticket"}, "filename": {"t.pdf"}, "size": {"5"}, "mime": {"application/pdf"}, hubclient.IdempotencyKeyField: {rendering}})
	if status != http.StatusOK || ans.Key == "" {
		t.Fatalf("upload route: %d %+v", status, ans)
	}
	_, page := d.get(t, "/trip", false)
	res, saved := d.post(t, "/hubform/acme/trip/save", false, append(formParts(page),
		part{name: "name", value: "Ada"}, part{name: "ticket", value: "%PDF-1.4 ticket", filename: "ticket.pdf"})...)
	key, _ := saved.Find("input[name=" + hubclient.DraftKeepField + "]").Attr("value")
	if res.StatusCode != http.StatusOK || key == "" {
		t.Fatalf("save: status %d, kept file %q", res.StatusCode, key)
	}
	res, _ = d.post(t, "/hubform/acme/trip/save", false, append(formParts(saved),
		part{name: "name", value: "Ada"}, part{name: hubclient.DraftKeepField, value: key})...)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("second save: status %d", res.StatusCode)
	}

	// Each call the app made for the visitor, by its route's last segment.
	named := map[string]int{}
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, r := range log.list {
		switch {
		case r.method == http.MethodGet:
		case r.forwardedFor != "127.0.0.1":
			t.Errorf("%s %s: X-Forwarded-For %q, want 127.0.0.1", r.method, r.path, r.forwardedFor)
		case r.method == http.MethodPut:
			named["PUT"]++
		default:
			named[r.method+" "+r.path[strings.LastIndex(r.path, "/")+1:]]++
		}
	}
	want := map[string]int{"POST upload-url": 2, "PUT": 1, "POST drafts": 2, "POST resume": 1}
	if !maps.Equal(named, want) {
		t.Errorf("calls naming the visitor %v, want %v", named, want)
	}
}
