// Package s3blob is the hub's file storage in an S3-compatible bucket (AWS
// S3, Cloudflare R2, MinIO, versitygw), through gocloud.dev/blob and its
// s3blob driver.
//
// The hub never sees an upload's bytes: [Bucket.SignedPutURL] returns the
// bucket's own presigned PUT URL, the client PUTs the body straight to the
// bucket, and the hub later reads the object's size and type with
// [Bucket.Staged] before it accepts a submission naming it.
//
// A presigned URL cannot be revoked and takes further PUTs until it
// expires, so it names a staging object, [StagingPrefix]+key. The hub has
// the body copied to key with [Bucket.Seal], once, when a submission first
// names it; nothing but Seal writes key, so an accepted file's bytes can no
// longer change. [Bucket.SweepLeftovers] deletes staged bodies left over.
// A large file may come in parts instead ([Bucket.StartParts]): a multipart
// upload of the staged object, one presigned UploadPart URL per part, each
// signed with its part's length, joined there by [Bucket.CompleteParts].
//
// # Signed URLs
//
// A URL is an AWS Signature Version 4 presigned PutObject request whose
// signed headers include Content-Type and Content-Length, set to the
// upload's declared type and exact size:
//
//	http://127.0.0.1:7070/forms/incoming/uploads/acme/contact/…/a.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&…&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost&X-Amz-Signature=…
//
// The bucket, not the hub, refuses a PUT with another type or length, after
// expiry, or with a changed URL. gocloud's s3blob refuses a ContentType
// option for presigned PUTs, so both are set on the *s3.PutObjectInput in
// the BeforeSign hook. The bucket needs CORS rules allowing PUT with a
// Content-Type header from the sites' origins before a browser may upload.
//
// # Bucket URLs
//
// [Open] takes gocloud's s3 URLs:
//
//	s3://forms?region=us-east-1
//	s3://forms?endpoint=https://ACCOUNT.r2.cloudflarestorage.com&region=auto
//	s3://forms?endpoint=http://127.0.0.1:7070&region=us-east-1
//
// Credentials come from the AWS SDK's usual sources: AWS_ACCESS_KEY_ID and
// AWS_SECRET_ACCESS_KEY, a shared profile, or an instance role. With an
// endpoint, requests use path-style addressing (http://HOST/BUCKET/KEY)
// unless the URL says otherwise, since custom endpoints rarely resolve
// BUCKET.HOST names.
package s3blob
