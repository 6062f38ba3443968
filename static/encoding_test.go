package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/andybalholm/brotli"
)

// decode undoes a Content-Encoding.
func decode(t *testing.T, coding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch coding {
	case "":
		return body
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	default:
		t.Fatalf("unexpected Content-Encoding %q", coding)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", coding, err)
	}
	return out
}

func TestEncodings(t *testing.T) {
	tests := []struct {
		accept, want string
	}{
		{"", ""},
		{"gzip", "gzip"},
		{"br", "br"},
		{"gzip, deflate, br, zstd", "br"},
		{"GZIP", "gzip"},
		{"br;q=0, gzip", "gzip"},
		{"gzip;q=1.0, br;q=0.5", "gzip"},
		{"gzip;q=0, br;q=0", ""},
		{"deflate", ""},
		{"identity", ""},
		{"*", "br"},
		{"*;q=0.1, br;q=0", "gzip"},
		{"gzip;q=x", ""},
	}
	for name := range assets {
		want, _ := servedFile(name, sources[name])
		etags := map[string]string{}
		for _, tt := range tests {
			var header http.Header
			if tt.accept != "" {
				header = http.Header{"Accept-Encoding": {tt.accept}}
			}
			w := get(t, Handler(), "/"+URL(name), header)
			if w.Code != http.StatusOK {
				t.Fatalf("%s, Accept-Encoding %q: status %d", name, tt.accept, w.Code)
			}
			coding := w.Header().Get("Content-Encoding")
			if coding != tt.want {
				t.Errorf("%s, Accept-Encoding %q: Content-Encoding %q, want %q", name, tt.accept, coding, tt.want)
			}
			if got := w.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
				t.Errorf("%s, Accept-Encoding %q: Vary %q, want Accept-Encoding", name, tt.accept, got)
			}
			if got := decode(t, coding, w.Body.Bytes()); !bytes.Equal(got, want) {
				t.Errorf("%s, %q: decoded body (%d bytes) differs from the file (%d bytes)", name, coding, len(got), len(want))
			}
			if coding != "" && w.Body.Len() >= len(want) {
				t.Errorf("%s, %q: %d bytes, not smaller than %d", name, coding, w.Body.Len(), len(want))
			}
			if got := w.Header().Get("Content-Length"); got != "" && got != strconv.Itoa(w.Body.Len()) {
				t.Errorf("%s, %q: Content-Length %s for %d bytes", name, coding, got, w.Body.Len())
			}
			etag := w.Header().Get("ETag")
			if prev, ok := etags[coding]; ok && prev != etag {
				t.Errorf("%s, %q: ETag %s, then %s", name, coding, prev, etag)
			}
			etags[coding] = etag
		}
		seen := map[string]string{}
		for coding, etag := range etags {
			if other, ok := seen[etag]; ok {
				t.Errorf("%s: %q and %q share the ETag %s", name, coding, other, etag)
			}
			seen[etag] = coding
		}
	}
}

func TestEncodedNotModified(t *testing.T) {
	for _, coding := range []string{"gzip", "br"} {
		accept := http.Header{"Accept-Encoding": {coding}}
		first := get(t, Handler(), "/"+URL("hubform.js"), accept)
		etag := first.Header().Get("ETag")
		if first.Header().Get("Content-Encoding") != coding || etag == assets["hubform.js"].etag {
			t.Fatalf("%s: Content-Encoding %q, ETag %s; want %s and an ETag of its own", coding,
				first.Header().Get("Content-Encoding"), etag, coding)
		}
		w := get(t, Handler(), "/"+URL("hubform.js"), http.Header{"Accept-Encoding": {coding}, "If-None-Match": {etag}})
		if w.Code != http.StatusNotModified || w.Body.Len() != 0 {
			t.Errorf("%s revalidated: status %d with %d bytes, want 304 and none", coding, w.Code, w.Body.Len())
		}
		if got := w.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s: 304 with Vary %q, want Accept-Encoding", coding, got)
		}
		// The client no longer takes this encoding: its copy does not do.
		w = get(t, Handler(), "/"+URL("hubform.js"), http.Header{"If-None-Match": {etag}})
		if w.Code != http.StatusOK || w.Header().Get("Content-Encoding") != "" {
			t.Errorf("%s ETag without Accept-Encoding: status %d, Content-Encoding %q; want 200, identity",
				coding, w.Code, w.Header().Get("Content-Encoding"))
		}
	}
}

