package s3blob

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/hubform/hubform/handlers/hub"
)

// S3 copies an object of at most maxCopySize bytes in one request; Seal
// copies a larger one, which only files in parts can be, in parts of
// copyPartSize. Variables, so that tests copy small files so.
var (
	maxCopySize  int64 = 5 << 30
	copyPartSize int64 = 1 << 30
)

// errChanged is copy's error when the source is no longer the body
// checked: a PUT replaced it meanwhile.
var errChanged = fmt.Errorf("s3blob: the staged body changed while it was sealed")

// copy copies the staged body of u, of size bytes, under u.Key, on the
// condition that it still has the ETag etag; errChanged when it has not.
func (b *Bucket) copy(ctx context.Context, staged string, u hub.Upload, size int64, etag string) error {
	if size > maxCopySize {
		return b.copyInParts(ctx, staged, u, size, etag)
	}
	_, err := b.client.CopyObject(ctx, &s3.CopyObjectInput{
		Bucket: aws.String(b.name), Key: aws.String(u.Key),
		CopySource:           aws.String(b.copySource(staged)),
		CopySourceIfMatch:    aws.String(etag),
		ServerSideEncryption: b.enc.sse, SSEKMSKeyId: b.enc.kmsKey,
	})
	if errorCode(err) == "PreconditionFailed" {
		return errChanged
	}
	return err
}

// copyInParts is copy for a body larger than S3 copies at once: a
// multipart upload of u.Key whose parts are ranges of the staged body.
func (b *Bucket) copyInParts(ctx context.Context, staged string, u hub.Upload, size int64, etag string) error {
	out, err := b.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(u.Key), ContentType: aws.String(u.MIME),
		ServerSideEncryption: b.enc.sse, SSEKMSKeyId: b.enc.kmsKey,
	})
	if err != nil {
		return err
	}
	id := out.UploadId
	abort := func(err error) error {
		b.client.AbortMultipartUpload(context.WithoutCancel(ctx), &s3.AbortMultipartUploadInput{Bucket: aws.String(b.name), Key: aws.String(u.Key), UploadId: id})
		if code := errorCode(err); code == "PreconditionFailed" {
			return errChanged
		}
		return err
	}
	source := b.copySource(staged)
	var parts []types.CompletedPart
	for n, off := int32(1), int64(0); off < size; n, off = n+1, off+copyPartSize {
		last := min(off+copyPartSize, size) - 1
		res, err := b.client.UploadPartCopy(ctx, &s3.UploadPartCopyInput{
			Bucket: aws.String(b.name), Key: aws.String(u.Key), UploadId: id, PartNumber: aws.Int32(n),
			CopySource:        aws.String(source),
			CopySourceRange:   aws.String("bytes=" + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(last, 10)),
			CopySourceIfMatch: aws.String(etag),
		})
		if err != nil {
			return abort(err)
		}
		parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(n), ETag: res.CopyPartResult.ETag})
	}
	_, err = b.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(u.Key), UploadId: id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		return abort(err)
	}
	return nil
}

// copySource names the object key of the bucket as a copy's source:
// BUCKET/KEY, the key URL-escaped.
func (b *Bucket) copySource(key string) string {
	return b.name + "/" + (&url.URL{Path: key}).EscapedPath()
}
