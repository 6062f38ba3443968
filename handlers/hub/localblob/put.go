package localblob

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// Uploads is what the PUT handler needs of the hub's upload records.
type Uploads interface {
	// Upload returns the record of key, or an error wrapping
	// hub.ErrNotFound when there is none.
	Upload(ctx context.Context, key string) (hub.Upload, error)
	// MarkUploaded records that the body of key was stored at at.
	MarkUploaded(ctx context.Context, key string, at time.Time) error
}

// copyBufSize is the one buffer an upload holds; the body never is in
// memory whole.
const copyBufSize = 64 << 10

// recordTimeout bounds the bookkeeping after a body is stored, which runs
// even when the client has gone so that the record matches the directory.
const recordTimeout = 10 * time.Second

// PutHandler returns the http.Handler serving the PUT endpoint, to be
// mounted at the path of the putURL given to Open.
//
// It accepts a PUT whose URL is signed by a Store sharing the secret, not
// expired, for a key whose record is neither uploaded nor claimed, with the
// record's MIME type as Content-Type and its size as Content-Length. It
// streams the body into the directory, marks the record uploaded and answers
// 200 with no body. Refusals are JSON {"ok":false,"error":"..."}; nothing of
// a refused or broken body is kept.
//
// The body is read under the request's context: the server's timeouts bound
// a slow client.
func (s *Store) PutHandler(uploads Uploads) http.Handler {
	return &putHandler{s: s, uploads: uploads}
}

type putHandler struct {
	s       *Store
	uploads Uploads
}

// UploadKey returns the object key r's signed URL names (protocol.UploadKeyer);
// the handler checks the signature.
func (h *putHandler) UploadKey(r *http.Request) string { return r.URL.Query().Get(queryKey) }

func (h *putHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPut {
		w.Header().Set("Allow", http.MethodPut)
		refuse(w, http.StatusMethodNotAllowed, "method "+r.Method+" not allowed; upload with PUT")
		return
	}
	su, err := h.s.signer.verify(r.URL.Query())
	if err != nil {
		refuse(w, http.StatusForbidden, err.Error())
		return
	}
	if su.method != http.MethodPut {
		refuse(w, http.StatusForbidden, "upload URL is not signed for PUT")
		return
	}
	if su.part != 0 {
		h.servePart(w, r, su)
		return
	}
	key := su.key
	if err := checkKey(key); err != nil {
		refuse(w, http.StatusBadRequest, "the upload URL names an invalid object key")
		return
	}
	ctx := r.Context()
	rec, err := h.uploads.Upload(ctx, key)
	switch {
	case errors.Is(err, hub.ErrNotFound):
		refuse(w, http.StatusNotFound, "no upload is expected for this URL")
		return
	case err != nil:
		h.s.log.Error("localblob: reading upload record", "key", key, "err", err)
		refuse(w, http.StatusInternalServerError, "reading the upload record failed")
		return
	}
	if msg, code := checkRecord(rec, h.s.now()); code != 0 {
		refuse(w, code, msg)
		return
	}
	if msg, code := checkHeaders(r, rec, su.contentType); code != 0 {
		refuse(w, code, msg)
		return
	}
	if !h.s.claim(key) {
		refuse(w, http.StatusConflict, "another upload to this URL is in progress")
		return
	}
	defer h.s.release(key)
	switch exists, err := h.s.exists(key); {
	case err != nil:
		h.s.log.Error("localblob: looking for the object", "key", key, "err", err)
		refuse(w, http.StatusInternalServerError, "storing the file failed")
		return
	case exists:
		// An object without an uploaded record is the remnant of a failed
		// upload whose cleanup failed too; the sweeper removes it.
		refuse(w, http.StatusConflict, "the file was already uploaded")
		return
	}
	if msg, code := h.s.store(ctx, key, rec, r.Body); code != 0 {
		refuse(w, code, msg)
		return
	}

	// The body is stored; record it even if the client is gone.
	bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), recordTimeout)
	defer cancel()
	if err := h.uploads.MarkUploaded(bg, key, h.s.now()); err != nil {
		if derr := h.s.Delete(bg, key); derr != nil {
			h.s.log.Error("localblob: removing an unrecorded upload", "key", key, "err", derr)
		}
		if errors.Is(err, hub.ErrNotFound) || errors.Is(err, hub.ErrUploadClaim) {
			refuse(w, http.StatusConflict, "the upload is no longer expected")
			return
		}
		h.s.log.Error("localblob: marking upload stored", "key", key, "err", err)
		refuse(w, http.StatusInternalServerError, "recording the upload failed")
		return
	}
	w.WriteHeader(http.StatusOK)
}

// checkRecord refuses a record whose upload is over: expired, stored or
// claimed. It returns the message and status of the refusal, or a zero
// status.
func checkRecord(rec hub.Upload, now time.Time) (string, int) {
	switch {
	case rec.SubmissionID != "":
		return "the file was already uploaded and submitted", http.StatusConflict
	case !rec.UploadedAt.IsZero():
		return "the file was already uploaded", http.StatusConflict
	case !rec.ExpiresAt.IsZero() && now.After(rec.ExpiresAt):
		return errExpired.Error(), http.StatusForbidden
	}
	return "", 0
}

