package static

import (
	"bytes"
	"encoding/json"
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
		{"/hubform-upload.js", "text/javascript; charset=utf-8"},
		{"/htmx.min.js", "text/javascript; charset=utf-8"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
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

// servedFile returns what the handler serves for file, under name: the
// file, or our scripts without their comment lines.
func servedFile(name, file string) ([]byte, error) {
	data, err := files.ReadFile(file)
	if err == nil && strings.HasPrefix(name, "hubform") && strings.HasSuffix(name, ".js") {
		data = []byte(compactScript(string(data)))
	}
	return data, err
}

func TestBodiesMatchFiles(t *testing.T) {
	for name, file := range sources {
		want, err := servedFile(name, file)
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

// TestHTMXIsThePinnedPackage keeps the committed dist/htmx.min.js checkable
// against the npm registry: the lock pins the package's tarball by its
// integrity, npm ci verifies it and unpacks it into node_modules, and the
// committed file must be that package's file, byte for byte, of the
// version the lock names. make test sets HUBFORM_REQUIRE_ASSETS=1, so that
// a missing node_modules fails rather than skips.
func TestHTMXIsThePinnedPackage(t *testing.T) {
	committed, err := files.ReadFile("dist/htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	locked := lockedVersion(t, "htmx.org")
	m := regexp.MustCompile(`version:"([^"]+)"`).FindSubmatch(committed)
	if m == nil {
		t.Fatal("dist/htmx.min.js names no version")
	}
	if got := string(m[1]); got != locked {
		t.Errorf("dist/htmx.min.js is htmx %s, package-lock.json pins %s: run make assets", got, locked)
	}
	// hubform.js relies on the events and config of htmx 2.
	if !strings.HasPrefix(locked, "2.") {
		t.Errorf("package-lock.json pins htmx %s; hubform.js needs htmx 2", locked)
	}

	unpacked, err := os.ReadFile("node_modules/htmx.org/dist/htmx.min.js")
	if os.IsNotExist(err) && os.Getenv("HUBFORM_REQUIRE_ASSETS") != "1" {
		t.Skip("static/node_modules is missing: run make deps to compare the copy with the package")
	}
	if err != nil {
		t.Fatalf("%v: run make deps", err)
	}
	var pkg struct{ Version string }
	if data, err := os.ReadFile("node_modules/htmx.org/package.json"); err != nil || json.Unmarshal(data, &pkg) != nil || pkg.Version != locked {
		t.Fatalf("node_modules holds htmx.org %q, the lock pins %s: run make deps", pkg.Version, locked)
	}
	if !bytes.Equal(committed, unpacked) {
		t.Errorf("dist/htmx.min.js (%d bytes) differs from the file of the npm package htmx.org %s (%d bytes): run make assets and commit it",
			len(committed), locked, len(unpacked))
	}
}

// lockedVersion returns the version of the npm package name that
// package-lock.json pins.
func lockedVersion(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("package-lock.json")
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct{ Version string }
	}
	if err := json.Unmarshal(data, &lock); err != nil {
		t.Fatalf("package-lock.json: %v", err)
	}
	v := lock.Packages["node_modules/"+name].Version
	if v == "" {
		t.Fatalf("package-lock.json pins no %s", name)
	}
	return v
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
