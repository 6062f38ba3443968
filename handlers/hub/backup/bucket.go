package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
)

// Objects are a bucket's objects, as s3blob.Bucket keeps them.
type Objects interface {
	Put(ctx context.Context, key, contentType string, body io.ReadSeeker, size int64) error
	// NewReader returns an object's bytes, or an error wrapping
	// hub.ErrNotFound.
	NewReader(ctx context.Context, key string) (io.ReadCloser, error)
}

// Bucket is a bucket's objects under Prefix, which backups are written
// to, or one backup read from.
type Bucket struct {
	Objects Objects
	Prefix  string
}

// Put stores f as the object Prefix/name.
func (b Bucket) Put(ctx context.Context, name string, f *os.File, size int64) error {
	return b.Objects.Put(ctx, path.Join(b.Prefix, name), "application/octet-stream", f, size)
}

// Open returns the object Prefix/name.
func (b Bucket) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	r, err := b.Objects.NewReader(ctx, path.Join(b.Prefix, name))
	if errors.Is(err, hub.ErrNotFound) {
		return nil, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	return r, err
}

// SplitBucketURL splits s3://BUCKET/PREFIX?QUERY into the bucket's URL,
// s3://BUCKET?QUERY, as s3blob.Open takes it, and the prefix; ok is false
// for anything but an s3:// URL.
func SplitBucketURL(raw string) (bucketURL, prefix string, ok bool) {
	if !strings.HasPrefix(raw, "s3://") {
		return "", "", false
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "", "", false
	}
	prefix = strings.Trim(u.Path, "/")
	u.Path, u.RawPath = "", ""
	return u.String(), prefix, true
}
