// Package localblob is the hub's file storage on a local directory, with the
// signed upload URLs that let a client PUT a file straight to the hub.
//
// The hub signs a URL for one key with [Store.SignedPutURL] and hands it out
// from the upload-url route. The client PUTs the body to it, with the
// upload's exact Content-Type and Content-Length; [Store.PutHandler] checks
// the signature, the expiry and the hub's upload record, streams the body
// into the directory and marks the upload stored.
//
// # Signed URLs
//
// A signed URL is the PUT endpoint's URL with four query members, in the
// form of gocloud.dev's fileblob.URLSignerHMAC, which earlier versions of
// the store signed with, so either verifies the other's URLs:
//
//	http://127.0.0.1:8081/v1/_uploads?expiry=1767225600&method=PUT&obj=uploads%2Fsite%2Fform%2F...%2Fa.pdf&signature=...
//
// obj is the key, expiry the last valid second (Unix time), method the
// method the URL is good for and signature the unpadded base64url HMAC-SHA256
// of those three, query-encoded in that (sorted) order, under the secret.
// The signature binds neither the size nor the type: the handler takes both
// from the upload record.
//
// # Files on disk
//
// An object with key k is the file dir/k, with its content type in the
// sidecar dir/k.attrs, a JSON object in the form of fileblob's sidecars
// (the store reads and writes its "user.content_type"), so that the
// directory of an earlier version is this one's and back. An object
// without a sidecar is application/octet-stream. While a body arrives it
// is written to dir/k.<hex>.tmp and renamed into place only when complete,
// so a reader never sees half a file; a temporary file is left behind only
// when the process dies during an upload, and [Store.SweepLeftovers]
// removes it later. Directories emptied by a delete, an aborted upload or a sweep are
// removed.
//
// # Files in parts
//
// [Store.StartParts] signs one URL per part of a large file; each also
// signs the part's number, offset and length, and the upload's id. The
// handler writes a part in place into dir/.parts/<id>/data and, once it is
// whole, records its ETag (its MD5) and length in dir/.parts/<id>/<n>.
// [Store.CompleteParts] checks the records against the ETags the client
// names and renames the data into the object's place, with its sidecar: a
// file costs one write, however many parts it came in.
package localblob