// checkHeaders compares the request's Content-Type and Content-Length with
// the record, and with the type the URL was signed for if any.
func checkHeaders(r *http.Request, rec hub.Upload, signedType string) (string, int) {
	ct := r.Header.Get("Content-Type")
	if ct != rec.MIME {
		return fmt.Sprintf("Content-Type %q does not match the type %q the upload URL was issued for", ct, rec.MIME), http.StatusUnsupportedMediaType
	}
	if signedType != "" && ct != signedType {
		return fmt.Sprintf("Content-Type %q does not match the signed type %q", ct, signedType), http.StatusUnsupportedMediaType
	}
	if _, _, err := mime.ParseMediaType(rec.MIME); err != nil {
		return fmt.Sprintf("type %q of the upload is not a media type", rec.MIME), http.StatusUnsupportedMediaType
	}
	return checkLength(r, rec.Size)
}

// checkLength compares the request's Content-Length with the length the
// upload URL was issued for.
func checkLength(r *http.Request, length int64) (string, int) {
	// net/http reports a request without Content-Length and without a
	// chunked body as length 0, so the header itself is looked at.
	if len(r.TransferEncoding) > 0 || r.ContentLength < 0 || r.Header.Get("Content-Length") == "" {
		return "Content-Length is required; chunked bodies are not accepted", http.StatusLengthRequired
	}
	switch {
	case r.ContentLength > length:
		return fmt.Sprintf("Content-Length %d is larger than the %d bytes the upload URL was issued for", r.ContentLength, length), http.StatusRequestEntityTooLarge
	case r.ContentLength < length:
		return fmt.Sprintf("Content-Length %d is smaller than the %d bytes the upload URL was issued for", r.ContentLength, length), http.StatusBadRequest
	}
	return "", 0
}

// store streams exactly rec.Size bytes of body into the object key. Anything
// else, a short body, a longer one or a failed write, discards the write so
// that no object, temporary file or sidecar remains. It returns the message
// and status of a failure, or a zero status.
func (s *Store) store(ctx context.Context, key string, rec hub.Upload, body io.Reader) (string, int) {
	f, err := s.create(key)
	if err != nil {
		s.log.Error("localblob: starting a write", "key", key, "err", err)
		return storeFailed(err)
	}
	// The wrapper hides os.File's ReadFrom, which would bypass receive's
	// one buffer.
	if msg, code := s.receive(ctx, key, struct{ io.Writer }{f}, rec.Size, body); code != 0 {
		discard(f)
		s.prune(key)
		return msg, code
	}
	if err := s.commit(ctx, f, key, rec.MIME); err != nil {
		s.prune(key)
		switch {
		case errors.Is(err, errExists):
			return "the file was already uploaded", http.StatusConflict
		case ctx.Err() != nil:
			return "the upload took too long or was cancelled", http.StatusRequestTimeout
		}
		s.log.Error("localblob: completing a write", "key", key, "err", err)
		return storeFailed(err)
	}
	return "", 0
}

// storeFailed is the message and status of a write that failed with err: a
// 507 saying so when the disk has no room (hubclient.StorageFull), which
// a client may retry later, else a 500.
func storeFailed(err error) (string, int) {
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		return hubclient.StorageFull + ": nothing was stored; try again later", http.StatusInsufficientStorage
	}
	return "storing the file failed", http.StatusInternalServerError
}

// receive copies exactly length bytes of body, the upload of key, to w. It
// returns the message and status of a body of another length or a failure,
// or a zero status.
func (s *Store) receive(ctx context.Context, key string, w io.Writer, length int64, body io.Reader) (string, int) {
	src := &bodyReader{r: io.LimitReader(body, length+1)}
	n, err := io.CopyBuffer(w, src, make([]byte, copyBufSize))
	size := strconv.FormatInt(length, 10)
	switch {
	case src.err != nil:
		// A client that goes away also cancels ctx; the read error says
		// more. It names the hub's socket, so it goes to the log only.
		s.log.Info("localblob: body not read", "key", key, "received", n, "size", length, "err", src.err)
		received := strconv.FormatInt(n, 10) + " of " + size + " bytes"
		if hub.IsTimeout(src.err) {
			return "the body did not arrive in time: " + received + " received", http.StatusRequestTimeout
		}
		return "reading the body failed after " + received, http.StatusBadRequest
	case ctx.Err() != nil:
		return "the upload took too long or was cancelled", http.StatusRequestTimeout
	case err != nil:
		s.log.Error("localblob: writing", "key", key, "err", err)
		return storeFailed(err)
	case n > length:
		return "the body is longer than the " + size + " bytes declared", http.StatusRequestEntityTooLarge
	case n < length:
		return "the body ended after " + strconv.FormatInt(n, 10) + " of " + size + " bytes", http.StatusBadRequest
	}
	return "", 0
}

// bodyReader keeps the error of reading the body apart from errors of
// writing it, which io.Copy returns alike.
type bodyReader struct {
	r   io.Reader
	err error
}

func (b *bodyReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err != nil && err != io.EOF {
		b.err = err
	}
	return n, err
}

// refuse answers with status code and the JSON error body of the hub's
// routes.
func refuse(w http.ResponseWriter, code int, msg string) {
	// The body of a refused upload is mostly unread: the connection
	// closes rather than read it, or take it for the next request
	// (hubhttp.OverLimit).
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now())
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}{false, msg})
}
