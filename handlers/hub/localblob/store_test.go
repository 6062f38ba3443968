package localblob

import (
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const good = "http://127.0.0.1:8081/v1/_uploads"
	tests := []struct {
		name, dir, putURL string
		secret            []byte
	}{
		{"short secret", dir, good, testSecret[:31]},
		{"no secret", dir, good, nil},
		{"relative URL", dir, "/v1/_uploads", testSecret},
		{"not http", dir, "ftp://host/v1/_uploads", testSecret},
		{"URL with query", dir, good + "?a=b", testSecret},
		{"URL with fragment", dir, good + "#x", testSecret},
		{"empty URL", dir, "", testSecret},
		{"no directory", "", good, testSecret},
		{"directory is a file", file, good, testSecret},
	}
	for _, tt := range tests {
		if s, err := Open(context.Background(), tt.dir, tt.putURL, tt.secret); err == nil {
			s.Close()
			t.Errorf("%s: Open succeeded", tt.name)
		}
	}
	s, err := Open(context.Background(), filepath.Join(dir, "a", "b"), good, testSecret)
	if err != nil {
		t.Fatalf("Open creating the directory: %v", err)
	}
	s.Close()
}

func TestAttributesAbsent(t *testing.T) {
	h := newTestHub(t, testSecret)
	ctx := context.Background()
	if _, _, err := h.store.Attributes(ctx, testKey); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Attributes: %v, want hub.ErrNotFound", err)
	}
	if _, err := h.store.NewReader(ctx, testKey); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("NewReader: %v, want hub.ErrNotFound", err)
	}
	if err := h.store.Delete(ctx, testKey); err != nil {
		t.Errorf("Delete of an absent object: %v", err)
	}
}

func TestDelete(t *testing.T) {
	h := newTestHub(t, testSecret)
	ctx := context.Background()
	other := "uploads/acme/contact/ffffffffffffffffffffffff/keep.txt"
	for _, key := range []string{testKey, other} {
		u := h.expect(t, key, "text/plain", 3)
		if res := put(t, u, "text/plain", 3, []byte("abc")); res.StatusCode != http.StatusOK {
			t.Fatalf("PUT %s: status %d", key, res.StatusCode)
		}
	}
	if err := h.store.Delete(ctx, testKey); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.store.Attributes(ctx, testKey); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Attributes after Delete: %v, want hub.ErrNotFound", err)
	}
	// The deleted key's own directory goes; the shared ones stay.
	want := []string{
		"uploads/", "uploads/acme/", "uploads/acme/contact/",
		"uploads/acme/contact/ffffffffffffffffffffffff/",
		"uploads/acme/contact/ffffffffffffffffffffffff/keep.txt",
		"uploads/acme/contact/ffffffffffffffffffffffff/keep.txt.attrs",
	}
	if got := files(t, h.dir); !slices.Equal(got, want) {
		t.Errorf("after Delete the directory holds\n%q\nwant\n%q", got, want)
	}
	if err := h.store.Delete(ctx, testKey); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	if err := h.store.Delete(ctx, other); err != nil {
		t.Fatal(err)
	}
	if got := files(t, h.dir); len(got) > 0 {
		t.Errorf("after deleting all, the directory holds %q", got)
	}
}

var badKeys = []string{
	"",
	"../escape.txt",
	"uploads/../../escape.txt",
	"uploads/..",
	"..",
	".",
	"/etc/passwd",
	"/tmp/escape.txt",
	"uploads//x",
	"uploads/./x",
	"uploads/x/",
	`uploads\..\..\escape.txt`,
	"uploads/x.attrs",
	"uploads/x.pdf.18a1b2c3.tmp",
	"uploads/x\x00y",
	"uploads/x\ny",
	"uploads/\xff",
}

func TestBadKeys(t *testing.T) {
	h := newTestHub(t, testSecret)
	ctx := context.Background()
	for _, key := range badKeys {
		if _, err := h.store.SignedPutURL(ctx, hub.Upload{Key: key}, time.Minute); !errors.Is(err, errInvalidKey) {
			t.Errorf("SignedPutURL(%q): %v, want an invalid key error", key, err)
		}
		if _, _, err := h.store.Attributes(ctx, key); !errors.Is(err, errInvalidKey) {
			t.Errorf("Attributes(%q): %v, want an invalid key error", key, err)
		}
		if _, err := h.store.NewReader(ctx, key); !errors.Is(err, errInvalidKey) {
			t.Errorf("NewReader(%q): %v, want an invalid key error", key, err)
		}
		if err := h.store.Delete(ctx, key); !errors.Is(err, errInvalidKey) {
			t.Errorf("Delete(%q): %v, want an invalid key error", key, err)
		}
	}
}

