package static

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func get(t *testing.T, h http.Handler, target string, header http.Header) *httptest.ResponseRecorder {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func TestContentTypes(t *testing.T) {
	tests := []struct {
		path, want string
	}{
		{"/hubform.css", "text/css; charset=utf-8"},
		{"/hubform.js", "text/javascript; charset=utf-8"},
		{"/htmx.min.js", "text/javascript; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			if tt.path == "/htmx.min.js" && !HasHTMX() {
				t.Skip("htmx.min.js not embedded; run make assets")
			}
			w := get(t, Handler(), tt.path, nil)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d, want 200", w.Code)
			}
			if got := w.Header().Get("Content-Type"); got != tt.want {
				t.Errorf("Content-Type %q, want %q", got, tt.want)
			}
			if got := w.Header().Get("X-Content-Type-Options"); got != "nosniff" {
				t.Errorf("X-Content-Type-Options %q, want nosniff", got)
			}
			if w.Body.Len() == 0 {
				t.Error("empty body")
			}
		})
	}
}

func TestBodiesMatchFiles(t *testing.T) {
	for name, file := range sources {
		want, err := files.ReadFile(file)
		if err != nil {
			continue
		}
		w := get(t, Handler(), "/"+name, nil)
		if !bytes.Equal(w.Body.Bytes(), want) {
			t.Errorf("/%s: body differs from %s", name, file)
		}
	}
}

func TestCaching(t *testing.T) {
	versioned := URL("hubform.js")
	tests := []struct {
		name, target, want string
	}{
		{"current version", "/" + versioned, immutable},
		{"no version", "/hubform.js", "no-cache"},
		{"old version", "/hubform.js?v=00000000", "no-cache"},
		{"version of another file", "/hubform.js?v=" + assets["hubform.css"].version, "no-cache"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := get(t, Handler(), tt.target, nil)
			if w.Code != http.StatusOK {
				t.Fatalf("status %d, want 200", w.Code)
			}
			if got := w.Header().Get("Cache-Control"); got != tt.want {
				t.Errorf("Cache-Control %q, want %q", got, tt.want)
			}
			if got := w.Header().Get("ETag"); got != assets["hubform.js"].etag {
				t.Errorf("ETag %q, want %q", got, assets["hubform.js"].etag)
			}
		})
	}
}

func TestNotModified(t *testing.T) {
	etag := get(t, Handler(), "/hubform.css", nil).Header().Get("ETag")
	if !regexp.MustCompile(`^"[0-9a-f]{32}"$`).MatchString(etag) {
		t.Fatalf("ETag %q, want a quoted content hash", etag)
	}
	w := get(t, Handler(), "/"+URL("hubform.css"), http.Header{"If-None-Match": {etag}})
	if w.Code != http.StatusNotModified {
		t.Fatalf("status %d, want 304", w.Code)
	}
	if w.Body.Len() != 0 {
		t.Errorf("304 with a body of %d bytes", w.Body.Len())
	}
	if got := w.Header().Get("Cache-Control"); got != immutable {
		t.Errorf("Cache-Control %q on 304, want %q", got, immutable)
	}

	w = get(t, Handler(), "/hubform.css", http.Header{"If-None-Match": {`"0123"`}})
	if w.Code != http.StatusOK {
		t.Errorf("stale ETag: status %d, want 200", w.Code)
	}
}

func TestNotFound(t *testing.T) {
	for _, p := range []string{
		"/", "/dist/", "/dist", "/dist/README.md", "/README.md", "/dist/htmx.min.js",
		"/static.go", "/hubform.css/", "/HUBFORM.CSS", "/../hubform.css", "/nope.js",
	} {
		if w := get(t, Handler(), p, nil); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", p, w.Code)
		}
	}
}

func TestMethodNotAllowed(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "/hubform.css", strings.NewReader("x"))
	w := httptest.NewRecorder()
	Handler().ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed || w.Header().Get("Allow") != "GET, HEAD" {
		t.Errorf("POST: status %d, Allow %q; want 405 and GET, HEAD", w.Code, w.Header().Get("Allow"))
	}
}

func TestURL(t *testing.T) {
	for name := range assets {
		got := URL(name)
		if !regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `\?v=[0-9a-f]{8}$`).MatchString(got) {
			t.Errorf("URL(%q) = %q, want %s?v= and 8 hex digits", name, got, name)
		}
	}
	if got := URL("other.js"); got != "other.js" {
		t.Errorf("URL of an unknown name = %q, want it unchanged", got)
	}
}

func TestContentHash(t *testing.T) {
	a, b := contentHash([]byte("body{color:red}")), contentHash([]byte("body{color:blue}"))
	if a == b {
		t.Errorf("two contents hash alike: %q", a)
	}
	if a != contentHash([]byte("body{color:red}")) {
		t.Error("the hash of one content changes")
	}
	if len(a) != 8 {
		t.Errorf("hash %q, want 8 hex digits", a)
	}
}

func TestURLChangesWithContent(t *testing.T) {
	v1 := load(fstest.MapFS{"hubform.css": {Data: []byte("a{}")}})
	v2 := load(fstest.MapFS{"hubform.css": {Data: []byte("b{}")}})
	if v1.url("hubform.css") == v2.url("hubform.css") {
		t.Errorf("URL %q did not change with the content", v1.url("hubform.css"))
	}
}

func TestWithoutHTMX(t *testing.T) {
	set := load(fstest.MapFS{
		"hubform.css":    {Data: []byte("a{}")},
		"hubform.js":     {Data: []byte("1")},
		"dist/README.md": {Data: []byte("filled at build time")},
	})
	if _, ok := set["htmx.min.js"]; ok {
		t.Fatal("htmx.min.js served though not embedded")
	}
	if w := get(t, set, "/htmx.min.js", nil); w.Code != http.StatusNotFound {
		t.Errorf("GET /htmx.min.js: status %d, want 404", w.Code)
	}
	if got := set.url("htmx.min.js"); got != "htmx.min.js" {
		t.Errorf("url = %q, want the bare name", got)
	}
}

// TestHTMXEmbedded fails a build that should carry htmx but does not; make test
// sets HUBFORM_REQUIRE_ASSETS=1.
func TestHTMXEmbedded(t *testing.T) {
	if !HasHTMX() {
		if os.Getenv("HUBFORM_REQUIRE_ASSETS") == "1" {
			t.Fatal("static/dist/htmx.min.js is missing: run make assets")
		}
		t.Skip("htmx.min.js not embedded; run make assets (HUBFORM_REQUIRE_ASSETS=1 makes this fail)")
	}
	// hubform.js relies on the events and config of htmx 2; a copy left over
	// from another major version would not work with it.
	if !bytes.Contains(assets["htmx.min.js"].data, []byte(`version:"2.`)) {
		t.Error("htmx.min.js is not htmx 2; run make assets")
	}
}

func TestStylesheetIsHubformCSSWithoutComments(t *testing.T) {
	css := string(assets["hubform.css"].data)
	got := Stylesheet()
	if strings.Contains(got, "/*") || len(got) >= len(css) {
		t.Errorf("the inline stylesheet is %d of hubform.css's %d bytes, or keeps comments", len(got), len(css))
	}
	// Token for token the same: only comments and whitespace went.
	tokens := func(s string) []string { return strings.Fields(cssComment.ReplaceAllString(s, " ")) }
	if !slices.Equal(tokens(got), tokens(css)) {
		t.Error("the inline stylesheet differs from hubform.css in more than comments and whitespace")
	}
}
