package s3blob_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/hubclient"
)

// open returns a Bucket on a fresh gateway bucket.
func open(t *testing.T) *s3blob.Bucket {
	t.Helper()
	b, err := s3blob.Open(context.Background(), s3test.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func upload(key, mime string, size int64) hub.Upload {
	return hub.Upload{Key: key, Site: "acme", Slug: "contact", Filename: "f", MIME: mime, Size: size}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	rand.Read(b)
	return b
}

func memFile(name, mime string, body []byte) hubclient.File {
	return hubclient.NewFile(name, mime, int64(len(body)), func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(body)), nil
	})
}

// put sends body to rawURL with the given Content-Type and Content-Length
// and returns the status.
func put(t *testing.T, rawURL, contentType string, length int64, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, rawURL, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.ContentLength = length
	if length == 0 {
		req.Body = http.NoBody
	}
	req.Header.Set("Content-Type", contentType)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	return res.StatusCode
}

func TestUploadRoundTrip(t *testing.T) {
	b := open(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name, key, mime string
		size            int
	}{
		{"pdf", "uploads/acme/contact/0a1b/report.pdf", "application/pdf", 300 << 10},
		{"parameters", "uploads/acme/contact/0a1c/notes.txt", "text/plain; charset=utf-8", 17},
		{"empty", "uploads/acme/contact/0a1d/empty.bin", "application/octet-stream", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := randomBytes(tc.size)
			signed, err := b.SignedPutURL(ctx, upload(tc.key, tc.mime, int64(tc.size)), time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := b.Attributes(ctx, tc.key); !errors.Is(err, hub.ErrNotFound) {
				t.Fatalf("Attributes before the PUT: %v, want hub.ErrNotFound", err)
			}
			c := &hubclient.Client{}
			if err := c.Put(ctx, signed, memFile("f", tc.mime, body)); err != nil {
				t.Fatalf("PUT: %v", err)
			}
			if _, _, err := b.Attributes(ctx, tc.key); !errors.Is(err, hub.ErrNotFound) {
				t.Fatalf("Attributes before Seal: %v, want hub.ErrNotFound", err)
			}
			size, contentType, err := b.Staged(ctx, tc.key)
			if err != nil || size != int64(tc.size) || contentType != tc.mime {
				t.Fatalf("Staged = %d, %q, %v; want %d, %q", size, contentType, err, tc.size, tc.mime)
			}
			if err := b.Seal(ctx, upload(tc.key, tc.mime, int64(tc.size))); err != nil {
				t.Fatalf("Seal: %v", err)
			}
			if _, _, err := b.Staged(ctx, tc.key); !errors.Is(err, hub.ErrNotFound) {
				t.Errorf("Staged after Seal: %v, want hub.ErrNotFound", err)
			}
			size, contentType, err = b.Attributes(ctx, tc.key)
			if err != nil || size != int64(tc.size) || contentType != tc.mime {
				t.Fatalf("Attributes = %d, %q, %v; want %d, %q", size, contentType, err, tc.size, tc.mime)
			}
			r, err := b.NewReader(ctx, tc.key)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			r.Close()
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("read back %d bytes (%v), want the %d uploaded", len(got), err, len(body))
			}
			if err := b.Delete(ctx, tc.key); err != nil {
				t.Fatal(err)
			}
			if _, _, err := b.Attributes(ctx, tc.key); !errors.Is(err, hub.ErrNotFound) {
				t.Errorf("Attributes after Delete: %v, want hub.ErrNotFound", err)
			}
			if _, err := b.NewReader(ctx, tc.key); !errors.Is(err, hub.ErrNotFound) {
				t.Errorf("NewReader after Delete: %v, want hub.ErrNotFound", err)
			}
			if err := b.Delete(ctx, tc.key); err != nil {
				t.Errorf("second Delete: %v, want nil", err)
			}
		})
	}
}

// TestGatewayEnforcesSignature proves that the URL binds the type, the
// length, the key and the expiry: the gateway refuses every variation, and
// the unchanged request still succeeds afterwards.
func TestGatewayEnforcesSignature(t *testing.T) {
	b := open(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/0b1c/photo.png", "image/png"
	body := randomBytes(4096)
	signed, err := b.SignedPutURL(ctx, upload(key, mime, int64(len(body))), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(signed)
	if sh := u.Query().Get("X-Amz-SignedHeaders"); !strings.Contains(sh, "content-type") || !strings.Contains(sh, "content-length") {
		t.Errorf("X-Amz-SignedHeaders = %q, want content-length and content-type in it", sh)
	}
	tamper := func(member, value string) string {
		v := *u
		q := v.Query()
		q.Set(member, value)
		v.RawQuery = q.Encode()
		return v.String()
	}
	sig := u.Query().Get("X-Amz-Signature")
	flipped := "0" + sig[1:]
	if sig[0] == '0' {
		flipped = "1" + sig[1:]
	}
	otherKey := *u
	otherKey.Path = strings.Replace(u.Path, "photo.png", "other.png", 1)
	otherKey.RawPath = ""
	for _, tc := range []struct {
		name, url, contentType string
		body                   []byte
	}{
		{"another type", signed, "image/jpeg", body},
		{"type with parameters", signed, "image/png; charset=binary", body},
		{"shorter", signed, mime, body[:len(body)-1]},
		{"longer", signed, mime, append(append([]byte(nil), body...), 'x')},
		{"empty", signed, mime, nil},
		{"tampered signature", tamper("X-Amz-Signature", flipped), mime, body},
		{"longer expiry", tamper("X-Amz-Expires", "3600"), mime, body},
		{"another key", otherKey.String(), mime, body},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if status := put(t, tc.url, tc.contentType, int64(len(tc.body)), tc.body); status != http.StatusForbidden {
				t.Errorf("PUT status %d, want 403", status)
			}
		})
	}
	for _, k := range []string{key, "uploads/acme/contact/0b1c/other.png"} {
		if _, _, err := b.Staged(ctx, k); !errors.Is(err, hub.ErrNotFound) {
			t.Errorf("after refused PUTs, Staged(%s): %v, want hub.ErrNotFound", k, err)
		}
	}
	if status := put(t, signed, mime, int64(len(body)), body); status != http.StatusOK {
		t.Fatalf("the signed PUT itself: status %d, want 200", status)
	}
}

