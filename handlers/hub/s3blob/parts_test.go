package s3blob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
	"github.com/hubform/hubform/hubclient"
)

// partsSize is a file of two whole parts and a short last one.
const partsSize = 2*s3blob.MinPartSize + 123

// putPart PUTs body to a part's URL, with a Content-Length of length and
// the given Content-Type unless empty, and returns the status and the
// ETag header.
func putPart(t *testing.T, rawURL, contentType string, length int64, body []byte) (int, string) {
	t.Helper()
	status, etag, err := tryPutPart(rawURL, contentType, length, body)
	if err != nil {
		t.Fatal(err)
	}
	return status, etag
}

// tryPutPart is putPart for a PUT the gateway may cut off: refusing a
// body, it answers before reading it and closes the connection.
func tryPutPart(rawURL, contentType string, length int64, body []byte) (int, string, error) {
	req, err := http.NewRequest(http.MethodPut, rawURL, bytes.NewReader(body))
	if err != nil {
		return 0, "", err
	}
	req.ContentLength = length
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer res.Body.Close()
	io.Copy(io.Discard, res.Body)
	return res.StatusCode, res.Header.Get("ETag"), nil
}

// sendPart PUTs part n (from 1) of parts to its URL, which must take it,
// and returns it named with its ETag.
func sendPart(t *testing.T, urls []string, parts [][]byte, n int) hubclient.UploadedPart {
	t.Helper()
	status, etag := putPart(t, urls[n-1], "", int64(len(parts[n-1])), parts[n-1])
	if status != http.StatusOK || etag == "" {
		t.Fatalf("PUT of part %d: status %d, ETag %q; want 200 and an ETag", n, status, etag)
	}
	return hubclient.UploadedPart{Number: n, ETag: etag}
}

func split(body []byte, size int) [][]byte {
	var parts [][]byte
	for len(body) > size {
		parts = append(parts, body[:size])
		body = body[size:]
	}
	return append(parts, body)
}

// startParts starts u in parts of MinPartSize and checks it got one URL
// per part.
func startParts(t *testing.T, b *s3blob.Bucket, u hub.Upload) (string, []string) {
	t.Helper()
	id, urls, err := b.StartParts(context.Background(), u, s3blob.MinPartSize, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := int((u.Size + s3blob.MinPartSize - 1) / s3blob.MinPartSize); id == "" || len(urls) != want {
		t.Fatalf("StartParts = %q, %d URLs; want an id and %d", id, len(urls), want)
	}
	return id, urls
}

// openWithClient returns a Bucket on a fresh gateway bucket, and a client
// of the gateway to see what the Bucket does not show.
func openWithClient(t *testing.T) (*s3blob.Bucket, *s3.Client, string) {
	t.Helper()
	bucketURL := s3test.URL(t)
	b, err := s3blob.Open(context.Background(), bucketURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	client, name := s3test.Client(t, bucketURL)
	return b, client, name
}

// multipartUploads returns the keys of the bucket's multipart uploads in
// progress.
func multipartUploads(t *testing.T, client *s3.Client, bucket string) []string {
	t.Helper()
	out, err := client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: aws.String(bucket)})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, u := range out.Uploads {
		keys = append(keys, aws.ToString(u.Key))
	}
	return keys
}

