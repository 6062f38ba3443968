package localblob

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
)

// TestStorePut stores a file of the hub's own and reads it back with its
// type; a second file under the key, a body shorter than said and an
// invalid key are refused, and leave nothing behind.
func TestStorePut(t *testing.T) {
	h := newTestHub(t, testSecret)
	ctx := context.Background()
	body := []byte(strings.Repeat("png!", 500))
	if err := h.store.Put(ctx, "images/logo.png", "image/png", bytes.NewReader(body), int64(len(body))); err != nil {
		t.Fatal(err)
	}
	size, ct, err := h.store.Attributes(ctx, "images/logo.png")
	if err != nil || size != 2000 || ct != "image/png" {
		t.Errorf("Attributes: %d, %q, %v; want 2000 bytes of image/png", size, ct, err)
	}
	r, err := h.store.NewReader(ctx, "images/logo.png")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || !bytes.Equal(got, body) {
		t.Errorf("read back %d bytes, %v", len(got), err)
	}
	if err := h.store.Put(ctx, "images/logo.png", "image/png", bytes.NewReader([]byte("other")), 5); err == nil {
		t.Error("a second file under the same key was stored")
	}
	if err := h.store.Put(ctx, "images/short.png", "image/png", bytes.NewReader([]byte("abc")), 10); err == nil {
		t.Error("a body shorter than its size was stored")
	}
	if _, _, err := h.store.Attributes(ctx, "images/short.png"); err == nil {
		t.Error("the refused body was kept")
	}
	if err := h.store.Put(ctx, "images/x.tmp", "image/png", bytes.NewReader(body), 2000); err == nil {
		t.Error("an invalid key was stored")
	}
}
