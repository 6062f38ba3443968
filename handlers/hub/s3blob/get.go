package s3blob

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"gocloud.dev/blob"
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
	signed, err := b.bucket.SignedURL(ctx, key, &blob.SignedURLOptions{
		Method: http.MethodGet,
		Expiry: expiry,
		BeforeSign: func(as func(any) bool) error {
			var in *s3.GetObjectInput
			if !as(&in) {
				return errors.New("not an S3 GetObject request")
			}
			in.ResponseContentDisposition = aws.String(disposition)
			in.ResponseContentType = aws.String("application/octet-stream")
			return nil
		},
	})
	if err != nil {
		return "", fmt.Errorf("s3blob: sign download of %q: %w", key, err)
	}
	return signed, nil
}
