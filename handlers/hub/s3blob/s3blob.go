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
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go"

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
//
// Keys are sent as they are. gocloud.dev's s3blob, through which earlier
// versions reached the bucket, escaped control characters and the slash
// of "../" in keys, which no key of the hub's holds (hub.NewUploadKey), so
// both name the same objects.
type Bucket struct {
	client  *s3.Client
	presign *s3.PresignClient
	name    string
	enc     encryption
}

// Open opens the bucket named by rawURL, an s3:// URL (see the package
// documentation), and checks that it exists and the credentials reach it.
func Open(ctx context.Context, rawURL string) (*Bucket, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, fmt.Errorf("s3blob: %w", err)
	}
	if u.Scheme != "s3" || u.Host == "" || (u.Path != "" && u.Path != "/") {
		return nil, fmt.Errorf("s3blob: %q: want s3://BUCKET?QUERY", redact(u))
	}
	q := u.Query()
	if q.Get("endpoint") != "" && !hasAny(q, addressingParams) {
		q.Set("use_path_style", "true")
		u.RawQuery = q.Encode()
	}
	client, enc, err := newClient(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("s3blob: open %s: %w", redact(u), err)
	}
	b := &Bucket{client: client, presign: s3.NewPresignClient(client), name: u.Host, enc: enc}
	// One key listed: the bucket exists and the credentials may list it,
	// as the sweep of StagingPrefix needs.
	_, err = client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(b.name), MaxKeys: aws.Int32(1)})
	if isNotFound(err) {
		err = errors.New("no such bucket")
	}
	if err != nil {
		return nil, fmt.Errorf("s3blob: bucket %q at %s: %w", u.Host, redact(u), err)
	}
	return b, nil
}

// Close does nothing: the bucket's client holds only idle connections,
// which the HTTP transport closes in time. It is there so that a Bucket
// closes as the hub's other storage does.
func (b *Bucket) Close() error { return nil }

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
	req, err := b.presign.PresignPutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(b.name), Key: aws.String(StagingPrefix + u.Key),
		ContentType: aws.String(u.MIME), ContentLength: aws.Int64(u.Size),
	}, s3.WithPresignExpires(expiry))
	if err != nil {
		return "", fmt.Errorf("s3blob: sign %q: %w", u.Key, err)
	}
	return req.URL, nil
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
		a, err := b.head(ctx, staged)
		if err != nil {
			return b.wrap(staged, err)
		}
		size, contentType := aws.ToInt64(a.ContentLength), aws.ToString(a.ContentType)
		if size != u.Size || contentType != u.MIME {
			return fmt.Errorf("s3blob: s3://%s/%s is %d bytes of %q, not the %d of %q signed for", b.name, staged, size, contentType, u.Size, u.MIME)
		}
		err = b.copy(ctx, staged, u, size, aws.ToString(a.ETag))
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
	pages := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{
		Bucket: aws.String(b.name), Prefix: aws.String(StagingPrefix),
	})
	deleted := 0
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return deleted, fmt.Errorf("s3blob: listing s3://%s/%s: %w", b.name, StagingPrefix, err)
		}
		for _, obj := range page.Contents {
			if !aws.ToTime(obj.LastModified).Before(before) {
				continue
			}
			if err := b.Delete(ctx, aws.ToString(obj.Key)); err != nil {
				return deleted, err
			}
			deleted++
		}
	}
	return deleted, nil
}

// Attributes returns the size and content type of the object key, as the
// bucket stored them. An absent object gives an error wrapping
// hub.ErrNotFound.
func (b *Bucket) Attributes(ctx context.Context, key string) (size int64, contentType string, err error) {
	a, err := b.head(ctx, key)
	if err != nil {
		return 0, "", b.wrap(key, err)
	}
	return aws.ToInt64(a.ContentLength), aws.ToString(a.ContentType), nil
}

// head returns what the bucket holds of the object key but its bytes.
func (b *Bucket) head(ctx context.Context, key string) (*s3.HeadObjectOutput, error) {
	return b.client.HeadObject(ctx, &s3.HeadObjectInput{Bucket: aws.String(b.name), Key: aws.String(key)})
}

// Put stores body, of size bytes and type contentType, as the object key:
// the hub's own files, such as a theme's pictures, which no signed URL
// names. body is read again from its start when a request is retried.
func (b *Bucket) Put(ctx context.Context, key, contentType string, body io.ReadSeeker, size int64) error {
	_, err := b.client.PutObject(ctx, &s3.PutObjectInput{
		Bucket: aws.String(b.name), Key: aws.String(key), Body: body,
		ContentType: aws.String(contentType), ContentLength: aws.Int64(size),
	})
	if err != nil {
		return b.wrap(key, err)
	}
	return nil
}

// Keys returns the keys of the objects whose keys start with prefix, in
// key order.
func (b *Bucket) Keys(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	p := s3.NewListObjectsV2Paginator(b.client, &s3.ListObjectsV2Input{Bucket: aws.String(b.name), Prefix: aws.String(prefix)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, b.wrap(prefix, err)
		}
		for _, o := range page.Contents {
			keys = append(keys, aws.ToString(o.Key))
		}
	}
	return keys, nil
}

// NewReader returns a reader of the object key's bytes; the caller closes
// it. An absent object gives an error wrapping hub.ErrNotFound.
func (b *Bucket) NewReader(ctx context.Context, key string) (io.ReadCloser, error) {
	out, err := b.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(b.name), Key: aws.String(key)})
	if err != nil {
		return nil, b.wrap(key, err)
	}
	return out.Body, nil
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
		_, err := b.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(b.name), Key: aws.String(k)})
		if err != nil && !isNotFound(err) {
			return b.wrap(k, err)
		}
	}
	return nil
}

// wrap names the object in err and wraps hub.ErrNotFound into it when it
// says the object is absent.
func (b *Bucket) wrap(key string, err error) error {
	if isNotFound(err) {
		return fmt.Errorf("s3blob: s3://%s/%s: %w", b.name, key, hub.ErrNotFound)
	}
	return fmt.Errorf("s3blob: s3://%s/%s: %w", b.name, key, err)
}

// isNotFound reports whether err says that the object or the bucket is
// absent: the error codes of S3 and of its imitations, or a 404 without
// one (a HEAD answers without a body).
func isNotFound(err error) bool {
	switch errorCode(err) {
	case "NoSuchBucket", "NoSuchKey", "NotFound", "ObjectNotInActiveTierError":
		return true
	case "":
		var re *awshttp.ResponseError
		return errors.As(err, &re) && (re.HTTPStatusCode() == http.StatusNotFound || re.HTTPStatusCode() == http.StatusMovedPermanently)
	}
	return false
}

// errorCode returns the S3 error code in err, or "".
func errorCode(err error) string {
	var api smithy.APIError
	if errors.As(err, &api) {
		return api.ErrorCode()
	}
	return ""
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
