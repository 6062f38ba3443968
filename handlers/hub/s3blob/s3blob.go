package s3blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
	gcs3blob "gocloud.dev/blob/s3blob"
	"gocloud.dev/gcerrors"

	"github.com/hubform/hubform/handlers/hub"
)

// MaxExpiry is the longest life of a signed URL, as with the hub's local
// storage: a URL leaked from a browser is useful for minutes, not days.
const MaxExpiry = 15 * time.Minute

// Query members of a bucket URL that choose how the bucket's host is
// addressed.
var addressingParams = []string{"use_path_style", "s3ForcePathStyle", "hostname_immutable"}

// Bucket keeps files in an S3-compatible bucket. A Bucket is safe for
// concurrent use.
type Bucket struct {
	bucket *blob.Bucket
	name   string
}

// Open opens the bucket named by rawURL, an s3:// URL (see the package
// documentation), and checks that it exists and the credentials reach it.
func Open(ctx context.Context, rawURL string) (*Bucket, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("s3blob: %w", err)
	}
	if u.Scheme != gcs3blob.Scheme || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("s3blob: %q: want s3://BUCKET?QUERY", redact(u))
	}
	q := u.Query()
	if q.Get("endpoint") != "" && !hasAny(q, addressingParams) {
		q.Set("use_path_style", "true")
		u.RawQuery = q.Encode()
	}
	opener := &gcs3blob.URLOpener{}
	b, err := opener.OpenBucketURL(ctx, u)
	if err != nil {
		return nil, fmt.Errorf("s3blob: open %s: %w", redact(u), err)
	}
	ok, err := b.IsAccessible(ctx)
	if err == nil && !ok {
		err = errors.New("no such bucket")
	}
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("s3blob: bucket %q at %s: %w", u.Host, redact(u), err)
	}
	return &Bucket{bucket: b, name: u.Host}, nil
}

// Close releases the bucket's client.
func (b *Bucket) Close() error {
	if err := b.bucket.Close(); err != nil {
		return fmt.Errorf("s3blob: close: %w", err)
	}
	return nil
}

// StagingPrefix starts the names of the objects clients upload to: the body
// of key k arrives as StagingPrefix+k, and becomes k only when [Bucket.Seal]
// copies it there.
const StagingPrefix = "incoming/"

// sealAttempts bounds how often Seal starts again when the staged body was
// replaced between its check and its copy.
const sealAttempts = 3