// TestPutBadKeys signs URLs for bad keys as a peer holding the secret could,
// and checks that the handler writes nothing, inside the directory or out.
func TestPutBadKeys(t *testing.T) {
	h := newTestHub(t, testSecret)
	root := filepath.Dir(h.dir)
	base, _ := url.Parse(h.putURL)
	sg := &signer{base: *base, secret: testSecret, now: h.clock.Now}
	for _, key := range badKeys {
		if key == "" {
			continue // an empty obj is an unsigned URL
		}
		h.uploads.put(hub.Upload{Key: key, MIME: "text/plain", Size: 3})
		u := sg.sign(key, http.MethodPut, "", time.Minute)
		wantRefusal(t, put(t, u, "text/plain", 3, []byte("abc")), http.StatusBadRequest, "invalid object key")
	}
	if got := files(t, root); !slices.Equal(got, []string{"blobs/"}) {
		t.Errorf("%s holds %q, want only the empty bucket directory", root, got)
	}
	if _, err := os.Stat("/tmp/escape.txt"); err == nil {
		t.Errorf("/tmp/escape.txt exists")
	}
}

// patternReader yields n bytes of a fixed pattern without allocating.
type patternReader struct{ off, n int64 }

func (r *patternReader) Read(p []byte) (int, error) {
	if r.off >= r.n {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.n-r.off)]
	for i := range p {
		x := r.off + int64(i)
		p[i] = byte(x ^ x>>8 ^ x>>16)
	}
	r.off += int64(len(p))
	return len(p), nil
}

func (r *patternReader) Close() error { return nil }

// TestPutStreams uploads 64 MiB and checks that the process allocated far
// less than that on the way: the body is streamed, not buffered.
func TestPutStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 64 MiB")
	}
	const size = 64 << 20
	h := newTestHub(t, testSecret)
	u := h.expect(t, testKey, "application/octet-stream", size)
	f := hubclient.NewFile("big.bin", "application/octet-stream", size, func() (io.ReadCloser, error) {
		return &patternReader{n: size}, nil
	})

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := (&hubclient.Client{}).Put(context.Background(), u, f); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %d KiB for a %d MiB upload", alloc>>10, size>>20)
	if alloc > 16<<20 {
		t.Errorf("allocated %d MiB for a %d MiB upload, want well under 16 MiB", alloc>>20, size>>20)
	}

	r, err := h.store.NewReader(context.Background(), testKey)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, want := sha256.New(), sha256.New()
	if _, err := io.Copy(got, r); err != nil {
		t.Fatal(err)
	}
	io.Copy(want, &patternReader{n: size})
	if !slices.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Error("stored bytes differ from those sent")
	}
}

// TestSweepLeftovers leaves temporary files as a killed upload does: those
// last written before the cut-off go, with the directories they emptied;
// newer ones and stored objects stay.
func TestSweepLeftovers(t *testing.T) {
	h := newTestHub(t, testSecret)
	ctx := context.Background()
	u := h.expect(t, testKey, "text/plain", 3)
	if res := put(t, u, "text/plain", 3, []byte("abc")); res.StatusCode != http.StatusOK {
		t.Fatalf("PUT: %d", res.StatusCode)
	}
	cutoff := time.Now().Add(-time.Hour)
	stale := filepath.Join(h.dir, "uploads", "acme", "contact", "dead", "a.pdf.18a1b2c3.tmp")
	fresh := filepath.Join(h.dir, "uploads", "acme", "contact", "live", "b.pdf.18a1b2c4.tmp")
	besideObject := filepath.Join(h.dir, filepath.FromSlash(testKey)+".18a1b2c5.tmp")
	for _, p := range []string{stale, fresh, besideObject} {
		os.MkdirAll(filepath.Dir(p), 0o750)
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := cutoff.Add(-time.Minute)
	os.Chtimes(stale, old, old)
	os.Chtimes(besideObject, old, old)
	n, err := h.store.SweepLeftovers(ctx, cutoff)
	if n != 2 || err != nil {
		t.Fatalf("SweepLeftovers = %d, %v; want 2", n, err)
	}
	for _, p := range []string{stale, besideObject, filepath.Dir(stale)} {
		if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s kept: %v", p, err)
		}
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a temporary file newer than the cut-off: %v", err)
	}
	if size, _, err := h.store.Attributes(ctx, testKey); size != 3 || err != nil {
		t.Errorf("the stored object: %d bytes, %v", size, err)
	}
}