// TestCompressedOnce checks that each file is compressed once, when it is
// first served, never when loaded nor again.
func TestCompressedOnce(t *testing.T) {
	saved := compressors
	defer func() { compressors = saved }()
	calls := 0
	compressors = nil
	for _, c := range saved {
		compressors = append(compressors, struct {
			name     string
			compress func([]byte) []byte
		}{c.name, func(b []byte) []byte { calls++; return c.compress(b) }})
	}
	body := bytes.Repeat([]byte(".hubform{color:red}\n"), 50)
	set := load(fstest.MapFS{"hubform.css": {Data: body}, "hubform.js": {Data: body}})
	if calls != 0 {
		t.Fatalf("load compressed %d times, want none", calls)
	}
	get(t, set, "/hubform.js", nil)
	if calls != 2 {
		t.Fatalf("the first request compressed %d times, want 2 (1 file, 2 encodings)", calls)
	}
	for range 3 {
		for _, accept := range []string{"gzip", "br"} {
			w := get(t, set, "/hubform.css", http.Header{"Accept-Encoding": {accept}})
			if got := decode(t, w.Header().Get("Content-Encoding"), w.Body.Bytes()); !bytes.Equal(got, body) {
				t.Fatalf("%s: decoded body differs", accept)
			}
		}
	}
	if calls != 4 {
		t.Errorf("serving 6 requests compressed %d more times, want none", calls-4)
	}
}

// TestIncompressibleServedAsIs checks that a file compression would not
// shrink is sent as it is, without Vary.
func TestIncompressibleServedAsIs(t *testing.T) {
	set := load(fstest.MapFS{"hubform.js": {Data: []byte("1")}})
	w := get(t, set, "/hubform.js", http.Header{"Accept-Encoding": {"gzip, br"}})
	if w.Header().Get("Content-Encoding") != "" || w.Body.String() != "1" || w.Header().Get("Vary") != "" {
		t.Errorf("Content-Encoding %q, Vary %q, body %q; want the file as is", w.Header().Get("Content-Encoding"),
			w.Header().Get("Vary"), w.Body.String())
	}
}

// maxScriptGzip is the budget of hubform.js on the wire, gzip.
const maxScriptGzip = 4096

func TestScriptSize(t *testing.T) {
	w := get(t, Handler(), "/hubform.js", http.Header{"Accept-Encoding": {"gzip"}})
	if w.Header().Get("Content-Encoding") != "gzip" {
		t.Fatalf("hubform.js not sent gzip")
	}
	t.Logf("hubform.js: %d bytes, %d gzip", len(assets["hubform.js"].data), w.Body.Len())
	if w.Body.Len() > maxScriptGzip {
		t.Errorf("hubform.js is %d bytes gzip, over the budget of %d", w.Body.Len(), maxScriptGzip)
	}
}

// TestScriptsCompact checks what compactScript relies on: our scripts hold
// no template literal, whose lines are text, not code.
func TestScriptsCompact(t *testing.T) {
	for name, file := range sources {
		if !strings.HasPrefix(name, "hubform") || !strings.HasSuffix(name, ".js") {
			continue
		}
		data, err := files.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "`") {
			t.Errorf("%s holds a backquote: compactScript may change a template literal", name)
		}
		if served := string(assets[name].data); strings.Contains(served, "\n//") || strings.Contains(served, "\n ") {
			t.Errorf("%s is served with its comment lines or indentation", name)
		}
	}
}
