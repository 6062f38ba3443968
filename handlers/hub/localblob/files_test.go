package localblob

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// writeObject stores body as the object key of type contentType, as an
// upload does.
func writeObject(t *testing.T, s *Store, key, contentType, body string) {
	t.Helper()
	f, err := s.create(key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(f, body); err != nil {
		t.Fatal(err)
	}
	if err := s.commit(context.Background(), f, key, contentType); err != nil {
		t.Fatal(err)
	}
}

// TestFileblobFiles reads the files gocloud.dev's fileblob wrote, which
// earlier versions of the store kept files through: the object with its
// type from the sidecar, which holds more members than the store writes,
// and an object without a sidecar, as fileblob read it.
func TestFileblobFiles(t *testing.T) {
	h := newTestHub(t, testSecret)
	ctx := context.Background()
	path := filepath.Join(h.dir, filepath.FromSlash(testKey))
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	// As fileblob wrote them for a WriteAll of "%PDF-1.4" with type
	// application/pdf.
	if err := os.WriteFile(path, []byte("%PDF-1.4"), 0o644); err != nil {
		t.Fatal(err)
	}
	sidecar := `{"user.cache_control":"","user.content_disposition":"","user.content_encoding":"","user.content_language":"","user.content_type":"application/pdf","user.metadata":null,"md5":"kUJAElMZKRx8t+cS5BmyVA=="}` + "\n"
	if err := os.WriteFile(path+".attrs", []byte(sidecar), 0o644); err != nil {
		t.Fatal(err)
	}
	if size, ct, err := h.store.Attributes(ctx, testKey); err != nil || size != 8 || ct != "application/pdf" {
		t.Errorf("Attributes = %d, %q, %v; want 8, application/pdf", size, ct, err)
	}
	r, err := h.store.NewReader(ctx, testKey)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	r.Close()
	if string(got) != "%PDF-1.4" {
		t.Errorf("NewReader read %q", got)
	}

	if err := os.Remove(path + ".attrs"); err != nil {
		t.Fatal(err)
	}
	if size, ct, err := h.store.Attributes(ctx, testKey); err != nil || size != 8 || ct != "application/octet-stream" {
		t.Errorf("without a sidecar, Attributes = %d, %q, %v; want 8, application/octet-stream", size, ct, err)
	}
	if err := h.store.Delete(ctx, testKey); err != nil {
		t.Fatal(err)
	}
	if left := files(t, h.dir); len(left) > 0 {
		t.Errorf("after Delete the directory holds %q", left)
	}
}

// TestSidecarForFileblob checks that the sidecar of a stored object gives
// fileblob's reader its type, so that the files stay readable to it.
func TestSidecarForFileblob(t *testing.T) {
	h := newTestHub(t, testSecret)
	writeObject(t, h.store, testKey, "application/pdf", "%PDF-1.4")
	data, err := os.ReadFile(filepath.Join(h.dir, filepath.FromSlash(testKey)) + ".attrs")
	if err != nil {
		t.Fatal(err)
	}
	// fileblob's sidecar members the hub ever set.
	var xa struct {
		ContentType string `json:"user.content_type"`
	}
	if err := json.Unmarshal(data, &xa); err != nil || xa.ContentType != "application/pdf" {
		t.Errorf("sidecar %s: type %q, error %v; want application/pdf", data, xa.ContentType, err)
	}
}