// TestPartsRoundTrip sends a file in three parts, out of order and one of
// them twice, completes it twice, as a client whose answer was lost, and
// seals it: the sealed file is the one sent, of the type started with.
func TestPartsRoundTrip(t *testing.T) {
	b, client, bucket := openWithClient(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/1a2b/video.mp4", "video/mp4"
	body := randomBytes(partsSize)
	parts := split(body, s3blob.MinPartSize)
	u := upload(key, mime, partsSize)
	id, urls := startParts(t, b, u)
	u.PartsID = id
	for i, raw := range urls {
		pu, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if sh := pu.Query().Get("X-Amz-SignedHeaders"); !strings.Contains(sh, "content-length") {
			t.Errorf("part %d: X-Amz-SignedHeaders = %q, want content-length in it", i+1, sh)
		}
		if !strings.Contains(pu.Path, s3blob.StagingPrefix+key) {
			t.Errorf("part %d: URL path %q, want the staged object's", i+1, pu.Path)
		}
	}
	if got := multipartUploads(t, client, bucket); len(got) != 1 || got[0] != s3blob.StagingPrefix+key {
		t.Fatalf("multipart uploads %q, want the staged object's", got)
	}

	// URLs signed again, for an upload that outlasts the first, take the
	// same upload's parts.
	again, err := b.SignParts(ctx, u, s3blob.MinPartSize, time.Minute)
	if err != nil || len(again) != 3 {
		t.Fatalf("SignParts: %d URLs, %v", len(again), err)
	}
	uploaded := make([]hubclient.UploadedPart, 3)
	uploaded[2] = sendPart(t, again, parts, 3)
	// S3 takes an ETag without its quotes too.
	uploaded[2].ETag = strings.Trim(uploaded[2].ETag, `"`)
	// A browser sends a slice of a file with its type: not signed, but
	// not refused either.
	status, etag := putPart(t, urls[0], mime, int64(len(parts[0])), parts[0])
	if status != http.StatusOK || etag == "" {
		t.Fatalf("PUT of part 1 with a Content-Type: status %d, ETag %q", status, etag)
	}
	uploaded[0] = hubclient.UploadedPart{Number: 1, ETag: etag}
	// Part 2 first goes with other bytes, then again, as a retry: the
	// last PUT counts.
	if status, _ := putPart(t, urls[1], "", s3blob.MinPartSize, randomBytes(s3blob.MinPartSize)); status != http.StatusOK {
		t.Fatalf("first PUT of part 2: status %d", status)
	}
	uploaded[1] = sendPart(t, urls, parts, 2)

	if _, _, err := b.Staged(ctx, key); !errors.Is(err, hub.ErrNotFound) {
		t.Fatalf("Staged before CompleteParts: %v, want hub.ErrNotFound", err)
	}
	if err := b.CompleteParts(ctx, u, uploaded); err != nil {
		t.Fatalf("CompleteParts: %v", err)
	}
	if err := b.CompleteParts(ctx, u, uploaded); err != nil {
		t.Errorf("CompleteParts again: %v, want nil", err)
	}
	if got := multipartUploads(t, client, bucket); len(got) != 0 {
		t.Errorf("multipart uploads after CompleteParts: %q, want none", got)
	}
	size, contentType, err := b.Staged(ctx, key)
	if err != nil || size != partsSize || contentType != mime {
		t.Fatalf("Staged = %d, %q, %v; want %d, %q", size, contentType, err, partsSize, mime)
	}
	if err := b.Seal(ctx, u); err != nil {
		t.Fatalf("Seal: %v", err)
	}
	r, err := b.NewReader(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(r)
	r.Close()
	if err != nil || sha256.Sum256(got) != sha256.Sum256(body) {
		t.Fatalf("sealed file: %d bytes (%v) of another SHA-256 than the %d sent", len(got), err, len(body))
	}
	if err := b.CompleteParts(ctx, u, uploaded); err != nil {
		t.Errorf("CompleteParts after Seal: %v, want nil", err)
	}
	if err := b.AbortParts(ctx, u); err != nil {
		t.Errorf("AbortParts of a completed upload: %v, want nil", err)
	}
	if size, _, err := b.Attributes(ctx, key); err != nil || size != partsSize {
		t.Errorf("Attributes after AbortParts: %d, %v; want %d", size, err, partsSize)
	}
}

// TestGatewayEnforcesPartsLength proves that a part's URL binds its length:
// the gateway refuses a shorter or longer body, for a whole part and the
// short last one, and takes the right one afterwards.
func TestGatewayEnforcesPartsLength(t *testing.T) {
	b, client, bucket := openWithClient(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/1b2c/archive.zip", "application/zip"
	body := randomBytes(partsSize)
	parts := split(body, s3blob.MinPartSize)
	u := upload(key, mime, partsSize)
	id, urls := startParts(t, b, u)
	u.PartsID = id
	for _, n := range []int{1, 3} {
		part := parts[n-1]
		for name, wrong := range map[string][]byte{
			"shorter": part[:len(part)-1],
			"longer":  append(append([]byte(nil), part...), 'x'),
		} {
			if status, _, err := tryPutPart(urls[n-1], "", int64(len(wrong)), wrong); err == nil && status >= 200 && status < 300 {
				t.Errorf("part %d, %s: status %d, want a refusal", n, name, status)
			}
		}
	}
	listed, err := client.ListParts(ctx, &s3.ListPartsInput{Bucket: aws.String(bucket), Key: aws.String(s3blob.StagingPrefix + key), UploadId: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	if len(listed.Parts) != 0 {
		t.Fatalf("after the refused PUTs, ListParts has %d parts, want none", len(listed.Parts))
	}
	var uploaded []hubclient.UploadedPart
	for n := range parts {
		uploaded = append(uploaded, sendPart(t, urls, parts, n+1))
	}
	if err := b.CompleteParts(ctx, u, uploaded); err != nil {
		t.Fatalf("CompleteParts: %v", err)
	}
	if size, _, err := b.Staged(ctx, key); err != nil || size != partsSize {
		t.Errorf("Staged = %d, %v; want %d", size, err, partsSize)
	}
}

// TestCompletePartsRefusals names parts the bucket does not hold as they
// are named: each is refused with hub.ErrParts and leaves the upload as it
// was, to be completed once the client sends what is missing.
func TestCompletePartsRefusals(t *testing.T) {
	b, client, bucket := openWithClient(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/1c2d/scan.tiff", "image/tiff"
	body := randomBytes(partsSize)
	parts := split(body, s3blob.MinPartSize)
	u := upload(key, mime, partsSize)
	id, urls := startParts(t, b, u)
	u.PartsID = id
	p1, p2 := sendPart(t, urls, parts, 1), sendPart(t, urls, parts, 2)
	// Part 3 has not arrived: the client thinks it has.
	guessed := hubclient.UploadedPart{Number: 3, ETag: p1.ETag}
	refuse := func(name string, u hub.Upload, named ...hubclient.UploadedPart) {
		t.Helper()
		if err := b.CompleteParts(ctx, u, named); !errors.Is(err, hub.ErrParts) {
			t.Errorf("%s: CompleteParts: %v, want hub.ErrParts", name, err)
		}
	}
	refuse("a part not sent", u, p1, p2, guessed)
	p3 := sendPart(t, urls, parts, 3)
	wrongETag := p2
	wrongETag.ETag = p1.ETag
	refuse("a wrong ETag", u, p1, wrongETag, p3)
	refuse("the last part left out", u, p1, p2)
	refuse("a part left out", u, p1, p3)
	refuse("a part named twice", u, p1, p2, p2, p3)
	refuse("a part never signed", u, p1, p2, p3, hubclient.UploadedPart{Number: 4, ETag: p3.ETag})
	refuse("no parts", u)
	other := u
	other.PartsID = "not-an-upload-id"
	refuse("an unknown upload id", other, p1, p2, p3)

	if _, _, err := b.Staged(ctx, key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Staged after the refusals: %v, want hub.ErrNotFound", err)
	}
	if got := multipartUploads(t, client, bucket); len(got) != 1 {
		t.Fatalf("multipart uploads after the refusals: %q, want the one", got)
	}
	if err := b.CompleteParts(ctx, u, []hubclient.UploadedPart{p1, p2, p3}); err != nil {
		t.Fatalf("CompleteParts with the right parts: %v", err)
	}
	size, contentType, err := b.Staged(ctx, key)
	if err != nil || size != partsSize || contentType != mime {
		t.Fatalf("Staged = %d, %q, %v; want %d, %q", size, contentType, err, partsSize, mime)
	}
}

// TestAbortParts aborts an upload with a part sent: its URLs stop working,
// it cannot be completed, nothing of it remains, and aborting it again is
// no error.
func TestAbortParts(t *testing.T) {
	b, client, bucket := openWithClient(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/1d2e/data.csv", "text/csv"
	parts := split(randomBytes(partsSize), s3blob.MinPartSize)
	u := upload(key, mime, partsSize)
	id, urls := startParts(t, b, u)
	u.PartsID = id
	p1 := sendPart(t, urls, parts, 1)
	if err := b.AbortParts(ctx, u); err != nil {
		t.Fatalf("AbortParts: %v", err)
	}
	for _, n := range []int{2, 3} {
		if status, _, err := tryPutPart(urls[n-1], "", int64(len(parts[n-1])), parts[n-1]); err == nil && status >= 200 && status < 300 {
			t.Errorf("PUT of part %d after AbortParts: status %d, want a refusal", n, status)
		}
	}
	if err := b.CompleteParts(ctx, u, []hubclient.UploadedPart{p1}); !errors.Is(err, hub.ErrParts) {
		t.Errorf("CompleteParts after AbortParts: %v, want hub.ErrParts", err)
	}
	if err := b.AbortParts(ctx, u); err != nil {
		t.Errorf("AbortParts again: %v, want nil", err)
	}
	if got := multipartUploads(t, client, bucket); len(got) != 0 {
		t.Errorf("multipart uploads after AbortParts: %q, want none", got)
	}
	if _, _, err := b.Staged(ctx, key); !errors.Is(err, hub.ErrNotFound) {
		t.Errorf("Staged after AbortParts: %v, want hub.ErrNotFound", err)
	}
}

func TestStartPartsRefusals(t *testing.T) {
	b, client, bucket := openWithClient(t)
	ctx := context.Background()
	const size = 3 * s3blob.MinPartSize
	for _, tc := range []struct {
		name     string
		u        hub.Upload
		partSize int64
		expiry   time.Duration
	}{
		{"part size under 5 MiB", upload("k", "text/plain", size), s3blob.MinPartSize - 1, time.Minute},
		{"zero part size", upload("k", "text/plain", size), 0, time.Minute},
		{"zero expiry", upload("k", "text/plain", size), s3blob.MinPartSize, 0},
		{"negative expiry", upload("k", "text/plain", size), s3blob.MinPartSize, -time.Second},
		{"long expiry", upload("k", "text/plain", size), s3blob.MinPartSize, s3blob.MaxExpiry + time.Second},
		{"no key", upload("", "text/plain", size), s3blob.MinPartSize, time.Minute},
		{"no type", upload("k", "", size), s3blob.MinPartSize, time.Minute},
		{"empty", upload("k", "text/plain", 0), s3blob.MinPartSize, time.Minute},
		{"over 10,000 parts", upload("k", "text/plain", 10_000*s3blob.MinPartSize+1), s3blob.MinPartSize, time.Minute},
	} {
		if _, urls, err := b.StartParts(ctx, tc.u, tc.partSize, tc.expiry); err == nil {
			t.Errorf("%s: %d URLs, no error", tc.name, len(urls))
		}
	}
	if got := multipartUploads(t, client, bucket); len(got) != 0 {
		t.Errorf("multipart uploads after the refusals: %q, want none", got)
	}
	for _, u := range []hub.Upload{
		upload("k", "text/plain", 10_000*s3blob.MinPartSize),
		upload("k", "text/plain", 1),
	} {
		if _, _, err := b.StartParts(ctx, u, s3blob.MinPartSize, s3blob.MaxExpiry); err != nil {
			t.Errorf("%d bytes, MinPartSize, MaxExpiry: %v", u.Size, err)
		}
	}
}

// TestSealLargerThanOneCopy seals a file larger than S3 copies at once
// (5 GiB, here 5 MiB) by copying it in parts: the object has the file's
// bytes and type.
func TestSealLargerThanOneCopy(t *testing.T) {
	s3blob.CopyInPartsAbove(t, s3blob.MinPartSize, s3blob.MinPartSize)
	b, client, bucket := openWithClient(t)
	ctx := context.Background()
	const key, mime = "uploads/acme/contact/2e3f/film.mkv", "video/x-matroska"
	body := randomBytes(partsSize)
	u := upload(key, mime, partsSize)
	id, urls := startParts(t, b, u)
	u.PartsID = id
	var uploaded []hubclient.UploadedPart
	for n := range split(body, s3blob.MinPartSize) {
		uploaded = append(uploaded, sendPart(t, urls, split(body, s3blob.MinPartSize), n+1))
	}
	if err := b.CompleteParts(ctx, u, uploaded); err != nil {
		t.Fatal(err)
	}
	if err := b.Seal(ctx, u); err != nil {
		t.Fatalf("Seal: %v", err)
	}
	r, err := b.NewReader(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := io.ReadAll(r)
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("sealed file: %d bytes (%v), want the %d sent", len(got), err, len(body))
	}
	if _, typ, err := b.Attributes(ctx, key); err != nil || typ != mime {
		t.Errorf("sealed file's type %q (%v), want %q", typ, err, mime)
	}
	if left := multipartUploads(t, client, bucket); len(left) != 0 {
		t.Errorf("multipart uploads left: %q", left)
	}
	// An object made of parts has an ETag that counts them.
	head, err := client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil || !strings.HasSuffix(strings.Trim(aws.ToString(head.ETag), `"`), "-3") {
		t.Errorf("sealed file's ETag %q (%v), want one of 3 parts", aws.ToString(head.ETag), err)
	}
}
