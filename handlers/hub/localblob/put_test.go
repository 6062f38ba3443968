package localblob

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

const testKey = "uploads/acme/contact/0123456789abcdef01234567/report.pdf"

func TestPutRoundTrip(t *testing.T) {
	h := newTestHub(t, testSecret)
	body := make([]byte, 300<<10)
	rand.Read(body)
	u := h.expect(t, testKey, "application/pdf", int64(len(body)))

	f := hubclient.NewFile("report.pdf", "application/pdf", int64(len(body)), func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(body)), nil
	})
	if err := (&hubclient.Client{}).Put(context.Background(), u, f); err != nil {
		t.Fatal(err)
	}

	size, ct, err := h.store.Attributes(context.Background(), testKey)
	if err != nil {
		t.Fatal(err)
	}
	if size != int64(len(body)) || ct != "application/pdf" {
		t.Errorf("Attributes = %d, %q; want %d, application/pdf", size, ct, len(body))
	}
	r, err := h.store.NewReader(context.Background(), testKey)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("read back %d bytes (err %v), want the %d bytes sent", len(got), err, len(body))
	}
	if at := h.uploads.get(testKey).UploadedAt; !at.Equal(h.clock.Now()) {
		t.Errorf("UploadedAt %v, want the store's now %v", at, h.clock.Now())
	}
	for _, f := range files(t, h.dir) {
		if strings.HasSuffix(f, ".tmp") {
			t.Errorf("temporary file %s left", f)
		}
	}

	// The same URL again: the record is uploaded now.
	res := put(t, u, "application/pdf", int64(len(body)), body)
	wantRefusal(t, res, http.StatusConflict, "already uploaded")
}

func TestPutSuccessAnswer(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "text/plain; charset=utf-8", 5)
	res := put(t, u, "text/plain; charset=utf-8", 5, []byte("hello"))
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK || len(data) != 0 {
		t.Fatalf("answer %d %q, want 200 and no body", res.StatusCode, data)
	}
	_, ct, err := h.store.Attributes(context.Background(), testKey)
	if err != nil || ct != "text/plain; charset=utf-8" {
		t.Errorf("type %q (err %v), want text/plain; charset=utf-8", ct, err)
	}
}

func TestPutEmptyFile(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "text/plain", 0)
	f := hubclient.NewFile("empty.txt", "text/plain", 0, func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("")), nil })
	if err := (&hubclient.Client{}).Put(context.Background(), u, f); err != nil {
		t.Fatal(err)
	}
	if size, _, err := h.store.Attributes(context.Background(), testKey); err != nil || size != 0 {
		t.Errorf("Attributes = %d, %v; want 0, nil", size, err)
	}
}

func TestPutRefusals(t *testing.T) {
	body := []byte("%PDF-1.7 not really")
	n := int64(len(body))
	tests := []struct {
		name   string
		setup  func(h *testHub, u string) string // returns the URL to use
		ct     string
		length int64
		body   []byte
		status int
		want   string
	}{
		{name: "no record", setup: func(h *testHub, u string) string {
			u2, _ := h.store.SignedPutURL(context.Background(), hub.Upload{Key: testKey + "x"}, time.Minute)
			return u2
		}, status: http.StatusNotFound, want: "no upload"},
		{name: "already uploaded", setup: func(h *testHub, u string) string {
			rec := h.uploads.get(testKey)
			rec.UploadedAt = h.clock.Now()
			h.uploads.put(rec)
			return u
		}, status: http.StatusConflict, want: "already uploaded"},
		{name: "claimed", setup: func(h *testHub, u string) string {
			rec := h.uploads.get(testKey)
			rec.SubmissionID = "01J0000000000000000000000"
			h.uploads.put(rec)
			return u
		}, status: http.StatusConflict, want: "submitted"},
		{name: "record expired", setup: func(h *testHub, u string) string {
			rec := h.uploads.get(testKey)
			rec.ExpiresAt = h.clock.Now().Add(-time.Second)
			h.uploads.put(rec)
			return u
		}, status: http.StatusForbidden, want: "expired"},
		{name: "wrong type", ct: "image/png", status: http.StatusUnsupportedMediaType, want: `"image/png" does not match`},
		{name: "type with other case", ct: "Application/PDF", status: http.StatusUnsupportedMediaType, want: "does not match"},
		{name: "no type", ct: "-", status: http.StatusUnsupportedMediaType, want: "does not match"},
		{name: "chunked", length: -1, status: http.StatusLengthRequired, want: "Content-Length is required"},
		{name: "larger", length: n + 1, body: append(append([]byte{}, body...), 'x'), status: http.StatusRequestEntityTooLarge, want: "larger"},
		{name: "smaller", length: n - 1, body: body[:n-1], status: http.StatusBadRequest, want: "smaller"},
		{name: "no signature", setup: func(h *testHub, u string) string {
			return h.putURL + "?obj=" + url.QueryEscape(testKey)
		}, status: http.StatusForbidden, want: "not signed"},
		{name: "no query", setup: func(h *testHub, u string) string { return h.putURL }, status: http.StatusForbidden, want: "not signed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHub(t, testSecret)
			u := h.expect(t, testKey, "application/pdf", n)
			if tt.setup != nil {
				u = tt.setup(h, u)
			}
			ct, length, b := tt.ct, tt.length, tt.body
			switch ct {
			case "":
				ct = "application/pdf"
			case "-":
				ct = ""
			}
			if length == 0 {
				length = n
			}
			if b == nil {
				b = body
			}
			wantRefusal(t, put(t, u, ct, length, b), tt.status, tt.want)
			h.wantNoTrace(t, testKey)
		})
	}
}

