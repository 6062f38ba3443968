package protocol

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/hubform/hubform/handlers/hub"
	"github.com/hubform/hubform/hubclient"
)

// postUploadURL signs an upload URL for one file, once the form's limits
// allow the file. The upload is recorded so that the PUT and the submission
// can be checked against it.
func (s *Server) postUploadURL(c echo.Context) error {
	form := formOf(c)
	var req hubclient.UploadURLRequest
	if err := s.readJSON(c, maxUploadURLBody, &req); err != nil {
		return err
	}
	limits := form.Settings
	switch {
	case !hasFileField(form.Schema):
		return &hub.Error{Status: http.StatusBadRequest, Message: "this form takes no files"}
	case req.Filename == "" || len(req.Filename) > 255 || !utf8.ValidString(req.Filename):
		return &hub.Error{Status: http.StatusBadRequest, Message: "filename: want 1 to 255 bytes of UTF-8"}
	case req.Size < 0:
		return &hub.Error{Status: http.StatusBadRequest, Message: "size: must not be negative"}
	case req.Size > limits.FileSizeLimit():
		return &hub.Error{Status: http.StatusRequestEntityTooLarge, Message: fmt.Sprintf("file of %d bytes is larger than this form's limit of %d bytes", req.Size, limits.FileSizeLimit())}
	}
	if msg := limits.CheckType(req.MIME); msg != "" {
		return &hub.Error{Status: http.StatusUnsupportedMediaType, Message: msg}
	}
	ctx := c.Request().Context()
	now := s.cfg.Now()
	u := hub.Upload{
		Key: hub.NewUploadKey(form.Site, form.Slug, req.Filename), Site: form.Site, Slug: form.Slug,
		Filename: req.Filename, MIME: req.MIME, Size: req.Size, CreatedAt: now, ExpiresAt: now.Add(s.cfg.UploadURLExpiry),
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	if parts, ok := s.cfg.Blobs.(hub.PartUploader); ok && req.Parts && req.Size >= PartsFrom*s.cfg.UploadPartSize {
		return s.startParts(c, parts, u)
	}
	// Signed before it is recorded, so that a failure leaves no record: a
	// URL whose upload is not recorded is never handed out, and no PUT to
	// it could be claimed.
	url, err := s.cfg.Blobs.SignedPutURL(ctx, u, s.cfg.UploadURLExpiry)
	if err != nil {
		return hub.Internal("signing the upload URL", err)
	}
	if err := s.cfg.Store.CreateUpload(ctx, u); err != nil {
		return hub.Internal("recording the upload", err)
	}
	return c.JSON(http.StatusOK, hubclient.UploadURLResponse{OK: true, UploadURL: url, Key: u.Key})
}

// startParts answers the upload-url route for a file that goes in parts
// (PartUploader): as with one URL, the upload is recorded only once the
// storage has signed its parts' URLs.
func (s *Server) startParts(c echo.Context, parts hub.PartUploader, u hub.Upload) error {
	ctx := c.Request().Context()
	size := s.partSize(u.Size)
	id, urls, err := parts.StartParts(ctx, u, size, s.cfg.UploadURLExpiry)
	if err != nil {
		return hub.Internal("starting an upload in parts", err)
	}
	u.PartsID = id
	if err := s.cfg.Store.CreateUpload(ctx, u); err != nil {
		if aerr := parts.AbortParts(context.WithoutCancel(ctx), u); aerr != nil {
			s.cfg.Logger.Warn("an upload in parts left unrecorded", slog.String("key", u.Key), slog.Any("error", aerr))
		}
		return hub.Internal("recording the upload", err)
	}
	return c.JSON(http.StatusOK, hubclient.UploadURLResponse{OK: true, Key: u.Key,
		Parts: &hubclient.UploadParts{UploadID: id, PartSize: size, URLs: urls}})
}

// partSize returns the size of the parts of a file of size bytes.
func (s *Server) partSize(size int64) int64 {
	return max(s.cfg.UploadPartSize, (size+maxParts-1)/maxParts)
}

// uploadInParts returns the upload in parts of form with key and id, or
// the error answered when there is none to go on with.
func (s *Server) uploadInParts(ctx context.Context, form *hub.Form, key, id string) (hub.Upload, error) {
	u, err := s.cfg.Store.Upload(ctx, key)
	switch {
	case errors.Is(err, hub.ErrNotFound) || err == nil && (u.Site != form.Site || u.Slug != form.Slug || u.PartsID == "" || u.PartsID != id):
		return hub.Upload{}, &hub.Error{Status: http.StatusNotFound, Message: "this form has no upload in parts of that key and id"}
	case err != nil:
		return hub.Upload{}, hub.Internal("reading the upload record", err)
	case u.SubmissionID != "":
		return hub.Upload{}, &hub.Error{Status: http.StatusConflict, Message: "the file was already uploaded and submitted"}
	}
	return u, nil
}

// maxUploadPartsBody caps the upload-parts request: a key and an id.
const maxUploadPartsBody = 8 << 10

// postUploadParts signs the URLs of the parts of an upload in parts
// again, for a client whose upload outlasted them: it goes on with the
// parts it has not sent.
func (s *Server) postUploadParts(c echo.Context) error {
	var req hubclient.UploadPartsRequest
	if err := s.readJSON(c, maxUploadPartsBody, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := s.uploadInParts(ctx, formOf(c), req.Key, req.UploadID)
	if err != nil {
		return err
	}
	size := s.partSize(u.Size)
	urls, err := s.cfg.Blobs.(hub.PartUploader).SignParts(ctx, u, size, s.cfg.UploadURLExpiry)
	if err != nil {
		return hub.Internal("signing the URLs of parts", err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, hubclient.UploadURLResponse{OK: true, Key: u.Key,
		Parts: &hubclient.UploadParts{UploadID: u.PartsID, PartSize: size, URLs: urls}})
}

// maxUploadCompleteBody caps the upload-complete request: a key, an id and
// an ETag for each of up to maxParts parts.
const maxUploadCompleteBody = 1 << 20

// postUploadComplete joins the parts of a file sent in parts, named with
// their ETags, into the file; its key may then be submitted, as after one
// PUT. Completing a file already completed answers as the first time, so
// that a client whose answer was lost may ask again.
func (s *Server) postUploadComplete(c echo.Context) error {
	form := formOf(c)
	var req hubclient.CompleteUploadRequest
	if err := s.readJSON(c, maxUploadCompleteBody, &req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := s.uploadInParts(ctx, form, req.Key, req.UploadID)
	if err != nil {
		return err
	}
	if len(req.Parts) == 0 || len(req.Parts) > maxParts {
		return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("parts: want 1 to %d", maxParts)}
	}
	for i, p := range req.Parts {
		if p.Number != i+1 || p.ETag == "" || len(p.ETag) > 256 {
			return &hub.Error{Status: http.StatusBadRequest, Message: fmt.Sprintf("parts[%d]: want part %d with its ETag", i, i+1)}
		}
	}
	err = s.cfg.Blobs.(hub.PartUploader).CompleteParts(ctx, u, req.Parts)
	switch {
	case errors.Is(err, hub.ErrParts):
		return &hub.Error{Status: http.StatusBadRequest, Message: hub.ErrParts.Error() + ": send the parts not stored, or start again"}
	case err != nil:
		return hub.Internal("completing an upload in parts", err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]bool{"ok": true})
}

func hasFileField(s *hubclient.Schema) bool {
	for _, f := range s.Fields {
		if f.TypeOf().TakesFiles() {
			return true
		}
	}
	return false
}

// uploadGrace is how long after its URL expired an unclaimed upload is kept
// at the least: long enough for its submission to follow.
const uploadGrace = time.Hour
