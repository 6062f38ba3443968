package localblob

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// partsPrefix starts the keys of the parts of uploads in parts until they
// are joined: part n of upload id is the object partsPrefix+id+"/"+n. No
// key of a file takes this prefix (checkKey).
const partsPrefix = ".parts/"

func partKey(partsID string, n int) string { return partsPrefix + partsID + "/" + strconv.Itoa(n) }

// StartParts implements hub.PartUploader: it signs one URL per part of
// partSize bytes of u's file, on the PUT endpoint, which stores each part
// apart; CompleteParts joins them. Nothing is stored before a part comes.
func (s *Store) StartParts(_ context.Context, u hub.Upload, partSize int64, expiry time.Duration) (string, []string, error) {
	switch {
	case expiry <= 0 || expiry > MaxExpiry:
		return "", nil, fmt.Errorf("localblob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	case partSize <= 0 || u.Size <= 0:
		return "", nil, fmt.Errorf("localblob: %d bytes in parts of %d: want both positive", u.Size, partSize)
	}
	if err := checkKey(u.Key); err != nil {
		return "", nil, err
	}
	id := make([]byte, 16)
	rand.Read(id)
	partsID := hex.EncodeToString(id)
	parts := (&hubclient.UploadParts{PartSize: partSize}).Count(u.Size)
	urls := make([]string, parts)
	for n := 1; n <= parts; n++ {
		length := min(partSize, u.Size-int64(n-1)*partSize)
		urls[n-1] = s.signer.partURL(u.Key, partsID, n, length, expiry)
	}
	return partsID, urls, nil
}

// servePart stores a part of an upload in parts, which a retry may send
// again, and answers its ETag: the quoted hex MD5 of its bytes.
func (h *putHandler) servePart(w http.ResponseWriter, r *http.Request, su signedURL) {
	ctx := r.Context()
	rec, err := h.uploads.Upload(ctx, su.key)
	switch {
	case errors.Is(err, hub.ErrNotFound) || err == nil && rec.PartsID != su.partsID:
		refuse(w, http.StatusNotFound, "no upload is expected for this URL")
		return
	case err != nil:
		h.s.log.Error("localblob: reading upload record", "key", su.key, "err", err)
		refuse(w, http.StatusInternalServerError, "reading the upload record failed")
		return
	}
	if msg, code := checkRecord(rec, h.s.now()); code != 0 {
		refuse(w, code, msg)
		return
	}
	if msg, code := checkLength(r, su.length); code != 0 {
		refuse(w, code, msg)
		return
	}
	if exists, err := h.s.bucket.Exists(ctx, su.key); err != nil || exists {
		refuse(w, http.StatusConflict, "the file was already uploaded")
		return
	}
	key := partKey(su.partsID, su.part)
	if !h.s.claim(key) {
		refuse(w, http.StatusConflict, "another upload of this part is in progress")
		return
	}
	defer h.s.release(key)
	if msg, code := h.s.storeBody(ctx, key, "application/octet-stream", su.length, true, r.Body); code != 0 {
		refuse(w, code, msg)
		return
	}
	a, err := h.s.bucket.Attributes(ctx, key)
	if err != nil || len(a.MD5) == 0 {
		h.s.log.Error("localblob: reading a part's checksum", "key", key, "err", err)
		refuse(w, http.StatusInternalServerError, "storing the file failed")
		return
	}
	w.Header().Set("ETag", etag(a.MD5))
	w.WriteHeader(http.StatusOK)
}

func etag(sum []byte) string { return `"` + hex.EncodeToString(sum) + `"` }

// CompleteParts implements hub.PartUploader: it writes u's file from its
// parts, in order, once they are all there and add up to its size,
// checking each against its ETag as it reads it, and deletes the parts. A
// file completed already is left as it is.
func (s *Store) CompleteParts(ctx context.Context, u hub.Upload, parts []hubclient.UploadedPart) error {
	if err := checkKey(u.Key); err != nil {
		return err
	}
	if a, err := s.bucket.Attributes(ctx, u.Key); err == nil && a.Size == u.Size {
		return nil
	}
	if !s.claim(u.Key) {
		return fmt.Errorf("localblob: %q is being completed: %w", u.Key, hub.ErrParts)
	}
	defer s.release(u.Key)
	var total int64
	for _, p := range parts {
		a, err := s.bucket.Attributes(ctx, partKey(u.PartsID, p.Number))
		switch {
		case gcerrors.Code(err) == gcerrors.NotFound:
			return fmt.Errorf("localblob: part %d of %q is not stored: %w", p.Number, u.Key, hub.ErrParts)
		case err != nil:
			return notFound(u.Key, err)
		}
		total += a.Size
	}
	if total != u.Size {
		return fmt.Errorf("localblob: the parts of %q hold %d bytes, not %d: %w", u.Key, total, u.Size, hub.ErrParts)
	}
	if err := s.join(ctx, u, parts); err != nil {
		return err
	}
	return s.AbortParts(ctx, u)
}

// join writes u's file from parts, streaming, and discards it unless each
// part read has the ETag named for it.
func (s *Store) join(ctx context.Context, u hub.Upload, parts []hubclient.UploadedPart) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	bw, err := s.newWriter(wctx, u.Key, u.MIME, true)
	if err != nil {
		return fmt.Errorf("localblob: writing %q: %w", u.Key, err)
	}
	sum := md5.New()
	buf := make([]byte, copyBufSize)
	for _, p := range parts {
		err := s.copyPart(ctx, struct{ io.Writer }{bw}, sum, buf, partKey(u.PartsID, p.Number))
		if err == nil && etag(sum.Sum(nil)) != p.ETag {
			err = fmt.Errorf("localblob: part %d of %q has another ETag: %w", p.Number, u.Key, hub.ErrParts)
		}
		if err != nil {
			cancel()
			bw.Close()
			s.prune(u.Key)
			return err
		}
	}
	if err := bw.Close(); err != nil {
		s.prune(u.Key)
		return fmt.Errorf("localblob: writing %q: %w", u.Key, err)
	}
	return nil
}

// copyPart copies the part key to w, summing it in sum, which it resets.
func (s *Store) copyPart(ctx context.Context, w io.Writer, sum hash.Hash, buf []byte, key string) error {
	sum.Reset()
	r, err := s.bucket.NewReader(ctx, key, nil)
	if err != nil {
		return notFound(key, err)
	}
	defer r.Close()
	if _, err := io.CopyBuffer(io.MultiWriter(w, sum), struct{ io.Reader }{r}, buf); err != nil {
		return fmt.Errorf("localblob: joining %q: %w", key, err)
	}
	return nil
}

// AbortParts implements hub.PartUploader: it deletes the parts stored for
// u's upload in parts.
func (s *Store) AbortParts(ctx context.Context, u hub.Upload) error {
	if u.PartsID == "" || strings.ContainsAny(u.PartsID, "/.") {
		return fmt.Errorf("localblob: %q: %q is not an id of parts", u.Key, u.PartsID)
	}
	prefix := partsPrefix + u.PartsID + "/"
	it := s.bucket.List(&blob.ListOptions{Prefix: prefix})
	var last string
	for {
		obj, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("localblob: listing the parts of %q: %w", u.Key, err)
		}
		if err := s.bucket.Delete(ctx, obj.Key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
			return fmt.Errorf("localblob: deleting %q: %w", obj.Key, err)
		}
		last = obj.Key
	}
	if last != "" {
		s.prune(last)
	}
	return nil
}
