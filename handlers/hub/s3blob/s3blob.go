package s3blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
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

// SignedPutURL returns the bucket's presigned URL for one PUT of u.Key,
// valid for expiry (positive, at most MaxExpiry). The signature binds
// u.MIME and u.Size as the request's Content-Type and Content-Length, so
// the bucket refuses a body of another type or length.
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
	signed, err := b.bucket.SignedURL(ctx, u.Key, &blob.SignedURLOptions{
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

// Delete removes the object key. An absent object is not an error, so that
// hub processes sweeping the same uploads do not fail each other.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	err := b.bucket.Delete(ctx, key)
	if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return b.wrap(key, err)
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
