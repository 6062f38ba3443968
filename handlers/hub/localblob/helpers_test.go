package localblob

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

var testSecret = []byte("0123456789abcdef0123456789abcdef")

// fakeUploads is an in-memory Uploads.
type fakeUploads struct {
	mu      sync.Mutex
	recs    map[string]hub.Upload
	markErr error
	marked  int
}

func (f *fakeUploads) Upload(_ context.Context, key string) (hub.Upload, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	rec, ok := f.recs[key]
	if !ok {
		return hub.Upload{}, fmt.Errorf("upload %q: %w", key, hub.ErrNotFound)
	}
	return rec, nil
}

func (f *fakeUploads) MarkUploaded(_ context.Context, key string, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.markErr != nil {
		return f.markErr
	}
	rec, ok := f.recs[key]
	if !ok {
		return hub.ErrNotFound
	}
	rec.UploadedAt = at
	f.recs[key] = rec
	f.marked++
	return nil
}

func (f *fakeUploads) put(rec hub.Upload) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.recs[rec.Key] = rec
}

func (f *fakeUploads) get(key string) hub.Upload {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.recs[key]
}

// testHub is a Store served over real HTTP.
type testHub struct {
	store   *Store
	srv     *httptest.Server
	uploads *fakeUploads
	clock   *testkit.Clock
	dir     string
	putURL  string
}

// newTestHub opens a Store on a fresh directory and serves its PutHandler at
// /v1/_uploads. The Store's clock is set to the present second.
func newTestHub(t *testing.T, secret []byte) *testHub {
	t.Helper()
	h := &testHub{
		uploads: &fakeUploads{recs: map[string]hub.Upload{}},
		clock:   testkit.NewClock(time.Now().Truncate(time.Second)),
		dir:     filepath.Join(t.TempDir(), "blobs"),
	}
	var handler http.Handler
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/_uploads", func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) })
	h.srv = httptest.NewServer(mux)
	t.Cleanup(h.srv.Close)
	h.putURL = h.srv.URL + "/v1/_uploads"
	st, err := Open(context.Background(), h.dir, h.putURL, secret)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	st.now = h.clock.Now
	st.log = slog.New(slog.DiscardHandler)
	h.store = st
	handler = st.PutHandler(h.uploads)
	return h
}

// expect records an upload of key and returns a URL signed for it.
func (h *testHub) expect(t *testing.T, key, mime string, size int64) string {
	t.Helper()
	now := h.clock.Now()
	h.uploads.put(hub.Upload{Key: key, Site: "acme", Slug: "contact", Filename: "f", MIME: mime, Size: size,
		CreatedAt: now, ExpiresAt: now.Add(5 * time.Minute)})
	u, err := h.store.SignedPutURL(context.Background(), hub.Upload{Key: key}, 5*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// put sends a PUT with the given Content-Type and body; a length of -1
// sends the body chunked.
func put(t *testing.T, rawURL, contentType string, length int64, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, rawURL, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if length < 0 {
		req.Body = io.NopCloser(bytes.NewReader(body))
	}
	req.ContentLength = length
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// rawPut writes request head and body to a new connection, half-closes it
// and reads the answer: the way to send what net/http's client will not,
// such as a body shorter than its Content-Length or no Content-Length.
func rawPut(t *testing.T, srv *httptest.Server, rawURL string, header string, body []byte) *http.Response {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(conn, "PUT %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n%s\r\n", u.RequestURI(), u.Host, header)
	conn.Write(body)
	conn.(*net.TCPConn).CloseWrite()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// wantRefusal checks a refusal's status and its JSON body, and that the
// message contains want.
func wantRefusal(t *testing.T, res *http.Response, status int, want string) {
	t.Helper()
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d; body %s", res.StatusCode, status, data)
	}
	if ct := res.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type %q, want application/json", ct)
	}
	var answer struct {
		OK    *bool  `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(data, &answer); err != nil {
		t.Fatalf("body %s: %v", data, err)
	}
	if answer.OK == nil || *answer.OK || answer.Error == "" {
		t.Errorf("body %s, want ok false and an error", data)
	}
	if !strings.Contains(strings.ToLower(answer.Error), strings.ToLower(want)) {
		t.Errorf("error %q, want it to mention %q", answer.Error, want)
	}
}

// files lists every file and directory under dir, relative and
// slash-separated, directories with a trailing slash.
func files(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			rel += "/"
		}
		out = append(out, rel)
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

// wantNoTrace checks that nothing of key is on disk: no object, temporary
// file, sidecar or directory made for it, and that no upload was marked.
func (h *testHub) wantNoTrace(t *testing.T, key string) {
	t.Helper()
	if left := files(t, h.dir); len(left) > 0 {
		t.Errorf("directory holds %q, want nothing of %q", left, key)
	}
	if _, _, err := h.store.Attributes(context.Background(), key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Attributes(%q) error %v, want hub.ErrNotFound", key, err)
	}
	h.uploads.mu.Lock()
	marked := h.uploads.marked
	h.uploads.mu.Unlock()
	if marked != 0 {
		t.Errorf("%d uploads marked, want none", marked)
	}
	if _, err := os.Stat(h.dir); err != nil {
		t.Errorf("bucket directory: %v", err)
	}
}