func TestGatewayRefusesExpiredURL(t *testing.T) {
	b := open(t)
	ctx := context.Background()
	const key = "uploads/acme/contact/0c1d/late.txt"
	signed, err := b.SignedPutURL(ctx, upload(key, "text/plain", 4), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	// X-Amz-Date has whole seconds: past two, the URL is past its second.
	time.Sleep(2100 * time.Millisecond)
	if status := put(t, signed, "text/plain", 4, []byte("late")); status != http.StatusForbidden {
		t.Errorf("PUT after expiry: status %d, want 403", status)
	}
	if _, _, err := b.Staged(ctx, key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Attributes: %v, want hub.ErrNotFound", err)
	}
}

func TestSignedPutURLRefusals(t *testing.T) {
	b := open(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		u      hub.Upload
		expiry time.Duration
	}{
		{"zero expiry", upload("k", "text/plain", 1), 0},
		{"negative expiry", upload("k", "text/plain", 1), -time.Second},
		{"long expiry", upload("k", "text/plain", 1), s3blob.MaxExpiry + time.Second},
		{"no key", upload("", "text/plain", 1), time.Minute},
		{"no type", upload("k", "", 1), time.Minute},
		{"negative size", upload("k", "text/plain", -1), time.Minute},
	} {
		if _, err := b.SignedPutURL(ctx, tc.u, tc.expiry); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
	if _, err := b.SignedPutURL(ctx, upload("k", "text/plain", 1), s3blob.MaxExpiry); err != nil {
		t.Errorf("MaxExpiry: %v", err)
	}
}

func TestOpenRefusals(t *testing.T) {
	good := s3test.URL(t)
	u, _ := url.Parse(good)
	missing := *u
	missing.Host = "no-such-bucket"
	ctx := context.Background()
	for _, raw := range []string{
		"s3://",
		"file:///tmp/x",
		"s3://bucket/path?region=us-east-1",
		strings.Replace(good, "region=", "nonsense=1&region=", 1),
		missing.String(),
	} {
		if b, err := s3blob.Open(ctx, raw); err == nil {
			b.Close()
			t.Errorf("Open(%q): no error", raw)
		}
	}
	t.Setenv("AWS_SECRET_ACCESS_KEY", "wrong-secret")
	if b, err := s3blob.Open(ctx, good); err == nil {
		b.Close()
		t.Error("Open with a wrong secret: no error")
	}
}

// TestSealedFileCannotChange PUTs other bytes of the same size and type to
// a URL whose file was sealed: the bucket takes them, as a presigned URL
// works until it expires, but the sealed file stays as it was, and
// SweepLeftovers removes the stray body.
func TestSealedFileCannotChange(t *testing.T) {
	b := open(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/0d1e/invoice.pdf", "application/pdf"
	first, second := randomBytes(2048), randomBytes(2048)
	u := upload(key, mime, int64(len(first)))
	signed, err := b.SignedPutURL(ctx, u, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if status := put(t, signed, mime, int64(len(first)), first); status != http.StatusOK {
		t.Fatalf("first PUT: status %d", status)
	}
	if err := b.Seal(ctx, u); err != nil {
		t.Fatal(err)
	}
	if status := put(t, signed, mime, int64(len(second)), second); status != http.StatusOK {
		t.Fatalf("second PUT: status %d, want the bucket to take it", status)
	}
	read := func() []byte {
		r, err := b.NewReader(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		got, _ := io.ReadAll(r)
		return got
	}
	if !bytes.Equal(read(), first) {
		t.Fatal("a PUT after Seal changed the sealed file")
	}
	if n, err := b.SweepLeftovers(ctx, time.Now().Add(-time.Hour)); n != 0 || err != nil {
		t.Errorf("SweepLeftovers of older bodies: %d, %v; want 0", n, err)
	}
	if n, err := b.SweepLeftovers(ctx, time.Now().Add(time.Minute)); n != 1 || err != nil {
		t.Errorf("SweepLeftovers: %d, %v; want 1", n, err)
	}
	if _, _, err := b.Staged(ctx, key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Staged after SweepLeftovers: %v, want hub.ErrNotFound", err)
	}
	if !bytes.Equal(read(), first) {
		t.Error("SweepLeftovers touched the sealed file")
	}
	if err := b.Seal(ctx, u); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Seal without a staged body: %v, want hub.ErrNotFound", err)
	}
	if err := b.Delete(ctx, key); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Attributes(ctx, key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Attributes after Delete: %v", err)
	}
}
