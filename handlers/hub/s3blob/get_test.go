package s3blob_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"
	"time"
)

// TestSignedGetURL downloads a sealed file through its presigned link,
// named as the visitor named it and never typed as they claimed, and finds
// the link refused once it expired.
func TestSignedGetURL(t *testing.T) {
	ctx := context.Background()
	b := open(t)
	body := randomBytes(100)
	u := upload("acme/contact/k1", "text/html", int64(len(body)))
	signed, err := b.SignedPutURL(ctx, u, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if status := put(t, signed, u.MIME, u.Size, body); status != http.StatusOK {
		t.Fatalf("PUT: %d", status)
	}
	if err := b.Seal(ctx, u); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SignedGetURL(ctx, u.Key, "x", time.Hour); err == nil {
		t.Error("SignedGetURL for an hour: no error, want at most 15 minutes")
	}

	get := func(link string) (int, http.Header, []byte) {
		t.Helper()
		res, err := http.Get(link)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		data, _ := io.ReadAll(res.Body)
		return res.StatusCode, res.Header, data
	}
	link, err := b.SignedGetURL(ctx, u.Key, "Zoë's page.html", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// A link of one second, for its expiry: on a busy machine a second
	// may pass before the first GET, so the content is checked on the
	// link above.
	short, err := b.SignedGetURL(ctx, u.Key, "x", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	status, header, data := get(link)
	if status != http.StatusOK || !bytes.Equal(data, body) {
		t.Fatalf("GET the link: %d, %d bytes; want 200 and the file", status, len(data))
	}
	if got := header.Get("Content-Disposition"); got != `attachment; filename*=utf-8''Zo%C3%AB%27s%20page.html` {
		t.Errorf("Content-Disposition %q", got)
	}
	if got := header.Get("Content-Type"); got != "application/octet-stream" {
		t.Errorf("Content-Type %q, want application/octet-stream", got)
	}
	// S3 counts expiry in whole seconds from the signing's second: two
	// seconds later the link has expired whatever the rounding.
	time.Sleep(2100 * time.Millisecond)
	if status, _, _ := get(short); status != http.StatusForbidden {
		t.Errorf("GET the expired link: %d, want 403", status)
	}
}
