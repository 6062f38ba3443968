package hosted_test

import (
	"bytes"
	"compress/gzip"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
)

// TestEmbedPage shows a form's page in frame mode: the form without the
// page's heading, on a transparent background, with the frame script
// under the page's nonce, told the host's origin when it is one.
func TestEmbedPage(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())

	a := h.get("/f/acme/newsletter?embed=1&origin=" + url.QueryEscape("https://www.acme.example"))
	if a.status != http.StatusOK {
		t.Fatalf("embed page: %d", a.status)
	}
	if a.doc.Find("h1.hosted-title").Length() != 0 || a.doc.Find("main.hosted-frame .hubform").Length() != 1 {
		t.Errorf("embed page's chrome: %s", a.body)
	}
	if !strings.Contains(a.body, "background:transparent") {
		t.Error("embed page: background not transparent")
	}
	src, nonce := a.attr("script[data-origin]", "src"), a.attr("script[data-origin]", "nonce")
	if !strings.HasPrefix(src, "/f/hubform-embed-frame.js?v=") || nonce == "" || !strings.Contains(a.header.Get("Content-Security-Policy"), "'nonce-"+nonce+"'") {
		t.Errorf("frame script %q, nonce %q, policy %q", src, nonce, a.header.Get("Content-Security-Policy"))
	}
	if o := a.attr("script[data-origin]", "data-origin"); o != "https://www.acme.example" {
		t.Errorf("host origin %q", o)
	}
	if c := a.header.Values("Set-Cookie"); len(c) != 0 {
		t.Errorf("embed page sets cookies %q", c)
	}
	js := h.get(src)
	if js.status != http.StatusOK || !strings.HasPrefix(js.header.Get("Content-Type"), "text/javascript") || !strings.Contains(js.header.Get("Cache-Control"), "immutable") {
		t.Errorf("frame script: %d %q %q", js.status, js.header.Get("Content-Type"), js.header.Get("Cache-Control"))
	}

	// What is not an origin is not posted to.
	for _, bad := range []string{"*", "javascript:alert(1)", "https://evil.example/path", "https://a@evil.example", "//evil.example", "https://evil.example?x=1"} {
		a := h.get("/f/acme/newsletter?embed=1&origin=" + url.QueryEscape(bad))
		if o := a.attr("script[data-origin]", "data-origin"); o != "" {
			t.Errorf("origin %q taken as %q", bad, o)
		}
	}

	// Without embed=1 the page is the page.
	a = h.get("/f/acme/newsletter")
	if a.doc.Find("h1.hosted-title").Length() != 1 || a.doc.Find("script[data-origin]").Length() != 0 {
		t.Errorf("page outside a frame: %s", a.body)
	}
}

// TestEmbedPostNamesSubmission posts a form with htmx, as in a frame: the
// answer names the stored submission, for the frame script, and neither
// sets nor needs a cookie.
func TestEmbedPostNamesSubmission(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	a := h.post("/hubform/acme/newsletter/submit", url.Values{"email": {"jo@example.com"}}, "HX-Request: true")
	subs := h.Submissions()
	if a.status != http.StatusOK || len(subs) != 1 {
		t.Fatalf("post: %d, %d stored\n%s", a.status, len(subs), a.body)
	}
	if got := a.header.Get("Hubform-Submission"); got == "" || got != subs[0].ID {
		t.Errorf("Hubform-Submission %q, stored %q", got, subs[0].ID)
	}
	if c := a.header.Values("Set-Cookie"); len(c) != 0 {
		t.Errorf("post sets cookies %q", c)
	}
	// A refused post names none.
	a = h.post("/hubform/acme/newsletter/submit", url.Values{"email": {""}}, "HX-Request: true")
	if got := a.header.Get("Hubform-Submission"); got != "" {
		t.Errorf("refused post names submission %q", got)
	}
}

// TestEmbedScript serves embed.js to any site: JavaScript, cached for a
// day and then revalidated, under 3 KiB compressed.
func TestEmbedScript(t *testing.T) {
	t.Parallel()
	h := startHub(t, testForms())
	a := h.get("/embed.js")
	if a.status != http.StatusOK || !strings.HasPrefix(a.header.Get("Content-Type"), "text/javascript") {
		t.Fatalf("embed.js: %d %q", a.status, a.header.Get("Content-Type"))
	}
	if cc := a.header.Get("Cache-Control"); !strings.Contains(cc, "max-age=86400") {
		t.Errorf("embed.js Cache-Control %q", cc)
	}
	if a.header.Get("ETag") == "" || a.header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("embed.js headers %v", a.header)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write([]byte(a.body))
	zw.Close()
	if buf.Len() > 3<<10 {
		t.Errorf("embed.js is %d bytes gzipped, over 3 KiB", buf.Len())
	}
	if strings.Contains(a.body, "// ") {
		t.Error("embed.js is served with its comments")
	}
	// Served without the lines that are comments alone, which holds
	// for scripts without template literals.
	for _, name := range []string{"assets/embed.js", "assets/embed-frame.js"} {
		if data, err := os.ReadFile(name); err != nil || strings.Contains(string(data), "`") {
			t.Errorf("%s holds a template literal (%v)", name, err)
		}
	}
	if !strings.Contains(a.body, "event.origin !== hub") {
		t.Error("embed.js does not check the origin of messages")
	}
}
