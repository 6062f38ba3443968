package hubclient_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
)

func TestFormURLEscapesEachSegment(t *testing.T) {
	for _, tc := range []struct {
		hub, site, slug, want, err string
	}{
		{hub: "https://h.example/v1", site: "acme", slug: "contact", want: "https://h.example/v1/acme/contact"},
		{hub: "https://h.example/v1/", site: "acme co", slug: "con/tact", want: "https://h.example/v1/acme%20co/con%2Ftact"},
		{hub: "https://h.example/v1", site: "a?b#c", slug: "ü", want: "https://h.example/v1/a%3Fb%23c/%C3%BC"},
		{hub: "", site: "s", slug: "f", want: hubclient.DefaultHubURL + "/s/f"},
		{hub: "https://h.example/v1", site: "..", slug: "f", err: `site "..": not a usable path segment`},
		{hub: "https://h.example/v1", site: "s", slug: "", err: `form slug "": not a usable path segment`},
		{hub: "ftp://h.example/v1", site: "s", slug: "f", err: "want an absolute http or https URL"},
		{hub: "/v1", site: "s", slug: "f", err: "want an absolute http or https URL"},
	} {
		got, err := (&hubclient.Client{HubURL: tc.hub}).FormURL(tc.site, tc.slug)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("FormURL(%q, %q, %q) error %v, want %q", tc.hub, tc.site, tc.slug, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("FormURL(%q, %q, %q) = %q, %v; want %q", tc.hub, tc.site, tc.slug, got, err, tc.want)
		}
	}
}

func TestDefaultHubURLEndsInVersion(t *testing.T) {
	if !strings.HasSuffix(hubclient.DefaultHubURL, "/v1") {
		t.Errorf("DefaultHubURL %q does not end in /v1", hubclient.DefaultHubURL)
	}
}

func TestSchemaWire(t *testing.T) {
	h := newHub(t)
	h.SetForm("acme co", "con/tact", &hubclient.Schema{Title: "Hi", Fields: []hubclient.Field{{Name: "a", Type: "text"}}})
	c := &hubclient.Client{HubURL: h.URL, UserAgent: "tester/1"}
	s, err := c.Schema(context.Background(), "acme co", "con/tact")
	if err != nil {
		t.Fatal(err)
	}
	if s.Title != "Hi" || len(s.Fields) != 1 {
		t.Errorf("schema %+v", s)
	}
	r := h.Requests()[0]
	if r.Method != "GET" || r.RequestURI != "/v1/acme%20co/con%2Ftact.json" {
		t.Errorf("request %s %s", r.Method, r.RequestURI)
	}
	if r.Header.Get("Accept") != "application/json" || r.Header.Get("User-Agent") != "tester/1" {
		t.Errorf("headers %v", r.Header)
	}
}

func TestSchemaErrors(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
		status  int
	}{
		{"not found", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "<html>\n  no such   form</html>", 404)
		}, "schema fetch failed: GET /v1/s/f.json: 404 Not Found: <html> no such form</html>", 404},
		{"hub's JSON error", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(500)
			w.Write([]byte(`{"ok":false,"error":"database down"}`))
		}, "schema fetch failed: GET /v1/s/f.json: 500 Internal Server Error: database down", 500},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("hello"))
		}, "schema fetch failed: GET /v1/s/f.json: answer is not the expected JSON", 0},
		{"too large", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(`{"title":"` + strings.Repeat("x", 5<<20) + `"}`))
		}, "answer larger than 4194304 bytes", 0},
		{"long body cut", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(502)
			w.Write([]byte(strings.Repeat("é", 1000)))
		}, strings.Repeat("é", 128) + "…", 502},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			_, err := (&hubclient.Client{HubURL: srv.URL + "/v1"}).Schema(context.Background(), "s", "f")
			var serr *hubclient.SchemaError
			if !errors.As(err, &serr) {
				t.Fatalf("error %v, want *SchemaError", err)
			}
			if msg := strings.ReplaceAll(err.Error(), srv.URL, ""); !strings.Contains(msg, tc.want) {
				t.Errorf("error %q\nwant it to contain %q", msg, tc.want)
			}
			var herr *hubclient.HubError
			if tc.status != 0 && (!errors.As(err, &herr) || herr.StatusCode != tc.status) {
				t.Errorf("status %+v, want %d", herr, tc.status)
			}
		})
	}
}

func TestSchemaUnreachableHub(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	_, err := (&hubclient.Client{HubURL: srv.URL + "/v1"}).Schema(context.Background(), "s", "f")
	if err == nil || !strings.HasPrefix(err.Error(), "schema fetch failed: GET "+srv.URL+"/v1/s/f.json: ") {
		t.Errorf("error %v", err)
	}
}

