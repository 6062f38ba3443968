package s3blob

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

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

// copy copies the staged body of u, of attributes a, under u.Key, on the
// condition that it still has a's ETag; errChanged when it has not.
func (b *Bucket) copy(ctx context.Context, staged string, u hub.Upload, a *blob.Attributes) error {
	if a.Size <= maxCopySize {
		err := b.bucket.Copy(ctx, u.Key, staged, &blob.CopyOptions{
			BeforeCopy: func(as func(any) bool) error {
				var in *s3.CopyObjectInput
				if !as(&in) {
					return fmt.Errorf("not an S3 CopyObject request")
				}
				in.CopySourceIfMatch = aws.String(a.ETag)
				return nil
			},
		})
		if gcerrors.Code(err) == gcerrors.FailedPrecondition {
			return errChanged
		}
		return err
	}
	return b.copyInParts(ctx, staged, u, a)
}

// copyInParts is copy for a body larger than S3 copies at once: a
// multipart upload of u.Key whose parts are ranges of the staged body.
func (b *Bucket) copyInParts(ctx context.Context, staged string, u hub.Upload, a *blob.Attributes) error {
	client, err := b.client()
	if err != nil {
		return err
	}
	out, err := client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(u.Key), ContentType: aws.String(u.MIME),
	})
	if err != nil {
		return err
	}
	id := out.UploadId
	abort := func(err error) error {
		client.AbortMultipartUpload(context.WithoutCancel(ctx), &s3.AbortMultipartUploadInput{Bucket: aws.String(b.name), Key: aws.String(u.Key), UploadId: id})
		if code := errorCode(err); code == "PreconditionFailed" {
			return errChanged
		}
		return err
	}
	source := b.name + "/" + (&url.URL{Path: staged}).EscapedPath()
	var parts []types.CompletedPart
	for n, off := int32(1), int64(0); off < a.Size; n, off = n+1, off+copyPartSize {
		last := min(off+copyPartSize, a.Size) - 1
		res, err := client.UploadPartCopy(ctx, &s3.UploadPartCopyInput{
			Bucket: aws.String(b.name), Key: aws.String(u.Key), UploadId: id, PartNumber: aws.Int32(n),
			CopySource:        aws.String(source),
			CopySourceRange:   aws.String("bytes=" + strconv.FormatInt(off, 10) + "-" + strconv.FormatInt(last, 10)),
			CopySourceIfMatch: aws.String(a.ETag),
		})
		if err != nil {
			return abort(err)
		}
		parts = append(parts, types.CompletedPart{PartNumber: aws.Int32(n), ETag: res.CopyPartResult.ETag})
	}
	_, err = client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(u.Key), UploadId: id,
		MultipartUpload: &types.CompletedMultipartUpload{Parts: parts},
	})
	if err != nil {
		return abort(err)
	}
	return nil
}
