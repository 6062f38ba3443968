package hubclient_test

import (
	"bytes"
	"crypto/sha256"
	"io"
	"strings"
	"testing"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

// memFile returns an in-memory File.
func memFile(name, mime, body string) hubclient.File {
	return hubclient.NewFile(name, mime, int64(len(body)), func() (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(body)), nil
	})
}

func newHub(t testing.TB) *fakehub.Hub {
	t.Helper()
	h := fakehub.NewServer()
	t.Cleanup(h.Close)
	return h
}

func submitter(h *fakehub.Hub, opts hubclient.SubmitOptions) hubclient.SubmitConfig {
	opts.HubURL = h.URL
	if opts.SiteID == "" {
		opts.SiteID, opts.FormSlug = "acme", "contact"
	}
	return hubclient.NewSubmit(opts)
}

// assertStored checks that the hub stored exactly body under key.
func assertStored(t *testing.T, h *fakehub.Hub, key, mime, body string) {
	t.Helper()
	u, ok := h.Upload(key)
	if !ok || !u.Stored {
		t.Fatalf("upload %q not stored", key)
	}
	if u.ContentType != mime || u.Size != int64(len(body)) || u.SHA256 != sha256.Sum256([]byte(body)) {
		t.Errorf("upload %q stored as %s, %d bytes, sha %x; want %s, %d bytes, the same bytes", key, u.ContentType, u.Size, u.SHA256, mime, len(body))
	}
}

func requestsTo(h *fakehub.Hub, suffix string) []fakehub.Request {
	var out []fakehub.Request
	for _, r := range h.Requests() {
		if strings.HasSuffix(strings.SplitN(r.RequestURI, "?", 2)[0], suffix) {
			out = append(out, r)
		}
	}
	return out
}

func containsAny(body []byte, needles ...string) bool {
	for _, n := range needles {
		if bytes.Contains(body, []byte(n)) {
			return true
		}
	}
	return false
}

func readCloser(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }
