package s3blob

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// S3's bounds on a multipart upload: every part but the last has at least
// MinPartSize bytes, none more than maxPartSize, and there are at most
// maxParts. Checked at the start, they fail there rather than when the
// client has sent gigabytes.
const (
	MinPartSize = 5 << 20
	maxPartSize = 5 << 30
	maxParts    = 10_000
)

var _ hub.PartUploader = (*Bucket)(nil)

// StartParts begins a multipart upload of u's staged body, StagingPrefix+
// u.Key, where one PUT would have put it, so that Staged and Seal work the
// same for either. Each part's URL is a presigned UploadPart whose signed
// Content-Length is the part's exact length: the bucket refuses a body of
// another length, as it does for SignedPutURL. The type, which a part's
// PUT cannot carry, is the upload's from its start.
func (b *Bucket) StartParts(ctx context.Context, u hub.Upload, partSize int64, expiry time.Duration) (string, []string, error) {
	switch {
	case expiry <= 0 || expiry > MaxExpiry:
		return "", nil, fmt.Errorf("s3blob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	case u.Key == "":
		return "", nil, errors.New("s3blob: empty key")
	case u.MIME == "":
		return "", nil, fmt.Errorf("s3blob: upload %q has no content type", u.Key)
	case u.Size <= 0:
		return "", nil, fmt.Errorf("s3blob: upload %q has size %d: want a positive one in parts", u.Key, u.Size)
	case partSize < MinPartSize || partSize > maxPartSize:
		return "", nil, fmt.Errorf("s3blob: part size %d: want %d to %d bytes", partSize, MinPartSize, maxPartSize)
	case (u.Size+partSize-1)/partSize > maxParts:
		return "", nil, fmt.Errorf("s3blob: %d bytes in parts of %d are more than %d parts", u.Size, partSize, maxParts)
	}
	staged := StagingPrefix + u.Key
	out, err := b.client.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(staged), ContentType: aws.String(u.MIME),
	})
	if err != nil {
		return "", nil, fmt.Errorf("s3blob: start parts of s3://%s/%s: %w", b.name, staged, err)
	}
	u.PartsID = aws.ToString(out.UploadId)
	urls, err := b.signParts(ctx, u, partSize, expiry)
	if err != nil {
		// Nobody would have the id to abort it but the sweep, which only
		// knows recorded uploads.
		b.AbortParts(context.WithoutCancel(ctx), u)
		return "", nil, err
	}
	return u.PartsID, urls, nil
}