func TestPutMethodNotAllowed(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "application/pdf", 3)
	for _, method := range []string{http.MethodGet, http.MethodPost, http.MethodDelete, http.MethodPatch} {
		req, _ := http.NewRequest(method, u, strings.NewReader("abc"))
		req.Header.Set("Content-Type", "application/pdf")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if allow := res.Header.Get("Allow"); allow != http.MethodPut {
			t.Errorf("%s: Allow %q, want PUT", method, allow)
		}
		wantRefusal(t, res, http.StatusMethodNotAllowed, "PUT")
	}
	h.wantNoTrace(t, testKey)
}

func TestPutNoContentLength(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "application/pdf", 3)
	// No Content-Length and no Transfer-Encoding: net/http sees an empty body.
	res := rawPut(t, h.srv, u, "Content-Type: application/pdf\r\n", nil)
	wantRefusal(t, res, http.StatusLengthRequired, "Content-Length is required")
	h.wantNoTrace(t, testKey)
}

func TestPutExpired(t *testing.T) {
	h := newTestHub(t, testSecret)
	h.uploads.put(hub.Upload{Key: testKey, MIME: "text/plain", Size: 3})
	u, err := h.store.SignedPutURL(context.Background(), hub.Upload{Key: testKey}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// The last second of the URL's life still works: check with a URL of
	// another key, so this one stays unused.
	h.clock.Add(time.Minute)
	if res := put(t, u, "text/plain", 2, []byte("ab")); res.StatusCode != http.StatusBadRequest {
		t.Fatalf("at expiry: status %d, want 400 from the size check", res.StatusCode)
	}
	h.clock.Add(time.Second)
	wantRefusal(t, put(t, u, "text/plain", 3, []byte("abc")), http.StatusForbidden, "expired")
	h.wantNoTrace(t, testKey)
}

func TestPutBodyCutShort(t *testing.T) {
	h := newTestHub(t, testSecret)
	// Large enough that part of the body reaches the bucket before the end.
	const size = 1 << 20
	u := h.expect(t, testKey, "application/pdf", size)
	res := rawPut(t, h.srv, u, fmt.Sprintf("Content-Type: application/pdf\r\nContent-Length: %d\r\n", size), make([]byte, size/2))
	wantRefusal(t, res, http.StatusBadRequest, "reading the body failed after 524288 of 1048576 bytes")
	h.wantNoTrace(t, testKey)
}

// TestPutBodyLonger sends a body longer than its Content-Length straight to
// the handler: over HTTP, net/http itself stops at Content-Length.
func TestPutBodyLonger(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "application/pdf", 4)
	req := httptest.NewRequest(http.MethodPut, u, strings.NewReader("12345678"))
	req.Header.Set("Content-Type", "application/pdf")
	req.Header.Set("Content-Length", "4")
	req.ContentLength = 4
	rec := httptest.NewRecorder()
	h.store.PutHandler(h.uploads).ServeHTTP(rec, req)
	wantRefusal(t, rec.Result(), http.StatusRequestEntityTooLarge, "longer")
	h.wantNoTrace(t, testKey)
}

func TestPutCancelled(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "application/pdf", 4)
	ctx, cancel := context.WithCancel(context.Background())
	// The whole body arrives, but the request is cancelled meanwhile.
	req := httptest.NewRequestWithContext(ctx, http.MethodPut, u, readerFunc(func(p []byte) (int, error) {
		cancel()
		return copy(p, "1234"), io.EOF
	}))
	req.Header.Set("Content-Type", "application/pdf")
	req.Header.Set("Content-Length", "4")
	req.ContentLength = 4
	rec := httptest.NewRecorder()
	h.store.PutHandler(h.uploads).ServeHTTP(rec, req)
	wantRefusal(t, rec.Result(), http.StatusRequestTimeout, "cancelled")
	h.wantNoTrace(t, testKey)
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

func TestPutMarkUploadedFails(t *testing.T) {
	tests := []struct {
		err    error
		status int
	}{
		{errors.New("database is locked"), http.StatusInternalServerError},
		{fmt.Errorf("claim: %w", hub.ErrUploadClaim), http.StatusConflict},
		{fmt.Errorf("gone: %w", hub.ErrNotFound), http.StatusConflict},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			h := newTestHub(t, testSecret)
			u := h.expect(t, testKey, "application/pdf", 3)
			h.uploads.markErr = tt.err
			res := put(t, u, "application/pdf", 3, []byte("abc"))
			wantRefusal(t, res, tt.status, "")
			h.wantNoTrace(t, testKey)
		})
	}
}

func TestPutObjectAlreadyThere(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "text/plain", 3)
	writeObject(t, h.store, testKey, "text/plain", "old")
	wantRefusal(t, put(t, u, "text/plain", 3, []byte("new")), http.StatusConflict, "already uploaded")
	r, _ := h.store.NewReader(context.Background(), testKey)
	got, _ := io.ReadAll(r)
	r.Close()
	if string(got) != "old" {
		t.Errorf("object holds %q, want it untouched", got)
	}
}

func TestPutInProgress(t *testing.T) {
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "text/plain", 3)
	if !h.store.claim(testKey) {
		t.Fatal("claim failed")
	}
	wantRefusal(t, put(t, u, "text/plain", 3, []byte("abc")), http.StatusConflict, "in progress")
	h.store.release(testKey)
	if res := put(t, u, "text/plain", 3, []byte("abc")); res.StatusCode != http.StatusOK {
		t.Errorf("after release: status %d, want 200", res.StatusCode)
	}
}
