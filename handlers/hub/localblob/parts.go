package localblob

import (
	"context"
	"crypto/md5"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// partsPrefix starts the directory of the uploads in parts: the parts of
// upload id are written in place into dir/.parts/id/data, and part n,
// once stored whole, is recorded by dir/.parts/id/n, which holds its ETag
// and length. Completing renames the data into its object's place, so a
// file costs one write however many parts it came in. No key of a file
// takes this prefix (checkKey).
const partsPrefix = ".parts/"

// partsDir returns the directory of the upload in parts id.
func (s *Store) partsDir(id string) string {
	return filepath.Join(s.dir, filepath.FromSlash(partsPrefix), id)
}

// checkPartsID refuses an id that is not one StartParts makes: it names a
// directory.
func checkPartsID(id string) error {
	if _, err := hex.DecodeString(id); err != nil || len(id) != 32 {
		return fmt.Errorf("localblob: %q is not an id of parts", id)
	}
	return nil
}

// StartParts implements hub.PartUploader: it signs one URL per part of
// partSize bytes of u's file, on the PUT endpoint; CompleteParts makes the
// file of them. Nothing is stored before a part comes.
func (s *Store) StartParts(ctx context.Context, u hub.Upload, partSize int64, expiry time.Duration) (string, []string, error) {
	if err := checkKey(u.Key); err != nil {
		return "", nil, err
	}
	id := make([]byte, 16)
	rand.Read(id)
	u.PartsID = hex.EncodeToString(id)
	urls, err := s.SignParts(ctx, u, partSize, expiry)
	return u.PartsID, urls, err
}

// SignParts implements hub.PartUploader.
func (s *Store) SignParts(_ context.Context, u hub.Upload, partSize int64, expiry time.Duration) ([]string, error) {
	switch {
	case expiry <= 0 || expiry > MaxExpiry:
		return nil, fmt.Errorf("localblob: expiry %v: want more than 0 and at most %v", expiry, MaxExpiry)
	case partSize <= 0 || u.Size <= 0:
		return nil, fmt.Errorf("localblob: %d bytes in parts of %d: want both positive", u.Size, partSize)
	}
	if err := checkPartsID(u.PartsID); err != nil {
		return nil, err
	}
	parts := (&hubclient.UploadParts{PartSize: partSize}).Count(u.Size)
	urls := make([]string, parts)
	for n := 1; n <= parts; n++ {
		length := min(partSize, u.Size-int64(n-1)*partSize)
		urls[n-1] = s.signer.partURL(u.Key, u.PartsID, n, length, expiry, int64(n-1)*partSize)
	}
	return urls, nil
}

// partRecord is what dir/.parts/id/n holds of part n stored whole.
type partRecord struct {
	ETag   string `json:"etag"`
	Length int64  `json:"length"`
}

// servePart writes a part of an upload in parts at its place in the file,
// which a retry may do again, and answers its ETag: the quoted hex MD5 of
// its bytes.
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
	// The part's URL has an expiry of its own, which the upload-parts route
	// renews: the upload may outlast the first.
	rec.ExpiresAt = time.Time{}
	if msg, code := checkRecord(rec, h.s.now()); code != 0 {
		refuse(w, code, msg)
		return
	}
	if msg, code := checkLength(r, su.length); code != 0 {
		refuse(w, code, msg)
		return
	}
	if err := checkPartsID(su.partsID); err != nil {
		refuse(w, http.StatusBadRequest, "the upload URL names no part of this file")
		return
	}
	// Held while the part is written, and by CompleteParts while it joins.
	busy := su.key + "#" + strconv.Itoa(su.part)
	if !h.s.claim(busy) {
		refuse(w, http.StatusConflict, "another upload of this part is in progress")
		return
	}
	defer h.s.release(busy)
	if exists, err := h.s.exists(su.key); err != nil || exists {
		refuse(w, http.StatusConflict, "the file was already uploaded")
		return
	}
	etag, msg, code := h.s.writePart(ctx, su, r.Body)
	if code != 0 {
		refuse(w, code, msg)
		return
	}
	w.Header().Set("ETag", etag)
	w.WriteHeader(http.StatusOK)
}

