// Package s3blob is the hub's file storage in an S3-compatible bucket (AWS
// S3, Cloudflare R2, MinIO, versitygw), through the AWS SDK for Go v2.
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
// expiry, or with a changed URL. Both are set on the *s3.PutObjectInput
// that the SDK's PresignClient signs. The bucket needs CORS rules allowing
// PUT with a Content-Type header from the sites' origins before a browser
// may upload.
//
// # Bucket URLs
//
// [Open] takes the s3 URLs of gocloud.dev's s3blob, through which earlier
// versions reached the bucket:
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
//
// The query's members besides region and endpoint are those gocloud took:
// profile (a shared profile), role (an ARN to assume), anonymous (true:
// unsigned requests), use_path_style or s3ForcePathStyle, hostname_immutable
// (true: path-style on the endpoint), disable_https, accelerate, dualstack
// and fips (booleans), rate_limiter_capacity (the SDK's retry quota; none
// by default), request_checksum_calculation and
// response_checksum_validation (when_supported or when_required), ssetype
// (AES256, aws:kms, aws:kms:dsse) and kmskeyid, which encrypt the files
// Seal writes, and awssdk, which is ignored. Others are refused.
package s3blob