func TestUploadURLWire(t *testing.T) {
	h := newHub(t)
	c := &hubclient.Client{HubURL: h.URL}
	res, err := c.UploadURL(context.Background(), "acme", "contact", hubclient.UploadURLRequest{Filename: "a b.pdf", Size: 1234, MIME: "application/pdf"})
	if err != nil || !res.OK || res.UploadURL == "" || !strings.HasPrefix(res.Key, "uploads/acme/contact/") {
		t.Fatalf("%+v, %v", res, err)
	}
	r := h.Requests()[0]
	if r.Method != "POST" || r.RequestURI != "/v1/acme/contact/upload-url" || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("request %s %s %v", r.Method, r.RequestURI, r.Header)
	}
	if string(r.Body) != `{"filename":"a b.pdf","size":1234,"mime":"application/pdf"}` {
		t.Errorf("body %s", r.Body)
	}
}

func TestUploadURLIncompleteAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`{"ok":true,"key":"k"}`))
	}))
	defer srv.Close()
	_, err := (&hubclient.Client{HubURL: srv.URL}).UploadURL(context.Background(), "s", "f", hubclient.UploadURLRequest{Filename: "x"})
	if err == nil || err.Error() != `upload-url failed: "x": answer lacks uploadUrl` {
		t.Errorf("error %v", err)
	}
}

func TestPutWire(t *testing.T) {
	var got struct {
		method, uri, ctype, body string
		length                   int64
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.method, got.uri, got.ctype, got.length, got.body = r.Method, r.RequestURI, r.Header.Get("Content-Type"), r.ContentLength, string(b)
	}))
	defer srv.Close()
	c := &hubclient.Client{}
	if err := c.Put(context.Background(), srv.URL+"/bucket/k%2Fey?X-Amz-Signature=abc&X-Amz-Expires=60", memFile("a.csv", "text/csv", "a,b\n1,2\n")); err != nil {
		t.Fatal(err)
	}
	if got.method != "PUT" || got.uri != "/bucket/k%2Fey?X-Amz-Signature=abc&X-Amz-Expires=60" || got.ctype != "text/csv" || got.length != 8 || got.body != "a,b\n1,2\n" {
		t.Errorf("PUT %+v", got)
	}
	if err := c.Put(context.Background(), srv.URL+"/empty", memFile("e", "", "")); err != nil || got.length != 0 || got.ctype != "application/octet-stream" {
		t.Errorf("empty file: %v, %+v", err, got)
	}
}

func TestPutRefusesWrongSize(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer srv.Close()
	liar := hubclient.NewFile("liar.txt", "text/plain", 10, memFile("", "", "short").Open)
	err := (&hubclient.Client{}).Put(context.Background(), srv.URL, liar)
	var uerr *hubclient.UploadError
	if !errors.As(err, &uerr) || !strings.Contains(err.Error(), "ContentLength=10 with Body length 5") {
		t.Errorf("error %v", err)
	}
}

func TestSubmitWireAndOKFalse(t *testing.T) {
	h := newHub(t)
	c := &hubclient.Client{HubURL: h.URL}
	req := &hubclient.SubmitRequest{Payload: map[string]any{"a": 1}, Honeypots: map[string]string{"_hp": ""}}
	res, err := c.Submit(context.Background(), "acme", "contact", req)
	if err != nil || !res.OK || res.SubmissionID == "" {
		t.Fatalf("%+v %v", res, err)
	}
	body := h.Requests()[0].Body
	if string(body) != `{"payload":{"a":1},"_hp":""}` {
		t.Errorf("body %s", body)
	}
}

func TestSchemaIfNoneMatch(t *testing.T) {
	version, sent := `"v1"`, make(chan string, 8)
	hub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent <- r.Header.Get("If-None-Match")
		w.Header().Set("ETag", version)
		if r.Header.Get("If-None-Match") == version {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"title":"Form `+strings.Trim(version, `"`)+`","fields":[],"steps":[]}`)
	}))
	defer hub.Close()
	c := &hubclient.Client{HubURL: hub.URL}
	fetch := func(etag, wantSent, wantTitle, wantETag string) {
		t.Helper()
		s, got, err := c.SchemaIfNoneMatch(context.Background(), "acme", "contact", etag)
		if err != nil {
			t.Fatal(err)
		}
		if h := <-sent; h != wantSent {
			t.Errorf("If-None-Match %q, want %q", h, wantSent)
		}
		switch {
		case wantTitle == "" && s != nil:
			t.Errorf("schema %+v, want none: not modified", s)
		case wantTitle != "" && (s == nil || s.Title != wantTitle):
			t.Errorf("schema %+v, want %q", s, wantTitle)
		}
		if got != wantETag {
			t.Errorf("ETag %q, want %q", got, wantETag)
		}
	}
	fetch("", "", "Form v1", `"v1"`)
	fetch(`"v1"`, `"v1"`, "", `"v1"`)
	version = `"v2"`
	fetch(`"v1"`, `"v1"`, "Form v2", `"v2"`)
}