// writePart writes the part su grants of body into its upload's data, and
// records it once whole. It returns the part's ETag, or the message and
// status of a failure.
func (s *Store) writePart(ctx context.Context, su signedURL, body io.Reader) (string, string, int) {
	dir := s.partsDir(su.partsID)
	record := filepath.Join(dir, strconv.Itoa(su.part))
	fail := func(err error) (string, string, int) {
		s.log.Error("localblob: writing a part", "key", su.key, "part", su.part, "err", err)
		msg, status := storeFailed(err)
		return "", msg, status
	}
	s.dirMu.RLock()
	err := os.MkdirAll(dir, dirMode)
	var f *os.File
	if err == nil {
		f, err = os.OpenFile(filepath.Join(dir, "data"), os.O_WRONLY|os.O_CREATE, 0o640)
	}
	s.dirMu.RUnlock()
	if err != nil {
		return fail(err)
	}
	defer f.Close()
	// Sent again, a part is not whole until written again.
	if err := os.Remove(record); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fail(err)
	}
	sum := md5.New()
	dst := io.MultiWriter(io.NewOffsetWriter(f, su.offset), sum)
	if msg, code := s.receive(ctx, su.key, dst, su.length, body); code != 0 {
		return "", msg, code
	}
	if err := f.Close(); err != nil {
		return fail(err)
	}
	etag := `"` + hex.EncodeToString(sum.Sum(nil)) + `"`
	data, _ := json.Marshal(partRecord{ETag: etag, Length: su.length})
	if err := writeFileAtomic(record, data); err != nil {
		return fail(err)
	}
	return etag, "", 0
}

// CompleteParts implements hub.PartUploader: once every part is stored
// whole, with the ETag named, and they add up to u's size, it makes their
// data u's object, with u's type, and deletes what is left of the parts. A
// file completed already is left as it is.
func (s *Store) CompleteParts(ctx context.Context, u hub.Upload, parts []hubclient.UploadedPart) error {
	if err := checkKey(u.Key); err != nil {
		return err
	}
	if err := checkPartsID(u.PartsID); err != nil {
		return err
	}
	if size, _, err := s.stat(u.Key); err == nil && size == u.Size {
		return nil
	}
	// No part is written while the file is made of them.
	for _, p := range parts {
		busy := u.Key + "#" + strconv.Itoa(p.Number)
		if !s.claim(busy) {
			return fmt.Errorf("localblob: part %d of %q is being written: %w", p.Number, u.Key, hub.ErrParts)
		}
		defer s.release(busy)
	}
	dir := s.partsDir(u.PartsID)
	var total int64
	for _, p := range parts {
		var rec partRecord
		data, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(p.Number)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("localblob: part %d of %q is not stored: %w", p.Number, u.Key, hub.ErrParts)
		case err != nil:
			return fmt.Errorf("localblob: part %d of %q: %w", p.Number, u.Key, err)
		case json.Unmarshal(data, &rec) != nil || rec.ETag != p.ETag:
			return fmt.Errorf("localblob: part %d of %q has another ETag: %w", p.Number, u.Key, hub.ErrParts)
		}
		total += rec.Length
	}
	if total != u.Size {
		return fmt.Errorf("localblob: the parts of %q hold %d bytes, not %d: %w", u.Key, total, u.Size, hub.ErrParts)
	}
	if err := s.placeParts(u, filepath.Join(dir, "data")); err != nil {
		return err
	}
	if size, contentType, err := s.stat(u.Key); err != nil || size != u.Size || contentType != u.MIME {
		return fmt.Errorf("localblob: %q placed is not found as it should be (%v)", u.Key, err)
	}
	return s.AbortParts(ctx, u)
}

// placeParts makes the file data, the parts joined, the object u.Key of
// type u.MIME.
func (s *Store) placeParts(u hub.Upload, data string) error {
	s.dirMu.RLock()
	defer s.dirMu.RUnlock()
	err := os.MkdirAll(filepath.Dir(s.path(u.Key)), dirMode)
	if err == nil {
		err = s.place(data, u.Key, u.MIME)
	}
	if err != nil {
		return fmt.Errorf("localblob: placing %q: %w", u.Key, err)
	}
	return nil
}

// AbortParts implements hub.PartUploader: it deletes what is stored of u's
// upload in parts.
func (s *Store) AbortParts(_ context.Context, u hub.Upload) error {
	if err := checkPartsID(u.PartsID); err != nil {
		return err
	}
	if err := os.RemoveAll(s.partsDir(u.PartsID)); err != nil {
		return fmt.Errorf("localblob: deleting the parts of %q: %w", u.Key, err)
	}
	s.prune(partsPrefix + u.PartsID)
	return nil
}

// partsLeftover reports whether path, under dir, is a file of an upload in
// parts, which SweepLeftovers deletes once old.
func (s *Store) partsLeftover(path string) bool {
	return strings.HasPrefix(path, filepath.Join(s.dir, filepath.FromSlash(partsPrefix))+string(filepath.Separator))
}