// SignParts presigns the UploadPart URLs of u's parts again (see
// StartParts).
func (b *Bucket) SignParts(ctx context.Context, u hub.Upload, partSize int64, expiry time.Duration) ([]string, error) {
	switch {
	case expiry <= 0 || expiry > MaxExpiry:
		return nil, fmt.Errorf("s3blob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	case u.PartsID == "" || u.Size <= 0 || partSize < MinPartSize || partSize > maxPartSize:
		return nil, fmt.Errorf("s3blob: %q: no parts of %d bytes in parts of %d to sign", u.Key, u.Size, partSize)
	}
	return b.signParts(ctx, u, partSize, expiry)
}

func (b *Bucket) signParts(ctx context.Context, u hub.Upload, partSize int64, expiry time.Duration) ([]string, error) {
	staged := StagingPrefix + u.Key
	var urls []string
	for n, off := int32(1), int64(0); off < u.Size; n, off = n+1, off+partSize {
		req, err := b.presign.PresignUploadPart(ctx, &s3.UploadPartInput{
			Bucket: aws.String(b.name), Key: aws.String(staged), UploadId: aws.String(u.PartsID),
			PartNumber: aws.Int32(n), ContentLength: aws.Int64(min(partSize, u.Size-off)),
		}, s3.WithPresignExpires(expiry))
		if err != nil {
			return nil, fmt.Errorf("s3blob: sign part %d of s3://%s/%s: %w", n, b.name, staged, err)
		}
		urls = append(urls, req.URL)
	}
	return urls, nil
}

// CompleteParts joins the parts named into u's staged body. It first
// compares them with the parts the bucket holds, since the bucket, given
// a list that stops short, would make a shorter file of it and end the
// upload: the client could no longer send the part it left out. A
// NoSuchUpload means the upload ended: completed already, for a client
// asking again after a lost answer, when the file is there whole.
func (b *Bucket) CompleteParts(ctx context.Context, u hub.Upload, parts []hubclient.UploadedPart) error {
	staged := StagingPrefix + u.Key
	if u.PartsID == "" || len(parts) == 0 {
		return fmt.Errorf("s3blob: complete s3://%s/%s: no upload id or no parts: %w", b.name, staged, hub.ErrParts)
	}
	stored, err := b.storedParts(ctx, u)
	if err != nil {
		return b.completeErr(ctx, u, err)
	}
	var sum int64
	completed := make([]types.CompletedPart, len(parts))
	for i, p := range parts {
		s, ok := stored[int32(p.Number)]
		if !ok || strings.Trim(aws.ToString(s.ETag), `"`) != strings.Trim(p.ETag, `"`) {
			return fmt.Errorf("s3blob: s3://%s/%s has no part %d of ETag %s: %w", b.name, staged, p.Number, p.ETag, hub.ErrParts)
		}
		sum += aws.ToInt64(s.Size)
		completed[i] = types.CompletedPart{PartNumber: aws.Int32(int32(p.Number)), ETag: aws.String(p.ETag)}
	}
	if sum != u.Size {
		return fmt.Errorf("s3blob: the parts named of s3://%s/%s have %d bytes, not %d: %w", b.name, staged, sum, u.Size, hub.ErrParts)
	}
	_, err = b.client.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(staged), UploadId: aws.String(u.PartsID),
		MultipartUpload: &types.CompletedMultipartUpload{Parts: completed},
	})
	if err != nil {
		return b.completeErr(ctx, u, err)
	}
	// Parts may be PUT again between the listing and the completion: the
	// file's own size settles it.
	if size, _, err := b.Staged(ctx, u.Key); err != nil {
		return err
	} else if size != u.Size {
		b.client.DeleteObject(context.WithoutCancel(ctx), &s3.DeleteObjectInput{Bucket: aws.String(b.name), Key: aws.String(staged)})
		return fmt.Errorf("s3blob: s3://%s/%s completed with %d bytes, not %d: %w", b.name, staged, size, u.Size, hub.ErrParts)
	}
	return nil
}

// storedParts lists the parts the bucket holds for u, by number.
func (b *Bucket) storedParts(ctx context.Context, u hub.Upload) (map[int32]types.Part, error) {
	stored := map[int32]types.Part{}
	pages := s3.NewListPartsPaginator(b.client, &s3.ListPartsInput{
		Bucket: aws.String(b.name), Key: aws.String(StagingPrefix + u.Key), UploadId: aws.String(u.PartsID),
	})
	for pages.HasMorePages() {
		page, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, p := range page.Parts {
			stored[aws.ToInt32(p.PartNumber)] = p
		}
	}
	return stored, nil
}

// completeErr turns the bucket's refusal of u's parts into hub.ErrParts.
func (b *Bucket) completeErr(ctx context.Context, u hub.Upload, err error) error {
	staged := StagingPrefix + u.Key
	switch errorCode(err) {
	case "NoSuchUpload":
		// Completed, the file is staged, or sealed since.
		for _, key := range []string{staged, u.Key} {
			if size, _, err := b.Attributes(ctx, key); err == nil && size == u.Size {
				return nil
			}
		}
		return fmt.Errorf("s3blob: s3://%s/%s: the upload in parts ended without its file: %w", b.name, staged, hub.ErrParts)
	case "InvalidPart", "InvalidPartOrder", "EntityTooSmall":
		return fmt.Errorf("s3blob: complete s3://%s/%s: %w: %w", b.name, staged, hub.ErrParts, err)
	}
	return fmt.Errorf("s3blob: complete s3://%s/%s: %w", b.name, staged, err)
}

// AbortParts aborts u's multipart upload, so that the bucket drops its
// parts, which it keeps and bills for otherwise.
func (b *Bucket) AbortParts(ctx context.Context, u hub.Upload) error {
	staged := StagingPrefix + u.Key
	if u.PartsID == "" {
		return fmt.Errorf("s3blob: abort s3://%s/%s: no upload id", b.name, staged)
	}
	_, err := b.client.AbortMultipartUpload(ctx, &s3.AbortMultipartUploadInput{
		Bucket: aws.String(b.name), Key: aws.String(staged), UploadId: aws.String(u.PartsID),
	})
	if err != nil && errorCode(err) != "NoSuchUpload" {
		return fmt.Errorf("s3blob: abort s3://%s/%s: %w", b.name, staged, err)
	}
	return nil
}
