package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/handlers/hub/s3blob"
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

// Put stores r as the object Prefix/name.
func (b Bucket) Put(ctx context.Context, name string, r io.ReadSeeker, size int64) error {
	return b.Objects.Put(ctx, path.Join(b.Prefix, name), "application/octet-stream", r, size)
}

// Open returns the object Prefix/name.
func (b Bucket) Open(ctx context.Context, name string) (io.ReadCloser, error) {
	r, err := b.Objects.NewReader(ctx, path.Join(b.Prefix, name))
	if errors.Is(err, hub.ErrNotFound) {
		return nil, fmt.Errorf("%w: %w", fs.ErrNotExist, err)
	}
	return r, err
}

// listing is what Bucket needs of Objects to keep backups: s3blob.Bucket
// has it.
type listing interface {
	Keys(ctx context.Context, prefix string) ([]string, error)
	Delete(ctx context.Context, key string) error
}

// Backups returns the names of the complete backups under Prefix, oldest
// first.
func (b Bucket) Backups(ctx context.Context) ([]string, error) {
	l, ok := b.Objects.(listing)
	if !ok {
		return nil, fmt.Errorf("%T cannot list objects", b.Objects)
	}
	keys, err := l.Keys(ctx, path.Join(b.Prefix, "hubform-"))
	if err != nil {
		return nil, err
	}
	var names []string
	for _, k := range keys {
		if path.Base(k) == ManifestName && path.Dir(path.Dir(k)) == path.Clean(path.Join(b.Prefix, ".")) {
			names = append(names, path.Base(path.Dir(k)))
		}
	}
	slices.Sort(names)
	return names, nil
}

// Remove removes every object of the backup name.
func (b Bucket) Remove(ctx context.Context, name string) error {
	l, ok := b.Objects.(listing)
	if !ok {
		return fmt.Errorf("%T cannot remove objects", b.Objects)
	}
	if !strings.HasPrefix(name, "hubform-") || strings.Contains(name, "/") {
		return fmt.Errorf("%q is not a backup's name", name)
	}
	keys, err := l.Keys(ctx, path.Join(b.Prefix, name)+"/")
	if err != nil {
		return err
	}
	// The manifest first: a backup half removed is one cut short.
	if i := slices.IndexFunc(keys, func(k string) bool { return path.Base(k) == ManifestName }); i > 0 {
		keys[0], keys[i] = keys[i], keys[0]
	}
	for _, k := range keys {
		if err := l.Delete(ctx, k); err != nil {
			return err
		}
	}
	return nil
}

// Place is where backups go and come from: a Dir or a Bucket.
type Place interface {
	Target
	Source
	Keeper
}

// Open opens raw, a directory or s3://BUCKET/PREFIX?QUERY with the query
// and AWS_* environment of s3blob.Open, as a Place; where names it
// without its query, which may hold an endpoint's details.
func Open(ctx context.Context, raw string) (p Place, where string, err error) {
	bucketURL, prefix, ok := SplitBucketURL(raw)
	if !ok {
		return Dir(raw), raw, nil
	}
	objects, err := s3blob.Open(ctx, bucketURL)
	if err != nil {
		return nil, "", err
	}
	u, _ := url.Parse(bucketURL)
	return Bucket{Objects: objects, Prefix: prefix}, "s3://" + path.Join(u.Host, prefix), nil
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