// SignedPutURL returns the bucket's presigned URL for one PUT of u.Key's
// staged body (StagingPrefix+u.Key), valid for expiry (positive, at most
// MaxExpiry). The signature binds u.MIME and u.Size as the request's
// Content-Type and Content-Length, so the bucket refuses a body of another
// type or length.
//
// The URL cannot be revoked and works for further PUTs until it expires;
// that is why it does not name u.Key itself, which only Seal writes.
func (b *Bucket) SignedPutURL(ctx context.Context, u hub.Upload, expiry time.Duration) (string, error) {
	switch {
	case expiry <= 0 || expiry > MaxExpiry:
		return "", fmt.Errorf("s3blob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	case u.Key == "":
		return "", errors.New("s3blob: empty key")
	case u.MIME == "":
		// Without a type the URL would accept any, and the hub could not
		// tell the object it gets from the one it signed for.
		return "", fmt.Errorf("s3blob: upload %q has no content type", u.Key)
	case u.Size < 0:
		return "", fmt.Errorf("s3blob: upload %q has negative size %d", u.Key, u.Size)
	}
	signed, err := b.bucket.SignedURL(ctx, StagingPrefix+u.Key, &blob.SignedURLOptions{
		Method: http.MethodPut,
		Expiry: expiry,
		BeforeSign: func(as func(any) bool) error {
			var in *s3.PutObjectInput
			if !as(&in) {
				return errors.New("not an S3 PutObject request")
			}
			in.ContentType = aws.String(u.MIME)
			in.ContentLength = aws.Int64(u.Size)
			return nil
		},
	})
	if err != nil {
		return "", fmt.Errorf("s3blob: sign %q: %w", u.Key, err)
	}
	return signed, nil
}

// UploadOrigin returns the origin (scheme and host) of the bucket's
// presigned PUT URLs: where browsers send files, which a page's
// Content-Security-Policy must let them connect to.
func (b *Bucket) UploadOrigin(ctx context.Context) (string, error) {
	signed, err := b.SignedPutURL(ctx, hub.Upload{Key: "origin", MIME: "application/octet-stream"}, time.Minute)
	if err != nil {
		return "", err
	}
	u, err := url.Parse(signed)
	if err != nil {
		return "", fmt.Errorf("s3blob: upload origin: %w", err)
	}
	return u.Scheme + "://" + u.Host, nil
}

// Staged returns the size and content type of the body uploaded for key
// and not sealed yet. Without one the error wraps hub.ErrNotFound.
func (b *Bucket) Staged(ctx context.Context, key string) (size int64, contentType string, err error) {
	return b.Attributes(ctx, StagingPrefix+key)
}

// Seal makes the body uploaded for u.Key the object u.Key: it checks the
// staged body's size and type against u, copies it under u.Key on the
// condition that it is still the body checked (its ETag), and deletes the
// staged copy. From then on no signed URL reaches the object: a PUT to
// u's URL writes a new staged body, which nothing reads and SweepLeftovers
// deletes. Without a staged body the error wraps hub.ErrNotFound.
//
// Seal replaces an object u.Key already has, so the caller seals each
// upload once (the hub: only after it marked the upload uploaded).
func (b *Bucket) Seal(ctx context.Context, u hub.Upload) error {
	staged := StagingPrefix + u.Key
	for range sealAttempts {
		a, err := b.bucket.Attributes(ctx, staged)
		if err != nil {
			return b.wrap(staged, err)
		}
		if a.Size != u.Size || a.ContentType != u.MIME {
			return fmt.Errorf("s3blob: s3://%s/%s is %d bytes of %q, not the %d of %q signed for", b.name, staged, a.Size, a.ContentType, u.Size, u.MIME)
		}
		err = b.copy(ctx, staged, u, a)
		if errors.Is(err, errChanged) {
			continue // a PUT replaced the body meanwhile: check it again
		}
		if err != nil {
			return b.wrap(u.Key, err)
		}
		// Left behind, the staged copy is SweepLeftovers's.
		b.Delete(ctx, staged)
		return nil
	}
	return fmt.Errorf("s3blob: s3://%s/%s changed during %d attempts to seal it", b.name, staged, sealAttempts)
}

// SweepLeftovers deletes the staged bodies last written before before, and
// returns how many it deleted. Given the hub's upload TTL ago, they are
// sealed already or belong to uploads the hub has swept: one a client PUT
// again after its submission, or one never submitted.
func (b *Bucket) SweepLeftovers(ctx context.Context, before time.Time) (int, error) {
	it := b.bucket.List(&blob.ListOptions{Prefix: StagingPrefix})
	deleted := 0
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			return deleted, nil
		}
		if err != nil {
			return deleted, fmt.Errorf("s3blob: listing s3://%s/%s: %w", b.name, StagingPrefix, err)
		}
		if obj.IsDir || !obj.ModTime.Before(before) {
			continue
		}
		if err := b.Delete(ctx, obj.Key); err != nil {
			return deleted, err
		}
		deleted++
	}
}

// Attributes returns the size and content type of the object key, as the
// bucket stored them. An absent object gives an error wrapping
// hub.ErrNotFound.
func (b *Bucket) Attributes(ctx context.Context, key string) (size int64, contentType string, err error) {
	a, err := b.bucket.Attributes(ctx, key)
	if err != nil {
		return 0, "", b.wrap(key, err)
	}
	return a.Size, a.ContentType, nil
}

// NewReader returns a reader of the object key's bytes; the caller closes
// it. An absent object gives an error wrapping hub.ErrNotFound.
func (b *Bucket) NewReader(ctx context.Context, key string) (io.ReadCloser, error) {
	r, err := b.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return nil, b.wrap(key, err)
	}
	return r, nil
}

// Delete removes the object key and its staged body, if any. An absent
// object is not an error, so that hub processes sweeping the same uploads
// do not fail each other.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	keys := []string{key}
	if !strings.HasPrefix(key, StagingPrefix) {
		keys = append(keys, StagingPrefix+key)
	}
	for _, k := range keys {
		err := b.bucket.Delete(ctx, k)
		if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return b.wrap(k, err)
		}
	}
	return nil
}

// wrap names the object in err and wraps hub.ErrNotFound into it when it
// says the object is absent.
func (b *Bucket) wrap(key string, err error) error {
	if gcerrors.Code(err) == gcerrors.NotFound {
		return fmt.Errorf("s3blob: s3://%s/%s: %w", b.name, key, hub.ErrNotFound)
	}
	return fmt.Errorf("s3blob: s3://%s/%s: %w", b.name, key, err)
}

func hasAny(q url.Values, keys []string) bool {
	for _, k := range keys {
		if q.Has(k) {
			return true
		}
	}
	return false
}

// redact drops user information from u for messages: a bucket URL holds no
// secret by design, but an operator may have tried to put one there.
func redact(u *url.URL) string {
	c := *u
	c.User = nil
	return c.String()
}
