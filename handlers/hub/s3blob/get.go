package s3blob

import (
	"context"
	"fmt"
	"mime"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// SignedGetURL returns the bucket's presigned URL for downloading the file
// key, valid for expiry (positive, at most MaxExpiry). The bucket answers
// it as a download named filename, of type application/octet-stream, so
// that a browser saves the file rather than showing what a visitor sent.
func (b *Bucket) SignedGetURL(ctx context.Context, key, filename string, expiry time.Duration) (string, error) {
	if expiry <= 0 || expiry > MaxExpiry {
		return "", fmt.Errorf("s3blob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	}
	disposition := mime.FormatMediaType("attachment", map[string]string{"filename": filename})
	if disposition == "" {
		disposition = "attachment"
	}
	req, err := b.presign.PresignGetObject(ctx, &s3.GetObjectInput{
		Bucket: aws.String(b.name), Key: aws.String(key),
		ResponseContentDisposition: aws.String(disposition),
		ResponseContentType:        aws.String("application/octet-stream"),
	}, s3.WithPresignExpires(expiry))
	if err != nil {
		return "", fmt.Errorf("s3blob: sign download of %q: %w", key, err)
	}
	return req.URL, nil
}
