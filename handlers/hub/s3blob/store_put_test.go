package s3blob_test

import (
	"bytes"
	"context"
	"io"
	"testing"
)

// TestPut stores a file of the hub's own and reads it back with its type.
func TestPut(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	body := randomBytes(3000)
	if err := b.Put(ctx, "images/logo.png", "image/png", bytes.NewReader(body), int64(len(body))); err != nil {
		t.Fatal(err)
	}
	size, ct, err := b.Attributes(ctx, "images/logo.png")
	if err != nil || size != 3000 || ct != "image/png" {
		t.Errorf("Attributes: %d, %q, %v; want 3000 bytes of image/png", size, ct, err)
	}
	r, err := b.NewReader(ctx, "images/logo.png")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := io.ReadAll(r); err != nil || !bytes.Equal(got, body) {
		t.Errorf("read back %d bytes, %v", len(got), err)
	}
}
